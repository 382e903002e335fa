/*
 * check.h — the runtime tests' assertion macros: a failed CHECK prints the
 * expression with its location and exits non-zero, so ctest reports it.
 */
#ifndef RESPEC_TEST_CHECK_H
#define RESPEC_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                  \
	do {                                                                         \
		if (!(cond)) {                                                       \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
			exit(1);                                                     \
		}                                                                    \
	} while (0)

/* A respec_* call fails with `err` and respec_last_error() mentions `needle`. */
#define CHECK_FAILS(call, err, needle)                                               \
	do {                                                                         \
		int check_got_ = (call);                                             \
		if (check_got_ != (err) || !strstr(respec_last_error(), (needle))) { \
			fprintf(stderr, "%s:%d: %s returned %d (want %d), message \"%s\" (want \"%s\")\n", \
				__FILE__, __LINE__, #call, check_got_, (int)(err),   \
				respec_last_error(), (needle));                      \
			exit(1);                                                     \
		}                                                                    \
	} while (0)

#define CHECK_OK(call)                                                               \
	do {                                                                         \
		int check_got_ = (call);                                             \
		if (check_got_ != 0) {                                               \
			fprintf(stderr, "%s:%d: %s failed (%d): %s\n", __FILE__, __LINE__, \
				#call, check_got_, respec_last_error());             \
			exit(1);                                                     \
		}                                                                    \
	} while (0)

/* Sanitizers slow everything down; tests scale their iteration counts. */
#if defined(__SANITIZE_THREAD__)
#define RESPEC_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RESPEC_TEST_TSAN 1
#endif
#endif
#ifndef RESPEC_TEST_TSAN
#define RESPEC_TEST_TSAN 0
#endif

#endif /* RESPEC_TEST_CHECK_H */
