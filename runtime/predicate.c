/*
 * predicate.c — specialization predicates and their guards.
 *
 * A predicate lists the slots specialized on it and the SPID fields of the
 * objects holding its terms. Establishing it arms the SPIDs first (from then on
 * every guarded store of a term comes here) and then plugs in the specialized
 * implementations. A guarded store breaks it: respec_guard_begin replugs every
 * dependent slot to generic in one batch (one grace period); the caller writes
 * the term; respec_guard_end asks the respecialize
 * callback, if any, for implementations fitted to the new state and plugs
 * them in (Synthetix's lseek updating is_read rather than unspecializing it).
 * The predicate's lock is held from begin to end, so "replug, then modify the
 * term, then respecialize" is one step for every other guard and establish.
 *
 * Feedback: each guarded store and replug is timed, and after a store that
 * broke the predicate its policy (feedback.c) may keep it generic for a while
 * instead; the back-off thread (feedback.c) re-specializes it afterwards. That
 * thread re-specializes with no write to start it, so a predicate with a
 * respecialize callback keeps its SPIDs armed while broken: a writer's guarded
 * store still takes the lock and cannot change a term between the callback's
 * reading it and the new code's plugging in. (Disarmed, the SPID would let the
 * store through unsynchronized: the stress test saw it under TSan, twice in
 * 3.8 million calls.) Only invalidation disarms them.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct dependent {
	respec_slot *slot;
	respec_fn specialized;
};

struct respec_predicate {
	char *name;
	pthread_mutex_t lock;
	_Atomic bool holds; /* atomic only so the stats table can peek unlocked */
	bool in_guard, guard_broke; /* between respec_guard_begin and _end */
	pthread_t guard_owner;
	struct dependent *deps;
	size_t ndeps;
	respec_spid **spids;
	size_t nspids;
	respec_respecialize_fn respecialize;
	void *respecialize_arg;
	_Atomic uint64_t establishes, invalidations, respecializations;
	/* Feedback (under the lock; atomic where the stats table peeks). */
	respec_policy_fn policy;
	void *policy_arg;
	double saved_ns_per_call;
	/* The calls and stores when the policy last ran: its recent calls per store. */
	uint64_t policy_calls, policy_stores;
	double recent_calls_per_store;
	_Atomic uint64_t guarded_stores, guard_fires, backoffs, respecialize_ns, replug_ns, replugs;
	uint64_t consecutive_backoffs, last_store_ns;
	double store_interval_ns;
	_Atomic uint64_t backoff_until; /* monotonic ns; 0: not backing off */
	_Atomic bool timer_busy;        /* the back-off thread is using it */
	unsigned memguard_watches;      /* MemGuard watches on its terms (under the lock) */
	struct respec_predicate *next, **prev_next; /* all predicates (registry lock) */
};

static struct respec_predicate *predicates;

static int respecialize(respec_predicate *pred);
static void fill_stats(const respec_predicate *pred, respec_predicate_stats *out);

static bool grow(void **array, size_t count, size_t elem)
{
	void *bigger = realloc(*array, (count + 1) * elem);
	if (!bigger)
		return false;
	*array = bigger;
	return true;
}

respec_predicate *respec_predicate_create(const char *name)
{
	if (!name) {
		respec__fail(EINVAL, "respec_predicate_create: NULL name");
		return NULL;
	}
	respec__init();
	respec_predicate *pred = calloc(1, sizeof *pred);
	if (!pred || !(pred->name = strdup(name))) {
		free(pred);
		respec__fail(ENOMEM, "respec_predicate_create(\"%s\"): out of memory", name);
		return NULL;
	}
	pthread_mutex_init(&pred->lock, NULL);
	pred->policy = respec_policy_default;
	pthread_mutex_lock(&respec__registry_lock);
	pred->next = predicates;
	pred->prev_next = &predicates;
	if (predicates)
		predicates->prev_next = &pred->next;
	predicates = pred;
	pthread_mutex_unlock(&respec__registry_lock);
	return pred;
}

