/*
 * stats.c — per-slot counters and the RESPEC_STATS=1 table.
 *
 * Replug figures are kept in the slot (replugs are rare and serialized). Calls
 * are counted only while counting is on, because counting makes every call take
 * the slow path (the fast pointer is left NULL): the call path itself carries
 * no counter cost when off. Counted calls go to per-thread counters (no shared
 * cache line bounces between callers), summed when read and folded into the
 * slot when a thread exits.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

_Atomic bool respec__counting_calls;

uint64_t respec__now_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static void bump(_Atomic uint64_t *counter)
{
	/* Only this thread writes its counters: no read-modify-write needed. */
	atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

void respec__count_call(respec_slot *slot, respec_fn fn)
{
	if (!atomic_load_explicit(&respec__counting_calls, memory_order_relaxed))
		return;
	struct respec_slot_state *st = slot->state;
	bool generic = fn == st->generic;
	if (st->id >= 0) {
		struct respec_call_counts *counts = &respec__thread_self()->calls[st->id];
		bump(generic ? &counts->generic : &counts->specialized);
	} else {
		atomic_fetch_add_explicit(generic ? &st->shared_calls.generic
						  : &st->shared_calls.specialized,
					  1, memory_order_relaxed);
	}
}

/* Registry lock held. */
void respec__stats_flush_thread(struct respec_thread *t)
{
	for (int id = 0; id < RESPEC_COUNTED_SLOTS; id++) {
		struct respec_slot_state *st = respec__slot_by_id[id];
		uint64_t specialized = atomic_exchange(&t->calls[id].specialized, 0);
		uint64_t generic = atomic_exchange(&t->calls[id].generic, 0);
		if (!st)
			continue;
		atomic_fetch_add(&st->shared_calls.specialized, specialized);
		atomic_fetch_add(&st->shared_calls.generic, generic);
	}
}

void respec__slot_collect(const struct respec_slot_state *st, respec_slot_stats *out)
{
	memset(out, 0, sizeof *out);
	out->name = st->name;
	out->protocol = (enum respec_protocol)st->slot->protocol;
	out->calls_specialized = atomic_load(&st->shared_calls.specialized);
	out->calls_generic = atomic_load(&st->shared_calls.generic);
	if (st->id >= 0) {
		for (struct respec_thread *t = respec__threads; t; t = t->next) {
			out->calls_specialized += atomic_load_explicit(&t->calls[st->id].specialized,
								       memory_order_relaxed);
			out->calls_generic += atomic_load_explicit(&t->calls[st->id].generic,
								   memory_order_relaxed);
		}
	}
	out->replugs = atomic_load(&st->replugs);
	out->replug_ns = atomic_load(&st->replug_ns);
	out->replug_ns_max = atomic_load(&st->replug_ns_max);
	out->invalidations = atomic_load(&st->invalidations);
}

int respec_slot_get_stats(const respec_slot *slot, respec_slot_stats *out)
{
	if (!respec__slot_valid(slot) || !out)
		return respec__fail(EINVAL, "respec_slot_get_stats: slot %p is not initialized "
				    "or out is NULL", (const void *)slot);
	pthread_mutex_lock(&respec__registry_lock);
	respec__slot_collect(slot->state, out);
	pthread_mutex_unlock(&respec__registry_lock);
	return 0;
}

bool respec_stats_counting(void)
{
	return atomic_load(&respec__counting_calls);
}

void respec_stats_print(FILE *out)
{
	fprintf(out, "respec: slots (calls counted %s; barrier: %s)\n",
		respec_stats_counting() ? "on" : "off", respec_barrier_mechanism());
	fprintf(out, "%-24s %-8s %14s %14s %8s %12s %12s %8s\n", "slot", "protocol",
		"calls-special", "calls-generic", "replugs", "replug-avg-ns", "replug-max-ns",
		"invalid");
	pthread_mutex_lock(&respec__registry_lock);
	for (struct respec_slot_state *st = respec__slots; st; st = st->next) {
		respec_slot_stats s;
		respec__slot_collect(st, &s);
		fprintf(out, "%-24s %-8s %14llu %14llu %8llu %12llu %12llu %8llu\n", s.name,
			respec__protocol_name(s.protocol), (unsigned long long)s.calls_specialized,
			(unsigned long long)s.calls_generic, (unsigned long long)s.replugs,
			(unsigned long long)(s.replugs ? s.replug_ns / s.replugs : 0),
			(unsigned long long)s.replug_ns_max, (unsigned long long)s.invalidations);
	}
	pthread_mutex_unlock(&respec__registry_lock);
	respec__predicates_print(out);
}

static void print_at_exit(void)
{
	respec_stats_print(stderr);
}

void respec__stats_init(void)
{
	const char *env = getenv("RESPEC_STATS");
	if (env && strcmp(env, "0") != 0 && env[0]) {
		atomic_store(&respec__counting_calls, true);
		atexit(print_at_exit);
	}
}
