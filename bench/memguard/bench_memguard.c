/*
 * bench_memguard.c — what MemGuard costs per write, per backend, next to a
 * plain store.
 *
 *   bench-memguard [--quick] [--json FILE] [--rounds N]
 *
 * Cases (ns per write; every watch's predicate holds, so every watch is armed):
 *   untouched-write  a store to data no watch covers
 *     generic          a plain store, no watch anywhere near
 *     watchpoint       a store to the field next to a watchpoint-watched term
 *                      (same cache line)
 *     pages-isolated   a store to another page than the page-watched terms
 *     pages-same-page  a store to another field on a page-watched term's page:
 *                      faulted, single-stepped and let through
 *   trapped-write    an unguarded store to a watched term
 *     generic          a plain store, no watch
 *     guarded-store    what a correct RESPEC_GUARDED_STORE costs instead: break
 *                      the predicate (replug to generic), store, re-specialize
 *     guarded-store-pages, guarded-store-watchpoint  the same with the term
 *                      watched: the guard disarms the watch and re-arms it
 *                      (no trap; an mprotect or a perf ioctl pair)
 *     watchpoint       REPORT watch, hardware watchpoint (reports off: the trap)
 *     watchpoint-report  the same with reports on (to /dev/null): the handler
 *                      also records a backtrace for the reporter thread
 *     pages            REPORT watch, page protection (reports off)
 *     pages-enforce    ENFORCE watch: fault, break the predicate before the
 *                      store, step it; then wait until the back-off thread has
 *                      re-specialized (reports off)
 *
 * Protocol: bench/harness.h (interleaved rounds, median and min, one pinned
 * CPU). Each variant writes its own memory, watched by its own predicate, so
 * all watches stay armed throughout. Outputs are cross-checked: every variant
 * leaves the same value, every predicate still holds; after the run, the
 * trapped and stepped counts are checked (every trapped-write variant trapped,
 * untouched ones did not) and printed.
 * Watchpoint variants are left out (and the reason recorded) where hardware
 * watchpoints are unavailable.
 */
#include "harness.h"
#include "respec/memguard.h"
#include "respec/runtime.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VALUE 42

/* A watched object: its term and a neighbour on the same page and line. */
struct object {
	respec_spid spid;
	long term;
	long neighbour;
};

struct variant {
	const char *name;
	volatile long *target; /* what the variant writes */
	struct object *object;
	respec_predicate *pred; /* NULL: plain memory */
	respec_slot slot;
	respec_memguard *watch;
	bool guarded;  /* RESPEC_GUARDED_STORE instead of a plain store */
	bool reports;  /* reports on while it runs */
	/* ENFORCE: after each write, until the back-off thread has re-specialized
	 * (the next write must trap again) */
	bool awaits_respecialization;
};

static int devnull;

static long generic_fn(void) { return 0; }
static long specialized_fn(void) { return 1; }

static respec_fn respecialize(respec_predicate *pred, respec_slot *slot, void *arg)
{
	(void)pred, (void)slot, (void)arg;
	return RESPEC_FN(specialized_fn);
}

static void run(void *ctx, uint64_t iterations)
{
	struct variant *v = ctx;
	if (v->reports)
		respec_memguard_set_report_fd(devnull);
	if (v->guarded)
		for (uint64_t i = 0; i < iterations; i++)
			RESPEC_GUARDED_STORE(v->object->spid, v->object->term, VALUE);
	else if (v->awaits_respecialization)
		for (uint64_t i = 0; i < iterations; i++) {
			*v->target = VALUE;
			while (!respec_predicate_holds(v->pred))
				sched_yield();
		}
	else
		for (uint64_t i = 0; i < iterations; i++)
			*v->target = VALUE;
	if (v->reports)
		respec_memguard_set_report_fd(-1);
}

static uint64_t digest(void *ctx)
{
	struct variant *v = ctx;
	long value = *v->target;
	bool holds = !v->pred || respec_predicate_holds(v->pred);
	uint64_t d = bench_digest_bytes(BENCH_DIGEST_INIT, &value, sizeof value);
	return bench_digest_bytes(d, &holds, sizeof holds);
}

static struct object *new_object(void)
{
	struct object *o = respec_memguard_alloc_isolated(sizeof *o);
	if (!o) {
		fprintf(stderr, "bench-memguard: %s\n", respec_last_error());
		exit(1);
	}
	return o;
}

enum { PLAIN = -2, UNWATCHED = -1 }; /* no predicate; a predicate, no watch */

/* A variant writing `target` in a fresh object; unless PLAIN, the object is
 * covered by an established predicate, and with `flags` >= 0 its term is
 * watched. */