int respec_predicate_destroy(respec_predicate *pred)
{
	if (!pred)
		return respec__fail(EINVAL, "respec_predicate_destroy: NULL predicate");
	pthread_mutex_lock(&pred->lock);
	if (pred->memguard_watches) {
		pthread_mutex_unlock(&pred->lock);
		return respec__fail(EBUSY, "respec_predicate_destroy(\"%s\"): MemGuard still watches "
					   "its terms", pred->name);
	}
	if (pred->holds) {
		pthread_mutex_unlock(&pred->lock);
		return respec__fail(EBUSY, "respec_predicate_destroy(\"%s\"): still established",
				    pred->name);
	}
	/* Unlinked first: the stats table, which reads the dependents' slots,
	 * no longer sees it once they may be destroyed. */
	pthread_mutex_lock(&respec__registry_lock);
	*pred->prev_next = pred->next;
	if (pred->next)
		pred->next->prev_next = pred->prev_next;
	pthread_mutex_unlock(&respec__registry_lock);
	for (size_t i = 0; i < pred->ndeps; i++)
		atomic_fetch_sub(&pred->deps[i].slot->state->predicate_refs, 1);
	pthread_mutex_unlock(&pred->lock);
	/* Unlinked: the back-off thread can no longer pick it, only finish. */
	while (atomic_load(&pred->timer_busy))
		sched_yield();
	pthread_mutex_destroy(&pred->lock);
	free(pred->deps);
	free(pred->spids);
	free(pred->name);
	free(pred);
	return 0;
}

void respec__predicate_lock(respec_predicate *pred)
{
	pthread_mutex_lock(&pred->lock);
}

void respec__predicate_unlock(respec_predicate *pred)
{
	pthread_mutex_unlock(&pred->lock);
}

void respec__predicate_count_watches(respec_predicate *pred, int change)
{
	pred->memguard_watches += change;
}

/* Only predicates with watches pay for MemGuard's table lock. */
static void arm_watches(respec_predicate *pred, bool armed)
{
	if (pred->memguard_watches)
		respec__memguard_arm(pred, armed);
}

const char *respec_predicate_name(const respec_predicate *pred)
{
	return pred ? pred->name : "(null)";
}

bool respec_predicate_holds(const respec_predicate *pred)
{
	return pred && atomic_load(&pred->holds);
}

int respec_predicate_add_slot(respec_predicate *pred, respec_slot *slot, respec_fn specialized)
{
	if (!pred)
		return respec__fail(EINVAL, "respec_predicate_add_slot: NULL predicate");
	if (!respec__slot_valid(slot))
		return respec__fail(EINVAL, "respec_predicate_add_slot(\"%s\"): slot %p is not initialized",
				    pred->name, (void *)slot);
	if (!specialized)
		return respec__fail(EINVAL, "respec_predicate_add_slot(\"%s\", \"%s\"): NULL implementation",
				    pred->name, slot->state->name);
	int err = 0;
	pthread_mutex_lock(&pred->lock);
	for (size_t i = 0; i < pred->ndeps && !err; i++)
		if (pred->deps[i].slot == slot)
			err = respec__fail(EEXIST, "respec_predicate_add_slot(\"%s\"): slot \"%s\" added twice",
					   pred->name, slot->state->name);
	if (!err && pred->holds)
		err = respec__fail(EBUSY, "respec_predicate_add_slot(\"%s\"): predicate is established",
				   pred->name);
	if (!err) {
		/* The stats table reads the dependents under the registry lock
		 * (after a predicate's lock, as everywhere). */
		pthread_mutex_lock(&respec__registry_lock);
		bool grown = grow((void **)&pred->deps, pred->ndeps, sizeof *pred->deps);
		if (grown) {
			pred->deps[pred->ndeps++] = (struct dependent){slot, specialized};
			atomic_fetch_add(&slot->state->predicate_refs, 1);
		}
		pthread_mutex_unlock(&respec__registry_lock);
		if (!grown)
			err = respec__fail(ENOMEM, "respec_predicate_add_slot(\"%s\"): out of memory",
					   pred->name);
	}
	pthread_mutex_unlock(&pred->lock);
	return err;
}

int respec_predicate_watch(respec_predicate *pred, respec_spid *spid)
{
	if (!pred || !spid)
		return respec__fail(EINVAL, "respec_predicate_watch: NULL argument");
	int err = 0;
	pthread_mutex_lock(&pred->lock);
	for (size_t i = 0; i < pred->nspids && !err; i++)
		if (pred->spids[i] == spid)
			err = respec__fail(EEXIST, "respec_predicate_watch(\"%s\"): SPID %p watched twice",
					   pred->name, (void *)spid);
	if (!err && !grow((void **)&pred->spids, pred->nspids, sizeof *pred->spids))
		err = respec__fail(ENOMEM, "respec_predicate_watch(\"%s\"): out of memory", pred->name);
	if (!err) {
		pred->spids[pred->nspids++] = spid;
		if (pred->holds)
			atomic_store_explicit(spid, pred, memory_order_seq_cst);
	}
	pthread_mutex_unlock(&pred->lock);
	return err;
}

