/*
 * predicates.c — single-threaded semantics of predicates, guards, the
 * non-blocking replug and the counters: establishing enables the specialized
 * code, a guarded store disables it before the term changes and re-specializes
 * after, an explicit invalidation goes back to generic, reclaim callbacks run
 * exactly once and never for the generic implementation, and counted calls
 * and replugs show up in respec_slot_get_stats and the printed table.
 */
#include "check.h"
#include "respec/runtime.h"

#include <stdint.h>

struct file {
	respec_spid spid;
	long offset; /* predicate term: the next read continues here */
};
static struct file file;
static respec_slot read_slot, stat_slot;

static long observed_offset_at_respecialize = -1;
static long generic_read(int n) { return file.offset + n; }
static long sequential_read(int n) { return 1000 + n; }
static long resumed_read(int n) { return 2000 + n; }
static long generic_stat(int n) { return -n; }
static long cached_stat(int n) { return 3000 + n; }

static respec_fn respecialize(respec_predicate *pred, respec_slot *slot, void *arg)
{
	CHECK(arg == &file);
	CHECK(!respec_predicate_holds(pred));
	/* Runs after the store: the new term value is visible, the old code is out. */
	observed_offset_at_respecialize = file.offset;
	CHECK(respec_slot_current(slot) == respec_slot_generic(slot));
	return slot == &read_slot ? RESPEC_FN(resumed_read) : NULL;
}

static int reclaims;
static respec_fn last_reclaimed;
static void count_reclaim(respec_fn old, void *arg)
{
	CHECK(arg == &reclaims);
	reclaims++;
	last_reclaimed = old;
}

int main(void)
{
	CHECK_OK(respec_slot_init(&read_slot, "pred.read", RESPEC_PROTOCOL_DEFAULT,
				  RESPEC_FN(generic_read)));
	CHECK_OK(respec_slot_init(&stat_slot, "pred.stat", RESPEC_PROTOCOL_COUNTING,
				  RESPEC_FN(generic_stat)));
	respec_predicate *sequential = respec_predicate_create("pred.sequential");
	CHECK(sequential);
	CHECK(strcmp(respec_predicate_name(sequential), "pred.sequential") == 0);
	CHECK_OK(respec_predicate_add_slot(sequential, &read_slot, RESPEC_FN(sequential_read)));
	CHECK_OK(respec_predicate_add_slot(sequential, &stat_slot, RESPEC_FN(cached_stat)));
	CHECK_OK(respec_predicate_watch(sequential, &file.spid));
	respec_stats_set_counting(true);
	CHECK(respec_stats_counting());

	/* Not established: generic code, unguarded stores. */
	CHECK(RESPEC_CALL(&read_slot, long (*)(int), 1) == 1);
	RESPEC_GUARDED_STORE(file.spid, file.offset, 5);
	CHECK(file.offset == 5 && respec_spid_load(&file.spid) == NULL);

	/* Established: specialized code, armed SPID. */
	CHECK_OK(respec_predicate_establish(sequential));
	CHECK(respec_predicate_holds(sequential));
	CHECK(respec_spid_load(&file.spid) == sequential);
	CHECK(RESPEC_CALL(&read_slot, long (*)(int), 1) == 1001);
	CHECK(RESPEC_CALL(&stat_slot, long (*)(int), 1) == 3001);

	/* A guarded store without a respecialize callback: back to generic. */
	RESPEC_GUARDED_STORE(file.spid, file.offset, 7);
	CHECK(!respec_predicate_holds(sequential));
	CHECK(respec_spid_load(&file.spid) == NULL);
	CHECK(RESPEC_CALL(&read_slot, long (*)(int), 1) == 8);
	CHECK(RESPEC_CALL(&stat_slot, long (*)(int), 1) == -1);

	/* With the callback: incremental re-specialization after the store. */
	CHECK_OK(respec_predicate_set_respecialize(sequential, respecialize, &file));
	/* Every guarded store is followed at once by a re-specialization. */
	CHECK_OK(respec_predicate_set_policy(sequential, respec_policy_always, NULL));
	CHECK_OK(respec_predicate_establish(sequential));
	RESPEC_GUARDED_STORE(file.spid, file.offset, 42);
	CHECK(observed_offset_at_respecialize == 42);
	CHECK(respec_predicate_holds(sequential));
	CHECK(respec_spid_load(&file.spid) == sequential);
	CHECK(RESPEC_CALL(&read_slot, long (*)(int), 1) == 2001);
	CHECK(RESPEC_CALL(&stat_slot, long (*)(int), 1) == -1); /* callback said NULL */

	/* Explicit invalidation: generic, and no re-specialization. */
	observed_offset_at_respecialize = -1;
	CHECK_OK(respec_predicate_invalidate(sequential));
	CHECK_OK(respec_predicate_invalidate(sequential)); /* no-op once broken */
	CHECK(observed_offset_at_respecialize == -1);
	CHECK(RESPEC_CALL(&read_slot, long (*)(int), 1) == 43);

	respec_slot_stats stats;
	CHECK_OK(respec_slot_get_stats(&read_slot, &stats));
	CHECK(stats.calls_specialized == 2 && stats.calls_generic == 3);
	CHECK(stats.invalidations == 3 && stats.replugs == 6);
	CHECK(stats.replug_ns > 0 && stats.replug_ns_max <= stats.replug_ns);
	CHECK(strcmp(stats.name, "pred.read") == 0 && stats.protocol == RESPEC_PROTOCOL_EPOCH);
	CHECK_OK(respec_slot_get_stats(&stat_slot, &stats));
	CHECK(stats.calls_specialized == 1 && stats.calls_generic == 2);

	/* Non-blocking replugs: reclaim once per retired non-generic version. */
	CHECK_OK(respec_replug_async(&read_slot, RESPEC_FN(sequential_read), count_reclaim, &reclaims));
	CHECK(RESPEC_CALL(&read_slot, long (*)(int), 1) == 1001);
	CHECK_OK(respec_replug_async(&read_slot, RESPEC_FN(resumed_read), count_reclaim, &reclaims));
	CHECK(RESPEC_CALL(&read_slot, long (*)(int), 1) == 2001);
	CHECK_OK(respec_barrier());
	CHECK(reclaims == 1 && last_reclaimed == RESPEC_FN(sequential_read));
	CHECK_OK(respec_barrier());
	CHECK(reclaims == 1);

	/* Counting off: calls take the fast path and are not counted. */
	respec_stats_set_counting(false);
	CHECK(read_slot.fast != NULL);
	CHECK(RESPEC_CALL(&read_slot, long (*)(int), 1) == 2001);
	CHECK_OK(respec_slot_get_stats(&read_slot, &stats));
	CHECK(stats.calls_specialized == 4);

	char table[4096] = {0};
	FILE *out = fmemopen(table, sizeof table - 1, "w");
	CHECK(out);
	respec_stats_print(out);
	fclose(out);
	CHECK(strstr(table, "pred.read") && strstr(table, "pred.stat") &&
	      strstr(table, "pred.sequential"));

	CHECK_OK(respec_predicate_destroy(sequential));
	CHECK_OK(respec_slot_destroy(&read_slot));
	CHECK_OK(respec_slot_destroy(&stat_slot));
	printf("predicates: PASS\n");
	return 0;
}
