/*
 * feedback.c — when specializing stops paying: the default policy and the
 * back-off thread.
 *
 * Synthetix's cost model weighs what a specialization saves per call against
 * what establishing it costs; a quasi-invariant that is not quasi enough
 * (its terms written often) makes every write pay a replug to generic, a
 * re-specialization and a replug back. The policy runs after each guarded store
 * that broke a predicate and says how long to stay generic (predicate.c keeps
 * the figures it decides on). The default re-specializes when the cycle costs
 * less than the specialized code saves until the next write (the recent calls
 * per write, as counted, times the benefit the program set); without a
 * benefit, when the cycle takes under 5% of the time between writes. It backs
 * off exponentially while the cycle does not pay; so under an adversarial
 * writer the program runs its generic code, plus at most about 5%.
 *
 * Re-specializing after a back-off needs no write to trigger it: one thread
 * per process, started at the first back-off, sleeps until the earliest
 * deadline and re-specializes what is due through the predicate's respecialize
 * callback.
 */
#include "internal.h"

#include <errno.h>
#include <time.h>

/* The default policy's knobs. */
static const double max_overhead = 0.05;       /* of the time between writes */
static const uint64_t first_backoff_ns = 1000000; /* 1 ms */
static const unsigned max_doublings = 10;      /* up to 1 ms << 10, about 1 s */

uint64_t respec_policy_default(respec_predicate *pred, const respec_predicate_stats *stats,
			       void *arg)
{
	(void)pred;
	(void)arg;
	if (stats->guard_fires == 0 || stats->store_interval_ns == 0)
		return 0;
	/* One cycle: the break's replug, the re-specialization and its replug
	 * (means so far; replugs happen twice per fire). */
	double cycle_ns = (double)(stats->replug_ns + stats->respecialize_ns) /
			  (double)stats->guard_fires;
	if (stats->saved_ns_per_call > 0) {
		/* Synthetix's model: what the calls between two writes save pays
		 * for a cycle (no calls counted: nothing saved). */
		if (stats->recent_calls_per_store * stats->saved_ns_per_call >= cycle_ns)
			return 0;
	} else if (cycle_ns <= max_overhead * stats->store_interval_ns) {
		return 0;
	}
	unsigned doublings = stats->consecutive_backoffs < max_doublings
				     ? (unsigned)stats->consecutive_backoffs
				     : max_doublings;
	return first_backoff_ns << doublings;
}

uint64_t respec_policy_always(respec_predicate *pred, const respec_predicate_stats *stats,
			      void *arg)
{
	(void)pred;
	(void)stats;
	(void)arg;
	return 0;
}

static pthread_mutex_t timer_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t timer_cond;
static pthread_once_t timer_cond_once = PTHREAD_ONCE_INIT;
static bool timer_started, timer_woken;

static void init_timer_cond(void)
{
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* deadlines are respec__now_ns */
	pthread_cond_init(&timer_cond, &attr);
	pthread_condattr_destroy(&attr);
}

static void *back_off_thread(void *arg)
{
	(void)arg;
	for (;;) {
		uint64_t next_due;
		respec_predicate *due = respec__predicates_take_due(respec__now_ns(), &next_due);
		if (due) {
			respec__predicate_back_off_over(due);
			continue;
		}
		pthread_mutex_lock(&timer_lock);
		while (!timer_woken) {
			if (next_due == UINT64_MAX) {
				pthread_cond_wait(&timer_cond, &timer_lock);
				continue;
			}
			struct timespec until = {(time_t)(next_due / 1000000000u),
						 (long)(next_due % 1000000000u)};
			if (pthread_cond_timedwait(&timer_cond, &timer_lock, &until) == ETIMEDOUT)
				break;
		}
		timer_woken = false;
		pthread_mutex_unlock(&timer_lock);
	}
	return NULL;
}

void respec__feedback_start(void)
{
	pthread_once(&timer_cond_once, init_timer_cond);
	pthread_mutex_lock(&timer_lock);
	if (!timer_started)
		timer_started = respec__start_detached_thread(back_off_thread);
	pthread_mutex_unlock(&timer_lock);
}

void respec__feedback_wake(void)
{
	respec__feedback_start();
	pthread_mutex_lock(&timer_lock);
	timer_woken = true;
	pthread_cond_signal(&timer_cond);
	pthread_mutex_unlock(&timer_lock);
}

/* Only the forking thread survives: the back-off thread starts again at the
 * child's next back-off (until then, predicates backing off stay generic). */
void respec__feedback_fork_child(void)
{
	pthread_mutex_init(&timer_lock, NULL);
	init_timer_cond();
	timer_started = false;
	timer_woken = false;
}
