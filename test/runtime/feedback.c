/*
 * feedback.c — the feedback policy (runtime/feedback.c): a writer breaking a
 * predicate now and then gets it re-specialized at every write; a writer
 * breaking it back to back (the cycle costs more than 5% of the time between
 * writes) makes it back off and run generic code, with few re-specializations;
 * once the writer stops, the back-off thread re-specializes it without any
 * write; respec_policy_always re-specializes at every break again; a custom
 * policy gets the figures and its period is honored; with a benefit per call
 * set, the default weighs it against the cycle (Synthetix's model). The respecialize callback
 * costs 200 µs, as a small run-time specialization would. Last, a guarded store
 * made while the back-off thread is inside the respecialize callback waits for
 * it, so that the code plugged in is never specialized on a stale term.
 */
#include "check.h"
#include "respec/runtime.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

enum { RESPECIALIZE_NS = 200000 };

static struct {
	respec_spid spid;
	int term;
} object;
static respec_slot slot;

static int generic_get(void) { return -1; }
static int specialized_get(void) { return object.term; }

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec t = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
	nanosleep(&t, NULL);
}

static respec_fn respecialize(respec_predicate *pred, respec_slot *s, void *arg)
{
	(void)pred;
	(void)s;
	(void)arg;
	for (uint64_t start = now_ns(); now_ns() - start < RESPECIALIZE_NS;)
		;
	return RESPEC_FN(specialized_get);
}

static respec_predicate_stats stats_of(respec_predicate *pred)
{
	respec_predicate_stats stats;
	CHECK_OK(respec_predicate_get_stats(pred, &stats));
	return stats;
}

static int call(void)
{
	return RESPEC_CALL(&slot, int (*)(void));
}

/* Waits up to 3 s for the back-off thread to have specialized it again. */
static void wait_until_holds(respec_predicate *pred)
{
	for (int i = 0; i < 3000 && !respec_predicate_holds(pred); i++)
		sleep_ns(1000000);
	CHECK(respec_predicate_holds(pred));
}

static void wait_until_specialized(respec_predicate *pred)
{
	wait_until_holds(pred);
	CHECK(call() == object.term);
	CHECK(!stats_of(pred).backing_off);
}

static unsigned custom_calls;
static uint64_t custom_policy(respec_predicate *pred, const respec_predicate_stats *stats, void *arg)
{
	CHECK(arg == &custom_calls);
	CHECK(!respec_predicate_holds(pred) && stats->guard_fires >= 1 &&
	      stats->guarded_stores >= stats->guard_fires && stats->replug_ns > 0);
	/* Half a second once (long enough that no scheduling delay of a loaded
	 * machine lets the back-off end before the test looks), then at once. */
	return custom_calls++ == 0 ? 500000000 : 0;
}

/* The race with the back-off thread: its callback bakes the term into the
 * specialized code, then waits (until released) while a writer stores. */
static struct {
	respec_spid spid;
	_Atomic int term;
} baked_object;
static respec_slot baked_slot;
static _Atomic int baked;
static _Atomic bool in_callback, release_callback, writer_stored;

static int baked_generic(void) { return atomic_load(&baked_object.term); }
static int baked_specialized(void) { return atomic_load(&baked); }

static respec_fn bake(respec_predicate *pred, respec_slot *s, void *arg)
{
	(void)pred, (void)s, (void)arg;
	atomic_store(&baked, atomic_load(&baked_object.term));
	atomic_store(&in_callback, true);
	for (int i = 0; i < 3000 && !atomic_load(&release_callback); i++)
		sleep_ns(1000000);
	atomic_store(&in_callback, false);
	return RESPEC_FN(baked_specialized);
}

static uint64_t back_off_1ms(respec_predicate *pred, const respec_predicate_stats *stats, void *arg)
{
	(void)pred, (void)stats, (void)arg;
	return 1000000;
}

static void *store_2(void *arg)
{
	(void)arg;
	RESPEC_GUARDED_STORE(baked_object.spid, baked_object.term, 2);
	atomic_store(&writer_stored, true);
	return NULL;
}

/* A predicate named `name` over the term behind `spid`, with one slot
 * (generic and specialized implementations) and a respecialize callback. */
static respec_predicate *predicate_over(const char *name, respec_spid *spid, respec_slot *s,
					respec_fn generic, respec_fn specialized,
					respec_respecialize_fn fn)
{
	CHECK_OK(respec_slot_init(s, name, RESPEC_PROTOCOL_DEFAULT, generic));
	respec_predicate *pred = respec_predicate_create(name);
	CHECK(pred);
	CHECK_OK(respec_predicate_add_slot(pred, s, specialized));
	CHECK_OK(respec_predicate_watch(pred, spid));
	CHECK_OK(respec_predicate_set_respecialize(pred, fn, NULL));
	return pred;
}

static void store_during_respecialization(void)
{
	respec_predicate *pred =
		predicate_over("feedback.baked", &baked_object.spid, &baked_slot,
			       RESPEC_FN(baked_generic), RESPEC_FN(baked_specialized), bake);
	CHECK_OK(respec_predicate_set_policy(pred, back_off_1ms, NULL));
	CHECK_OK(respec_predicate_establish(pred));
	atomic_store(&release_callback, false);

	/* Broken, backing off: the back-off thread re-specializes in 1 ms. */
	RESPEC_GUARDED_STORE(baked_object.spid, baked_object.term, 1);
	for (int i = 0; i < 3000 && !atomic_load(&in_callback); i++)
		sleep_ns(1000000);
	CHECK(atomic_load(&in_callback) && atomic_load(&baked) == 1);
	pthread_t writer;
	CHECK(pthread_create(&writer, NULL, store_2, NULL) == 0);
	sleep_ns(50000000);
	bool stored_meanwhile = atomic_load(&writer_stored);
	atomic_store(&release_callback, true);
	pthread_join(writer, NULL);
	CHECK(!stored_meanwhile);
	/* The store broke the freshly baked code; baked again for 2. */
	wait_until_holds(pred);
	CHECK(RESPEC_CALL(&baked_slot, int (*)(void)) == 2);
	CHECK_OK(respec_predicate_invalidate(pred));
	CHECK_OK(respec_predicate_destroy(pred));
}

