/* loader_dirs.c — the dynamic loader's search directories (loader_dirs.h). */
#define _GNU_SOURCE
#include "loader_dirs.h"

#include <glob.h>
#include <stdio.h>
#include <string.h>

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
