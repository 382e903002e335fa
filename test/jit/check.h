/*
 * check.h — the run-time specialization tests' assertion: CHECK(cond, fmt, ...)
 * reports a failed condition with its file:line and counts it in `failures`,
 * which the test's main() turns into its exit status. One copy per test program.
 */
#ifndef RESPEC_TEST_JIT_CHECK_H
#define RESPEC_TEST_JIT_CHECK_H

#include <stdio.h>

static int failures;
#define CHECK(cond, ...)                                                      \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "%s:%d: FAILED: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                         \
			fputc('\n', stderr);                                  \
			failures++;                                           \
		}                                                             \
	} while (0)

#endif