int respec_predicate_set_respecialize(respec_predicate *pred, respec_respecialize_fn fn, void *arg)
{
	if (!pred)
		return respec__fail(EINVAL, "respec_predicate_set_respecialize: NULL predicate");
	pthread_mutex_lock(&pred->lock);
	pred->respecialize = fn;
	pred->respecialize_arg = arg;
	pthread_mutex_unlock(&pred->lock);
	return 0;
}

static void arm_spids(respec_predicate *pred, respec_predicate *value)
{
	/* Sequentially consistent so that arming is ordered before the publish of
	 * specialized code that follows (writers load the SPID relaxed: a store
	 * racing with establishment is the user's documented responsibility). A
	 * SPID that already holds the value is not written: it may share a page
	 * that MemGuard has made read-only (re-specializing arms the watches
	 * before the callback reads the terms, with the SPIDs still armed). */
	for (size_t i = 0; i < pred->nspids; i++)
		if (atomic_load_explicit(pred->spids[i], memory_order_relaxed) != value)
			atomic_store_explicit(pred->spids[i], value, memory_order_seq_cst);
}

/* Plugs `fns` (one per dependent; NULL entries skipped) into the dependents. */
static int replug_dependents(respec_predicate *pred, const respec_fn *fns, bool invalidation)
{
	respec_slot *stack_slots[8] = {0};
	respec_fn stack_fns[8] = {0};
	respec_slot **slots = pred->ndeps <= 8 ? stack_slots : malloc(pred->ndeps * sizeof *slots);
	respec_fn *chosen = pred->ndeps <= 8 ? stack_fns : malloc(pred->ndeps * sizeof *chosen);
	int err = 0;
	if (!slots || !chosen) {
		err = respec__fail(ENOMEM, "predicate \"%s\": out of memory", pred->name);
		goto out;
	}
	size_t count = 0;
	for (size_t i = 0; i < pred->ndeps; i++) {
		if (!fns[i])
			continue;
		slots[count] = pred->deps[i].slot;
		chosen[count++] = fns[i];
	}
	err = respec__replug_many(slots, chosen, count, invalidation);
out:
	if (slots != stack_slots)
		free(slots);
	if (chosen != stack_fns)
		free(chosen);
	return err;
}

/* Arms the watched objects' guards and MemGuard's watches of the terms, then
 * plugs FNS into the dependent slots: from here on a guarded store breaks the
 * predicate before it changes a term, and an unguarded one traps. On failure
 * both are disarmed again. Counts a success in *COUNTER. */
static int enable_specialized(respec_predicate *pred, respec_fn *fns, _Atomic uint64_t *counter)
{
	arm_spids(pred, pred);
	arm_watches(pred, true);
	uint64_t start = respec__now_ns();
	int err = replug_dependents(pred, fns, false);
	pred->replug_ns += respec__now_ns() - start;
	pred->replugs += !err;
	if (err) {
		arm_watches(pred, false);
		arm_spids(pred, NULL);
		return err;
	}
	pred->holds = true;
	atomic_store(&pred->backoff_until, 0);
	(*counter)++;
	return 0;
}

/* Replugs every dependent to generic. `keep_guards`: the SPIDs stay armed, so
 * that guarded stores keep taking the predicate's lock while it is broken —
 * needed while the back-off thread may re-specialize it on its own: a store
 * that found its SPID disarmed would not wait for that, and could change a
 * term after the respecialize callback read it. */
static int to_generic(respec_predicate *pred, bool keep_guards)
{
	respec_fn stack_fns[8] = {0};
	respec_fn *fns = pred->ndeps <= 8 ? stack_fns : malloc(pred->ndeps * sizeof *fns);
	if (!fns)
		return respec__fail(ENOMEM, "predicate \"%s\": out of memory", pred->name);
	for (size_t i = 0; i < pred->ndeps; i++)
		fns[i] = pred->deps[i].slot->state->generic;
	uint64_t start = respec__now_ns();
	int err = replug_dependents(pred, fns, true);
	pred->replug_ns += respec__now_ns() - start;
	pred->replugs += !err;
	if (fns != stack_fns)
		free(fns);
	if (err)
		return err;
	/* No specialized code is left: the terms may change unwatched. */
	arm_watches(pred, false);
	if (!keep_guards)
		arm_spids(pred, NULL);
	pred->holds = false;
	pred->invalidations++;
	return 0;
}

