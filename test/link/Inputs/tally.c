#include "tally.h"
#include <stdatomic.h>

#ifndef TALLY_BUILD
#define TALLY_BUILD "generic"
#endif

static atomic_long locks_taken;

void tally_init(struct tally *t)
{
	t->total = 0;
	pthread_mutex_init(&t->lock, NULL);
}

long tally_add_unlocked(struct tally *t, long n)
{
	t->total += n;
	return t->total;
}

long tally_add(struct tally *t, long n)
{
	pthread_mutex_lock(&t->lock);
	atomic_fetch_add(&locks_taken, 1);
	long total = tally_add_unlocked(t, n);
	pthread_mutex_unlock(&t->lock);
	return total;
}

long tally_locks_taken(void)
{
	return atomic_load(&locks_taken);
}

const char *tally_build(void)
{
	return TALLY_BUILD;
}
