/*
 * error.c — misuse is reported, not guessed at: every failing respec_* call
 * returns an errno value and leaves a sentence in a per-thread buffer that
 * respec_last_error() returns, naming the slot or predicate involved.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static _Thread_local char last_error[256];

int respec__fail(int err, const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	vsnprintf(last_error, sizeof last_error, fmt, args);
	va_end(args);
	return err;
}

const char *respec_last_error(void)
{
	return last_error[0] ? last_error : "no error";
}

void respec__guard_failed(respec_predicate *pred, int err, const char *file, int line)
{
	fprintf(stderr, "%s:%d: respec: guarded store to a term of predicate \"%s\" failed (%d): %s\n",
		file, line, respec_predicate_name(pred), err, respec_last_error());
	abort();
}