int respec_predicate_establish(respec_predicate *pred)
{
	if (!pred)
		return respec__fail(EINVAL, "respec_predicate_establish: NULL predicate");
	int err = respec__check_can_wait("respec_predicate_establish");
	if (err)
		return err;
	pthread_mutex_lock(&pred->lock);
	if (pred->holds)
		err = respec__fail(EALREADY, "respec_predicate_establish(\"%s\"): already established",
				   pred->name);
	else if (pred->ndeps == 0)
		err = respec__fail(EINVAL, "respec_predicate_establish(\"%s\"): no slots depend on it",
				   pred->name);
	if (!err) {
		respec_fn stack_fns[8] = {0};
		respec_fn *fns = pred->ndeps <= 8 ? stack_fns : malloc(pred->ndeps * sizeof *fns);
		if (!fns) {
			err = respec__fail(ENOMEM, "respec_predicate_establish(\"%s\"): out of memory",
					   pred->name);
		} else {
			for (size_t i = 0; i < pred->ndeps; i++)
				fns[i] = pred->deps[i].specialized;
			err = enable_specialized(pred, fns, &pred->establishes);
			if (fns != stack_fns)
				free(fns);
		}
	}
	pthread_mutex_unlock(&pred->lock);
	return err;
}

int respec_predicate_invalidate(respec_predicate *pred)
{
	if (!pred)
		return respec__fail(EINVAL, "respec_predicate_invalidate: NULL predicate");
	int err = respec__check_can_wait("respec_predicate_invalidate");
	if (err)
		return err;
	pthread_mutex_lock(&pred->lock);
	/* The caller may now write the terms unguarded: nothing may re-specialize
	 * it behind its back, a back-off that would have is cancelled. */
	atomic_store(&pred->backoff_until, 0);
	if (pred->holds)
		err = to_generic(pred, false);
	pthread_mutex_unlock(&pred->lock);
	return err;
}

/* The recent mean time between guarded stores: what the policy compares the
 * cost of re-specializing with. */
static void note_store(respec_predicate *pred)
{
	uint64_t now = respec__now_ns();
	if (pred->guarded_stores++ > 0) {
		double interval = (double)(now - pred->last_store_ns);
		pred->store_interval_ns = pred->store_interval_ns == 0
						  ? interval
						  : 0.75 * pred->store_interval_ns + 0.25 * interval;
	}
	pred->last_store_ns = now;
}

/* The calls its slots served per guarded store since the policy last ran
 * (counted calls only), for the policy to weigh against a cycle. */
static void note_calls_per_store(respec_predicate *pred, respec_predicate_stats *stats)
{
	uint64_t calls = stats->calls_specialized + stats->calls_generic;
	uint64_t stores = stats->guarded_stores - pred->policy_stores;
	pred->recent_calls_per_store =
		stores ? (double)(calls > pred->policy_calls ? calls - pred->policy_calls : 0) /
				 (double)stores
		       : 0;
	stats->recent_calls_per_store = pred->recent_calls_per_store;
	pred->policy_calls = calls;
	pred->policy_stores = stats->guarded_stores;
}

int respec_guard_begin(respec_predicate *pred)
{
	if (!pred)
		return respec__fail(EINVAL, "respec_guard_begin: NULL predicate");
	int err = respec__check_can_wait("guarded store");
	if (err)
		return err;
	pthread_mutex_lock(&pred->lock);
	note_store(pred);
	/* Another guard may have broken it while we waited for the lock; then the
	 * store needs no replug (no specialized code is plugged in). */
	bool broke = pred->holds;
	if (broke)
		pred->guard_fires++;
	if (broke && (err = to_generic(pred, pred->respecialize != NULL)) != 0) {
		pthread_mutex_unlock(&pred->lock);
		return err;
	}
	pred->in_guard = true;
	pred->guard_broke = broke;
	pred->guard_owner = pthread_self();
	return 0;
}

/* Ends the calling thread's guard. When the policy wants the predicate
 * re-specialized now, `defer` hands that to the back-off thread (due at once)
 * instead of running the respecialize callback here. */
