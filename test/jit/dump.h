/*
 * dump.h — reading what RESPEC_JIT_DUMP=DIR wrote (DIR/FUNCTION.N.ll, one file
 * per compiled specialization) in the run-time specialization tests. One copy
 * per test program.
 */
#ifndef RESPEC_TEST_JIT_DUMP_H
#define RESPEC_TEST_JIT_DUMP_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Calls visit(name, line) for every line of every file dumped into directory,
 * then removes the dump; returns the number of files. */
static int read_dump(const char *directory, void (*visit)(const char *name, const char *line, void *context),
		     void *context)
{
	int files = 0;
	DIR *dir = opendir(directory);
	struct dirent *entry;
	while (dir && (entry = readdir(dir))) {
		if (entry->d_name[0] == '.')
			continue;
		char path[512], line[1024];
		snprintf(path, sizeof path, "%s/%s", directory, entry->d_name);
		FILE *file = fopen(path, "r");
		while (file && fgets(line, sizeof line, file))
			visit(entry->d_name, line, context);
		if (file)
			fclose(file);
		unlink(path);
		files++;
	}
	if (dir)
		closedir(dir);
	rmdir(directory);
	return files;
}

#endif
