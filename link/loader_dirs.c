/* loader_dirs.c — the dynamic loader's search directories (loader_dirs.h). */
#define _GNU_SOURCE
#include "loader_dirs.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The directories of one ld.so.conf file; depth bounds include cycles. */
static void read_config(const char *path, unsigned depth,
			void (*visit)(const char *dir, void *context), void *context)
{
	FILE *in = depth < 8 ? fopen(path, "re") : NULL;
	char line[4096];
	while (in && fgets(line, sizeof line, in)) {
		line[strcspn(line, "#\r\n")] = '\0';
		char *start = line + strspn(line, " \t");
		if (strncmp(start, "include", 7) == 0) {
			glob_t matches;
			if (glob(start + 7 + strspn(start + 7, " \t"), 0, NULL, &matches) == 0)
				for (size_t i = 0; i < matches.gl_pathc; i++)
					read_config(matches.gl_pathv[i], depth + 1, visit, context);
			globfree(&matches);
		} else if (*start == '/') {
			start[strcspn(start, " \t")] = '\0';
			visit(start, context);
		}
	}
	if (in)
		fclose(in);
}

void link_loader_dirs(void (*visit)(const char *dir, void *context), void *context)
{
	read_config("/etc/ld.so.conf", 0, visit, context);
	static const char *const system_dirs[] = {"/lib64", "/usr/lib64", "/lib", "/usr/lib"};
	for (size_t i = 0; i < sizeof system_dirs / sizeof *system_dirs; i++)
		visit(system_dirs[i], context);
}

/* The file `name` in one directory of a colon-separated `list` ($ORIGIN is the
 * needing file's directory), malloc'ed; NULL when in none. */
static char *find_in_path_list(const char *name, const char *list, const char *origin)
{
	char *copy = list ? strdup(list) : NULL, *found = NULL;
	for (char *save = NULL, *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		const char *rest = dir;
		const char *base = "";
		if (strncmp(dir, "$ORIGIN", 7) == 0)
			rest = dir + 7, base = origin;
		else if (strncmp(dir, "${ORIGIN}", 9) == 0)
			rest = dir + 9, base = origin;
		char *candidate = NULL;
		if (asprintf(&candidate, "%s%s/%s", base, rest, name) >= 0 &&
		    access(candidate, R_OK) == 0)
			found = candidate;
		else
			free(candidate);
	}
	free(copy);
	return found;
}

char *link_find_needed(const char *name, const char *needed_by, const char *rpath,
		       const char *runpath, const char *const *dirs, size_t dir_count)
{
	if (strchr(name, '/'))
		return access(name, R_OK) == 0 ? strdup(name) : NULL;
	char origin[4096];
	snprintf(origin, sizeof origin, "%s", needed_by);
	char *slash = strrchr(origin, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(origin, sizeof origin, ".");
	char *found = runpath ? NULL : find_in_path_list(name, rpath, origin);
	if (!found)
		found = find_in_path_list(name, getenv("LD_LIBRARY_PATH"), origin);
	if (!found)
		found = find_in_path_list(name, runpath, origin);
	for (size_t i = 0; i < dir_count && !found; i++) {
		char *candidate = NULL;
		if (asprintf(&candidate, "%s/%s", dirs[i], name) >= 0 &&
		    access(candidate, R_OK) == 0)
			found = candidate;
		else
			free(candidate);
	}
	return found;
}