static int end_guard(respec_predicate *pred, bool defer)
{
	if (!pred)
		return respec__fail(EINVAL, "respec_guard_end: NULL predicate");
	/* Reading in_guard unlocked is fine for the owner (it set it); any other
	 * thread sees a different guard_owner or false. */
	if (!pred->in_guard || !pthread_equal(pred->guard_owner, pthread_self()))
		return respec__fail(EPERM, "respec_guard_end(\"%s\"): no respec_guard_begin in this thread",
				    pred->name);
	pred->in_guard = false;
	int err = 0;
	if (pred->guard_broke && pred->respecialize) {
		respec_predicate_stats stats;
		fill_stats(pred, &stats);
		note_calls_per_store(pred, &stats);
		uint64_t backoff = pred->policy(pred, &stats, pred->policy_arg);
		if (backoff == 0) {
			pred->consecutive_backoffs = 0;
		} else {
			pred->consecutive_backoffs++;
			pred->backoffs++;
		}
		if (backoff == 0 && !defer) {
			err = respecialize(pred);
		} else { /* the back-off thread's, once `backoff` has passed */
			atomic_store(&pred->backoff_until, respec__now_ns() + backoff);
			respec__feedback_wake();
		}
	}
	pthread_mutex_unlock(&pred->lock);
	return err;
}

int respec_guard_end(respec_predicate *pred)
{
	return end_guard(pred, false);
}

int respec__guard_end_deferred(respec_predicate *pred)
{
	return end_guard(pred, true);
}

/* Asks the respecialize callback for every dependent, and plugs in what it
 * gives. Called with the lock held and the predicate not holding. */
static int respecialize(respec_predicate *pred)
{
	respec_fn stack_fns[8] = {0};
	respec_fn *fns = pred->ndeps <= 8 ? stack_fns : malloc(pred->ndeps * sizeof *fns);
	if (!fns)
		return respec__fail(ENOMEM, "predicate \"%s\": out of memory", pred->name);
	/* Guarded stores wait for the lock (to_generic kept the SPIDs armed); a
	 * missed guard's write is trapped from before the callback reads the terms. */
	arm_watches(pred, true);
	uint64_t start = respec__now_ns();
	bool any = false;
	for (size_t i = 0; i < pred->ndeps; i++) {
		fns[i] = pred->respecialize(pred, pred->deps[i].slot, pred->respecialize_arg);
		any |= fns[i] != NULL;
	}
	pred->respecialize_ns += respec__now_ns() - start;
	int err = any ? enable_specialized(pred, fns, &pred->respecializations) : 0;
	if (!any || err) { /* it stays broken: nothing to guard */
		arm_watches(pred, false);
		arm_spids(pred, NULL);
	}
	if (fns != stack_fns)
		free(fns);
	return err;
}

static void fill_stats(const respec_predicate *pred, respec_predicate_stats *out)
{
	*out = (respec_predicate_stats){
		.name = pred->name,
		.holds = atomic_load(&pred->holds),
		.backing_off = atomic_load(&pred->backoff_until) != 0,
		.establishes = atomic_load(&pred->establishes),
		.invalidations = atomic_load(&pred->invalidations),
		.respecializations = atomic_load(&pred->respecializations),
		.guarded_stores = atomic_load(&pred->guarded_stores),
		.guard_fires = atomic_load(&pred->guard_fires),
		.backoffs = atomic_load(&pred->backoffs),
		.consecutive_backoffs = pred->consecutive_backoffs,
		.respecialize_ns = atomic_load(&pred->respecialize_ns),
		.replug_ns = atomic_load(&pred->replug_ns),
		.replugs = atomic_load(&pred->replugs),
		.store_interval_ns = pred->store_interval_ns,
		.saved_ns_per_call = pred->saved_ns_per_call,
		.recent_calls_per_store = pred->recent_calls_per_store,
	};
	for (size_t i = 0; i < pred->ndeps; i++) {
		respec_slot_stats slot;
		if (respec_slot_get_stats(pred->deps[i].slot, &slot) == 0) {
			out->calls_specialized += slot.calls_specialized;
			out->calls_generic += slot.calls_generic;
		}
	}
}

int respec_predicate_get_stats(const respec_predicate *pred, respec_predicate_stats *out)
{
	if (!pred || !out)
		return respec__fail(EINVAL, "respec_predicate_get_stats: NULL argument");
	respec_predicate *locked = (respec_predicate *)pred;
	pthread_mutex_lock(&locked->lock);
	fill_stats(pred, out);
	pthread_mutex_unlock(&locked->lock);
	return 0;
}

