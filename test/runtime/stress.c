/*
 * stress.c — the holding-tank guarantee under load, for one protocol.
 *
 *   stress PROTOCOL [REPLUGS]
 *
 * Caller threads call through two slots while a replugger thread replugs the
 * first REPLUGS times (every 8th replug asynchronous) and a guard thread keeps
 * writing a predicate term the second slot is specialized on.
 *
 * Versions: each install of implementation k gets a fresh version number;
 * when the replug that retired it returns (or its reclaim callback runs), the
 * replugger records that version as retired. Every implementation checks, at
 * entry and again after some work, that its version was not retired: a call
 * that entered, or was still running, after the replug retiring its version
 * returned is a violation. The specialized implementations of the second slot
 * check that the term still has the value they were specialized for: a term
 * written while specialized code could run is a violation. Every call's
 * result is cross-checked against the implementations that could produce it.
 */
#include "check.h"
#include "respec/runtime.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

enum { VERSIONS = 4, GENERIC_TAG = 100 };

static respec_slot versioned_slot, guarded_slot;
static _Atomic uint64_t installed_as[VERSIONS], retired_upto[VERSIONS];
static _Atomic bool reclaim_pending[VERSIONS];
static _Atomic uint64_t late_entries, still_running, stale_terms, bad_results;
static _Atomic uint64_t total_calls, replugged_calls;
static _Atomic int callers_running;
static _Atomic bool stop;

/* Work inside a call: long enough for replugs to overlap running calls. */
static void spin_a_little(void)
{
	for (volatile int i = 0; i < 150; i++)
		;
}

static int versioned(int k, int x)
{
	uint64_t version = atomic_load(&installed_as[k]);
	if (atomic_load(&retired_upto[k]) >= version)
		atomic_fetch_add(&late_entries, 1);
	spin_a_little();
	if (atomic_load(&retired_upto[k]) >= version)
		atomic_fetch_add(&still_running, 1);
	return x + k;
}
static int versioned0(int x) { return versioned(0, x); }
static int versioned1(int x) { return versioned(1, x); }
static int versioned2(int x) { return versioned(2, x); }
static int versioned3(int x) { return versioned(3, x); }
static int (*const versions[VERSIONS])(int) = {versioned0, versioned1, versioned2, versioned3};
static int versioned_generic(int x) { return x + GENERIC_TAG; }

/* The guarded object: one predicate term and its SPID. */
static struct {
	respec_spid spid;
	_Atomic long term;
} object;
static respec_predicate *term_is_baked;
static _Atomic long baked[2];
static int live_specialization; /* under the predicate lock */

static long specialized(int k, int x)
{
	long assumed = atomic_load(&baked[k]);
	if (atomic_load(&object.term) != assumed)
		atomic_fetch_add(&stale_terms, 1);
	spin_a_little();
	if (atomic_load(&object.term) != assumed)
		atomic_fetch_add(&stale_terms, 1);
	return x + assumed;
}
static long specialized0(int x) { return specialized(0, x); }
static long specialized1(int x) { return specialized(1, x); }
static long guarded_generic(int x) { return x + atomic_load(&object.term); }

/* Incremental specialization: bake the term's new value into the spare copy
 * (no caller can be in it: the guard's replug to generic retired both). */
static respec_fn respecialize(respec_predicate *pred, respec_slot *slot, void *arg)
{
	(void)pred, (void)slot, (void)arg;
	live_specialization ^= 1;
	atomic_store(&baked[live_specialization], atomic_load(&object.term));
	return live_specialization ? RESPEC_FN(specialized1) : RESPEC_FN(specialized0);
}

