/*
 * test_seed.h — the seed of a randomized test: RESPEC_TEST_SEED when it is set (to
 * replay a run), otherwise a fresh one, so that every run explores other inputs. The
 * test prints it ("seed N") so that a failing run can be replayed.
 */
#ifndef RESPEC_TEST_SEED_H
#define RESPEC_TEST_SEED_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static inline uint64_t respec_test_seed(void)
{
	const char *text = getenv("RESPEC_TEST_SEED");
	uint64_t seed;
	if (text != NULL && *text != '\0') {
		char *end;
		seed = strtoull(text, &end, 0);
		if (*end != '\0') {
			fprintf(stderr, "RESPEC_TEST_SEED=%s is not a number\n", text);
			exit(2);
		}
	} else if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed) {
		seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32;
	}
	return seed;
}

#endif
