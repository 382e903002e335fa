/* tally: a thread-safe counter library, the client of respec link's tests. */
#ifndef TALLY_H
#define TALLY_H
#include <pthread.h>

struct tally {
	long total;
	pthread_mutex_t lock;
};

void tally_init(struct tally *t);
/* Adds n under the tally's lock; returns the new total. */
long tally_add(struct tally *t, long n);
/* The same without the lock, for callers that know no other thread runs. */
long tally_add_unlocked(struct tally *t, long n);
/* Locks taken so far (the tests' witness of which code ran). */
long tally_locks_taken(void);
/* Which build of the library this is. */
const char *tally_build(void);
#endif