static void *caller(void *arg)
{
	bool owner = arg != NULL;
	if (owner) {
		CHECK_OK(respec_slot_set_owner(&versioned_slot));
		CHECK_OK(respec_slot_set_owner(&guarded_slot));
	}
	uint64_t calls = 0, replugged = 0;
	atomic_fetch_add(&callers_running, 1);
	for (int x = 0; !atomic_load_explicit(&stop, memory_order_relaxed); x = (x + 1) & 0xffff) {
		int tag = RESPEC_CALL(&versioned_slot, int (*)(int), x) - x;
		if (!(tag >= 0 && tag < VERSIONS) && tag != GENERIC_TAG)
			atomic_fetch_add(&bad_results, 1);
		replugged += tag != GENERIC_TAG;
		long term_seen = RESPEC_CALL(&guarded_slot, long (*)(int), x) - x;
		if (term_seen < 0)
			atomic_fetch_add(&bad_results, 1);
		calls += 2;
	}
	atomic_fetch_add(&total_calls, calls);
	atomic_fetch_add(&replugged_calls, replugged);
	return NULL;
}

static void reclaim_version(respec_fn old, void *arg)
{
	int k = (int)(intptr_t)arg;
	CHECK(old == RESPEC_FN(versions[k]));
	atomic_store(&retired_upto[k], atomic_load(&installed_as[k]));
	atomic_store(&reclaim_pending[k], false);
}

static long replugs_wanted;
static _Atomic long guards_fired;

static void *replugger(void *arg)
{
	/* Start only once everyone is at work: with few replugs (the scaled-down
	 * runs) the loop could otherwise end before a caller or a guard ran. */
	int callers = (int)(intptr_t)arg;
	while (atomic_load(&callers_running) < callers || atomic_load(&guards_fired) == 0)
		sched_yield();
	int current = -1;
	for (long r = 1; r <= replugs_wanted; r++) {
		int next = (current + 1) % VERSIONS;
		if (atomic_load(&reclaim_pending[next]))
			CHECK_OK(respec_barrier());
		CHECK(!atomic_load(&reclaim_pending[next]));
		atomic_store(&installed_as[next], (uint64_t)r);
		if (r % 8 == 0 && current >= 0) {
			atomic_store(&reclaim_pending[current], true);
			CHECK_OK(respec_replug_async(&versioned_slot, RESPEC_FN(versions[next]),
						     reclaim_version, (void *)(intptr_t)current));
		} else {
			CHECK_OK(respec_replug(&versioned_slot, RESPEC_FN(versions[next])));
			if (current >= 0)
				atomic_store(&retired_upto[current], atomic_load(&installed_as[current]));
		}
		current = next;
	}
	CHECK_OK(respec_barrier());
	return NULL;
}

static void *guard_writer(void *unused)
{
	(void)unused;
	for (long value = 1; !atomic_load(&stop); value++) {
		RESPEC_GUARDED_STORE(object.spid, object.term, value);
		atomic_fetch_add(&guards_fired, 1);
		if (value % 4 == 0) { /* sometimes break it for good, then rebind */
			CHECK_OK(respec_predicate_invalidate(term_is_baked));
			object.term = value; /* unguarded: nothing is specialized on it now */
			/* establish plugs in the implementation given to add_slot */
			live_specialization = 0;
			atomic_store(&baked[0], value);
			CHECK_OK(respec_predicate_establish(term_is_baked));
		}
	}
	return NULL;
}