static struct variant *add(struct bench_case *c, const char *name, int flags, bool to_term)
{
	struct variant *v = calloc(1, sizeof *v);
	v->name = name;
	v->object = new_object();
	v->target = to_term ? &v->object->term : &v->object->neighbour;
	if (flags != PLAIN) {
		v->pred = respec_predicate_create(name);
		if (respec_slot_init(&v->slot, name, RESPEC_PROTOCOL_DEFAULT, RESPEC_FN(generic_fn)) ||
		    respec_predicate_add_slot(v->pred, &v->slot, RESPEC_FN(specialized_fn)) ||
		    respec_predicate_watch(v->pred, &v->object->spid) ||
		    respec_predicate_set_respecialize(v->pred, respecialize, NULL) ||
		    /* each guarded store pays the whole cycle: no back-off */
		    respec_predicate_set_policy(v->pred, respec_policy_always, NULL)) {
			fprintf(stderr, "bench-memguard: %s: %s\n", name, respec_last_error());
			exit(1);
		}
		if (flags >= 0)
			v->watch = respec_memguard_watch(&v->object->term, sizeof v->object->term,
							 v->pred, "term", (unsigned)flags);
		if ((flags >= 0 && !v->watch) || respec_predicate_establish(v->pred)) {
			fprintf(stderr, "bench-memguard: %s: %s\n", name, respec_last_error());
			exit(1);
		}
	}
	bench_add_variant(c, name, run, digest, v);
	return v;
}

/* The traps each variant must (not) have taken, checked after the run. */
static bool check_counts(const char *key, struct variant *v, bool want_trapped, bool want_stepped)
{
	if (!v)
		return true;
	respec_memguard_stats st;
	respec_memguard_get_stats(v->watch, &st);
	bool ok = (st.trapped > 0) == want_trapped && (st.stepped_others > 0) == want_stepped;
	printf("%s/%s: %llu writes trapped, %llu writes to other data stepped%s\n", key, v->name,
	       (unsigned long long)st.trapped, (unsigned long long)st.stepped_others,
	       ok ? "" : ": NOT WHAT THE CASE IS");
	return ok;
}

int main(int argc, char **argv)
{
	struct bench *bench = bench_create("memguard", argc, argv);
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	respec_memguard_set_report_fd(-1);
	const char *no_watchpoints = respec_memguard_watchpoints_unavailable();
	int wp = no_watchpoints ? -1 : RESPEC_MEMGUARD_WATCHPOINT;
	int pages = RESPEC_MEMGUARD_PAGES;

	struct bench_case *untouched = bench_add_case(bench, "untouched-write");
	add(untouched, "generic", PLAIN, true);
	struct variant *u_wp = no_watchpoints ? NULL : add(untouched, "watchpoint", wp, false);
	/* Its own page, while the page watches of the other variants are armed. */
	add(untouched, "pages-isolated", PLAIN, true);
	struct variant *u_same = add(untouched, "pages-same-page", pages, false);

	struct bench_case *trapped = bench_add_case(bench, "trapped-write");
	add(trapped, "generic", PLAIN, true);
	add(trapped, "guarded-store", UNWATCHED, true)->guarded = true;
	struct variant *t_guard = add(trapped, "guarded-store-pages", pages, true);
	t_guard->guarded = true;
	struct variant *t_guard_wp =
		no_watchpoints ? NULL : add(trapped, "guarded-store-watchpoint", wp, true);
	if (t_guard_wp)
		t_guard_wp->guarded = true;
	struct variant *t_wp = no_watchpoints ? NULL : add(trapped, "watchpoint", wp, true);
	struct variant *t_wpr = no_watchpoints ? NULL : add(trapped, "watchpoint-report", wp, true);
	if (t_wpr)
		t_wpr->reports = true;
	struct variant *t_pages = add(trapped, "pages", pages, true);
	struct variant *t_enf = add(trapped, "pages-enforce", RESPEC_MEMGUARD_ENFORCE, true);
	t_enf->awaits_respecialization = true;

	bench_extra_string(bench, "watchpoints",
			   no_watchpoints ? no_watchpoints : "available (perf_event_open sigtrap)");
	int status = bench_run(bench);
	bool ok = check_counts("untouched-write", u_wp, false, false) &
		  check_counts("untouched-write", u_same, false, true) &
		  check_counts("trapped-write", t_guard, false, false) &
		  check_counts("trapped-write", t_guard_wp, false, false) &
		  check_counts("trapped-write", t_wp, true, false) &
		  check_counts("trapped-write", t_wpr, true, false) &
		  check_counts("trapped-write", t_pages, true, false) &
		  check_counts("trapped-write", t_enf, true, false);
	return status ? status : ok ? 0 : 1;
}