int respec_predicate_set_policy(respec_predicate *pred, respec_policy_fn fn, void *arg)
{
	if (!pred)
		return respec__fail(EINVAL, "respec_predicate_set_policy: NULL predicate");
	pthread_mutex_lock(&pred->lock);
	pred->policy = fn ? fn : respec_policy_default;
	pred->policy_arg = fn ? arg : NULL;
	pthread_mutex_unlock(&pred->lock);
	return 0;
}

int respec_predicate_set_benefit(respec_predicate *pred, double saved_ns_per_call)
{
	if (!pred || !(saved_ns_per_call >= 0))
		return respec__fail(EINVAL, "respec_predicate_set_benefit: NULL predicate or a "
				    "benefit that is not a number of ns (%g)", saved_ns_per_call);
	pthread_mutex_lock(&pred->lock);
	pred->saved_ns_per_call = saved_ns_per_call;
	pthread_mutex_unlock(&pred->lock);
	return 0;
}

respec_predicate *respec__predicates_take_due(uint64_t now, uint64_t *next_due)
{
	*next_due = UINT64_MAX;
	respec_predicate *due = NULL;
	pthread_mutex_lock(&respec__registry_lock);
	for (respec_predicate *p = predicates; p && !due; p = p->next) {
		uint64_t until = atomic_load(&p->backoff_until);
		if (until != 0 && until <= now && !atomic_load(&p->timer_busy)) {
			atomic_store(&p->timer_busy, true);
			due = p;
		} else if (until != 0 && until < *next_due) {
			*next_due = until;
		}
	}
	pthread_mutex_unlock(&respec__registry_lock);
	return due;
}

void respec__predicate_back_off_over(respec_predicate *pred)
{
	pthread_mutex_lock(&pred->lock);
	/* A guard or an establish since may have ended the back-off already. */
	if (atomic_load(&pred->backoff_until) != 0) {
		atomic_store(&pred->backoff_until, 0);
		if (!pred->holds && pred->respecialize)
			respecialize(pred);
	}
	pthread_mutex_unlock(&pred->lock);
	atomic_store(&pred->timer_busy, false);
}

void respec__predicates_print(FILE *out)
{
	pthread_mutex_lock(&respec__registry_lock);
	if (predicates)
		fprintf(out, "%-24s %6s %12s %13s %17s %8s %8s %9s %8s %14s %14s %12s %12s\n",
			"predicate", "holds", "establishes", "invalidations", "respecializations",
			"stores", "fires", "backoffs", "replugs", "calls-special", "calls-generic",
			"specialize", "replug");
	for (respec_predicate *p = predicates; p; p = p->next) {
		/* Its slots' calls (the registry lock is held: collected directly). */
		uint64_t calls_specialized = 0, calls_generic = 0;
		for (size_t i = 0; i < p->ndeps; i++) {
			respec_slot_stats slot;
			respec__slot_collect(p->deps[i].slot->state, &slot);
			calls_specialized += slot.calls_specialized;
			calls_generic += slot.calls_generic;
		}
		fprintf(out,
			"%-24s %6s %12llu %13llu %17llu %8llu %8llu %9llu %8llu %14llu %14llu "
			"%10.1fms %10.1fms\n",
			p->name, p->holds ? "yes" : "no", (unsigned long long)atomic_load(&p->establishes),
			(unsigned long long)atomic_load(&p->invalidations),
			(unsigned long long)atomic_load(&p->respecializations),
			(unsigned long long)atomic_load(&p->guarded_stores),
			(unsigned long long)atomic_load(&p->guard_fires),
			(unsigned long long)atomic_load(&p->backoffs),
			(unsigned long long)atomic_load(&p->replugs), (unsigned long long)calls_specialized,
			(unsigned long long)calls_generic, (double)atomic_load(&p->respecialize_ns) / 1e6,
			(double)atomic_load(&p->replug_ns) / 1e6);
	}
	pthread_mutex_unlock(&respec__registry_lock);
}

/* Fork child: a guard cut short in another thread leaves its slots generic
 * (see respec__slots_fork_child); its lock is reset. */
void respec__predicates_fork_child(void)
{
	for (respec_predicate *p = predicates; p; p = p->next) {
		pthread_mutex_init(&p->lock, NULL);
		p->in_guard = false;
		atomic_store(&p->timer_busy, false);
	}
}
