/*
 * profile_output.c — writing a profile file (profile_output.h).
 */
#define _GNU_SOURCE
#include "profile_output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void profile_write(const char *suffix, void (*write_records)(FILE *out, void *context),
		   void *context)
{
	const char *pattern = getenv("RESPEC_PROFILE_OUT");
	char path[4096], temporary[4200];
	size_t n = 0;
	if (!pattern || !*pattern)
		pattern = "respec-profile.%p.txt";
	for (const char *p = pattern; *p && n + 24 < sizeof path; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			n += (size_t)snprintf(path + n, sizeof path - n, "%ld", (long)getpid());
			p++;
		} else {
			path[n++] = *p;
		}
	}
	path[n] = 0;
	strncat(path, suffix, sizeof path - strlen(path) - 1);
	snprintf(temporary, sizeof temporary, "%s.partial.%ld", path, (long)getpid());
	FILE *out = fopen(temporary, "w");
	if (!out) {
		fprintf(stderr, "respec profile: cannot write %s\n", temporary);
		return;
	}
	fprintf(out, "respec-profile 1\n");
	write_records(out, context);
	if (fclose(out) != 0 || rename(temporary, path) != 0) {
		fprintf(stderr, "respec profile: cannot write %s\n", path);
		unlink(temporary);
	}
}
