/* loader_dirs.c — the dynamic loader's search directories (loader_dirs.h). */
#define _GNU_SOURCE
#include "loader_dirs.h"

#include <glob.h>
#include <stdbool.h>
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
 * needing file's directory; an empty entry is the current directory, as for the
 * loader), malloc'ed; NULL when in none. *unknown is set when an entry names a
 * directory respec cannot know ($LIB, $PLATFORM): the loader might find the file
 * there first. */
static char *find_in_path_list(const char *name, const char *list, const char *origin,
			       bool *unknown)
{
	char *copy = list && *list ? strdup(list) : NULL, *found = NULL;
	for (char *rest = copy, *dir; rest && !found && !*unknown;) {
		dir = strsep(&rest, ":");
		const char *tail = dir, *base = "";
		if (strncmp(dir, "$ORIGIN", 7) == 0)
			tail = dir + 7, base = origin;
		else if (strncmp(dir, "${ORIGIN}", 9) == 0)
			tail = dir + 9, base = origin;
		if (strchr(tail, '$')) {
			*unknown = true;
			break;
		}
		char *candidate = NULL;
		int made = *base || *tail ? asprintf(&candidate, "%s%s/%s", base, tail, name)
					  : asprintf(&candidate, "%s", name);
		if (made >= 0 && access(candidate, R_OK) == 0)
			found = candidate;
		else if (made >= 0)
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
	bool unknown = false;
	char *found = runpath ? NULL : find_in_path_list(name, rpath, origin, &unknown);
	if (!found && !unknown)
		found = find_in_path_list(name, getenv("LD_LIBRARY_PATH"), origin, &unknown);
	if (!found && !unknown)
		found = find_in_path_list(name, runpath, origin, &unknown);
	for (size_t i = 0; i < dir_count && !found && !unknown; i++) {
		char *candidate = NULL;
		if (asprintf(&candidate, "%s/%s", dirs[i], name) < 0)
			continue;
		if (access(candidate, R_OK) == 0)
			found = candidate;
		else
			free(candidate);
	}
	return found;
}