int main(void)
{
	respec_predicate *pred =
		predicate_over("feedback.term", &object.spid, &slot, RESPEC_FN(generic_get),
			       RESPEC_FN(specialized_get), respecialize);
	CHECK_OK(respec_predicate_establish(pred));

	/* A writer every 50 ms: 200 µs of re-specialization is 0.4% of that
	 * (room for sanitizers' slower replugs). */
	for (int i = 1; i <= 10; i++) {
		sleep_ns(50000000);
		RESPEC_GUARDED_STORE(object.spid, object.term, i);
		CHECK(respec_predicate_holds(pred) && call() == i);
	}
	respec_predicate_stats slow = stats_of(pred);
	CHECK(slow.guarded_stores == 10 && slow.guard_fires == 10 && slow.respecializations == 10 &&
	      slow.backoffs == 0 && slow.respecialize_ns >= 10ull * RESPECIALIZE_NS);

	/* A writer back to back: the policy backs off, so most stores find the
	 * predicate broken already (without a policy, each would break it). */
	uint64_t start = now_ns();
	for (int i = 0; i < 2000; i++)
		RESPEC_GUARDED_STORE(object.spid, object.term, 100 + i);
	uint64_t fast_ns = now_ns() - start;
	respec_predicate_stats fast = stats_of(pred);
	uint64_t fast_fires = fast.guard_fires - slow.guard_fires;
	printf("back to back: 2000 stores in %.1f ms, %llu broke it, %llu back-offs\n",
	       (double)fast_ns / 1e6, (unsigned long long)fast_fires,
	       (unsigned long long)fast.backoffs);
	CHECK(fast.backoffs >= 1 && fast_fires < 40 &&
	      fast.respecializations - slow.respecializations < 40);

	/* The writer stopped: specialized again, with no write to trigger it. */
	wait_until_specialized(pred);
	CHECK(call() == 2099);

	/* Every break re-specialized, whatever it costs. */
	CHECK_OK(respec_predicate_set_policy(pred, respec_policy_always, NULL));
	uint64_t before = stats_of(pred).respecializations;
	for (int i = 0; i < 20; i++) {
		RESPEC_GUARDED_STORE(object.spid, object.term, 3000 + i);
		CHECK(respec_predicate_holds(pred) && call() == 3000 + i);
	}
	CHECK(stats_of(pred).respecializations == before + 20);

	/* A custom policy: half a second generic after the first break. */
	CHECK_OK(respec_predicate_set_policy(pred, custom_policy, &custom_calls));
	RESPEC_GUARDED_STORE(object.spid, object.term, 4000);
	CHECK(custom_calls == 1 && !respec_predicate_holds(pred) && call() == -1);
	wait_until_specialized(pred);
	CHECK(call() == 4000);
	RESPEC_GUARDED_STORE(object.spid, object.term, 4001);
	CHECK(custom_calls == 2 && respec_predicate_holds(pred) && call() == 4001);

	/* NULL: the default again. With a benefit set and the calls counted, it
	 * is Synthetix's model: a 200 µs cycle is paid for by calls saving a
	 * second each, even back to back; by calls saving a femtosecond, never,
	 * even 50 ms apart (where the 5% rule re-specializes). */
	CHECK_OK(respec_predicate_set_policy(pred, NULL, NULL));
	respec_stats_set_counting(true);
	CHECK_OK(respec_predicate_set_benefit(pred, 1e9));
	for (int i = 0; i < 10; i++) /* calls before the first store */
		CHECK(call() == 4001);
	respec_predicate_stats paying = stats_of(pred);
	for (int i = 0; i < 200; i++) {
		RESPEC_GUARDED_STORE(object.spid, object.term, 5000 + i);
		CHECK(respec_predicate_holds(pred) && call() == 5000 + i);
	}
	CHECK(stats_of(pred).respecializations == paying.respecializations + 200 &&
	      stats_of(pred).backoffs == paying.backoffs);
	CHECK_OK(respec_predicate_set_benefit(pred, 1e-6));
	sleep_ns(50000000);
	RESPEC_GUARDED_STORE(object.spid, object.term, 6000);
	/* (The back-off is 1 ms: it may be over already, so holds is not checked.) */
	CHECK(stats_of(pred).backoffs == paying.backoffs + 1);
	CHECK(stats_of(pred).saved_ns_per_call == 1e-6 && stats_of(pred).recent_calls_per_store == 1);
	wait_until_specialized(pred);
	CHECK(call() == 6000);
	CHECK(respec_predicate_set_benefit(pred, -1) == EINVAL);
	CHECK_OK(respec_predicate_set_benefit(pred, 0));
	respec_stats_set_counting(false);
	CHECK_OK(respec_predicate_invalidate(pred));
	CHECK_OK(respec_predicate_destroy(pred));

	store_during_respecialization();
	printf("PASS\n");
	return 0;
}