static enum respec_protocol parse_protocol(const char *name)
{
	if (strcmp(name, "epoch") == 0)
		return RESPEC_PROTOCOL_EPOCH;
	if (strcmp(name, "thread") == 0)
		return RESPEC_PROTOCOL_THREAD;
	if (strcmp(name, "counting") == 0)
		return RESPEC_PROTOCOL_COUNTING;
	fprintf(stderr, "usage: stress epoch|thread|counting [replugs]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		parse_protocol("?");
	enum respec_protocol protocol = parse_protocol(argv[1]);
	long full = 100000;
	replugs_wanted = argc > 2 ? atol(argv[2]) : (RESPEC_TEST_TSAN ? full / 5 : full);
	if (replugs_wanted < full)
		printf("note: %ld replugs, scaled down from %ld%s\n", replugs_wanted, full,
		       RESPEC_TEST_TSAN ? " for ThreadSanitizer" : "");

	CHECK_OK(respec_slot_init(&versioned_slot, "stress.versioned", protocol,
				  RESPEC_FN(versioned_generic)));
	CHECK_OK(respec_slot_init(&guarded_slot, "stress.guarded", protocol,
				  RESPEC_FN(guarded_generic)));
	term_is_baked = respec_predicate_create("stress.term-is-baked");
	CHECK(term_is_baked);
	CHECK_OK(respec_predicate_add_slot(term_is_baked, &guarded_slot, RESPEC_FN(specialized0)));
	CHECK_OK(respec_predicate_watch(term_is_baked, &object.spid));
	CHECK_OK(respec_predicate_set_respecialize(term_is_baked, respecialize, NULL));
	atomic_store(&baked[0], atomic_load(&object.term));
	CHECK_OK(respec_predicate_establish(term_is_baked));

	/* THREAD slots have one caller, their owner; shared ones get two (with the
	 * replugger and the guard writer that oversubscribes two CPUs already). */
	int callers = protocol == RESPEC_PROTOCOL_THREAD ? 1 : 2;
	pthread_t caller_threads[2], replug_thread, guard_thread;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < callers; i++)
		CHECK(pthread_create(&caller_threads[i], NULL, caller,
				     protocol == RESPEC_PROTOCOL_THREAD ? (void *)1 : NULL) == 0);
	CHECK(pthread_create(&guard_thread, NULL, guard_writer, NULL) == 0);
	CHECK(pthread_create(&replug_thread, NULL, replugger, (void *)(intptr_t)callers) == 0);
	CHECK(pthread_join(replug_thread, NULL) == 0);
	atomic_store(&stop, true);
	CHECK(pthread_join(guard_thread, NULL) == 0);
	for (int i = 0; i < callers; i++)
		CHECK(pthread_join(caller_threads[i], NULL) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	respec_slot_stats versioned_stats, guarded_stats;
	CHECK_OK(respec_slot_get_stats(&versioned_slot, &versioned_stats));
	CHECK_OK(respec_slot_get_stats(&guarded_slot, &guarded_stats));
	printf("%s (barrier: %s): %.2f s, %llu calls (%llu ran a replugged version), %llu replugs of %s (avg %.1f us, max %.1f us), "
	       "%ld guarded stores, %llu replugs of %s (%llu by invalidation)\n",
	       argv[1], respec_barrier_mechanism(),
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
	       (unsigned long long)atomic_load(&total_calls),
	       (unsigned long long)atomic_load(&replugged_calls),
	       (unsigned long long)versioned_stats.replugs, versioned_stats.name,
	       versioned_stats.replug_ns / 1e3 / (double)versioned_stats.replugs,
	       versioned_stats.replug_ns_max / 1e3, atomic_load(&guards_fired),
	       (unsigned long long)guarded_stats.replugs, guarded_stats.name,
	       (unsigned long long)guarded_stats.invalidations);
	printf("violations: late entries %llu, still running %llu, stale terms %llu, bad results %llu\n",
	       (unsigned long long)late_entries, (unsigned long long)still_running,
	       (unsigned long long)stale_terms, (unsigned long long)bad_results);
	CHECK(versioned_stats.replugs == (uint64_t)replugs_wanted);
	CHECK(atomic_load(&guards_fired) > 0);
	CHECK(guarded_stats.invalidations > 0);
	CHECK(atomic_load(&replugged_calls) > 0);
	CHECK(late_entries == 0 && still_running == 0 && stale_terms == 0 && bad_results == 0);

	CHECK_OK(respec_predicate_invalidate(term_is_baked));
	CHECK_OK(respec_predicate_destroy(term_is_baked));
	CHECK_OK(respec_slot_destroy(&guarded_slot));
	CHECK_OK(respec_slot_destroy(&versioned_slot));
	printf("PASS\n");
	return 0;
}
