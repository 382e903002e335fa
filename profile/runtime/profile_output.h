/*
 * profile_output.h — where a profile goes and how it is written, for both of
 * respec profile's run-time libraries (profile_runtime.c, file_observer.c).
 */
#ifndef RESPEC_PROFILE_OUTPUT_H
#define RESPEC_PROFILE_OUTPUT_H

#include <stdio.h>

#define PROFILE_OUTPUT_HIDDEN __attribute__((visibility("hidden")))

/* Writes this process's profile: write_records(out, context) fills the file
 * after its first line ("respec-profile 1"). The name is $RESPEC_PROFILE_OUT
 * ("%p" becomes the process id; default respec-profile.%p.txt) followed by
 * suffix; the file is written under a temporary name and renamed, so that a
 * profile is never half-written. Failures are said on stderr. */
PROFILE_OUTPUT_HIDDEN void profile_write(const char *suffix,
					 void (*write_records)(FILE *out, void *context),
					 void *context);

#endif
