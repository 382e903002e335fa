/*
 * slot.c — slot lifecycle and replugging (the slow paths of every protocol).
 *
 * A synchronous replug, for each slot: publish the generic implementation (the
 * holding tank's detour: callers arriving from now on run generic), wait until
 * no caller can still be inside an older implementation — one grace period for
 * all EPOCH slots of the batch, the THREAD/COUNTING inside-count otherwise —
 * then publish the new implementation. Leaving the generic implementation needs
 * no wait, since generic is correct whatever the predicates say.
 *
 * The COUNTING protocol's call path lives here too: it needs locked RMWs
 * anyway, so an out-of-line call costs little, and the per-thread stack of
 * COUNTING slots entered lets a replug refuse to wait for its own caller.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct respec_slot_state *respec__slot_by_id[RESPEC_COUNTED_SLOTS];
/* Membership of the slot list; outside every replug lock. */
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

static _Thread_local struct {
	respec_slot *stack[RESPEC_COUNTING_STACK];
	int depth;
} counting_calls;

const char *respec__protocol_name(int protocol)
{
	switch (protocol) {
	case RESPEC_PROTOCOL_EPOCH: return "epoch";
	case RESPEC_PROTOCOL_THREAD: return "thread";
	case RESPEC_PROTOCOL_COUNTING: return "counting";
	}
	return "?";
}

bool respec__slot_valid(const respec_slot *slot)
{
	return slot && slot->state && slot->state->slot == slot;
}

void respec__publish(struct respec_slot_state *st, respec_fn fn)
{
	/* Release: what the installer prepared is visible to callers that load
	 * `fn` (their acquire). Sequentially consistent because COUNTING's
	 * Dekker-style handshake needs this store ordered before the replugger's
	 * load of the inside-count. */
	atomic_store_explicit(&st->current, fn, memory_order_seq_cst);
	bool counting = atomic_load_explicit(&respec__counting_calls, memory_order_relaxed);
	atomic_store_explicit(&st->slot->fast, counting ? NULL : fn, memory_order_seq_cst);
}

int respec_slot_init(respec_slot *slot, const char *name, enum respec_protocol protocol,
		     respec_fn generic)
{
	if (!slot)
		return respec__fail(EINVAL, "respec_slot_init(\"%s\"): NULL slot", name ? name : "?");
	if (!name)
		name = "(unnamed)";
	if (!generic)
		return respec__fail(EINVAL, "respec_slot_init(\"%s\"): NULL generic implementation", name);
	if (protocol != RESPEC_PROTOCOL_EPOCH && protocol != RESPEC_PROTOCOL_THREAD &&
	    protocol != RESPEC_PROTOCOL_COUNTING)
		return respec__fail(EINVAL, "respec_slot_init(\"%s\"): unknown protocol %d", name,
				    (int)protocol);
	respec__init();
	struct respec_slot_state *st = calloc(1, sizeof *st);
	char *name_copy = strdup(name);
	if (!st || !name_copy) {
		free(st);
		free(name_copy);
		return respec__fail(ENOMEM, "respec_slot_init(\"%s\"): out of memory", name);
	}
	st->slot = slot;
	st->name = name_copy;
	st->generic = generic;
	st->owner = pthread_self();
	pthread_mutex_init(&st->replug_lock, NULL);
	if (protocol == RESPEC_PROTOCOL_THREAD)
		respec__thread_self(); /* the owner must be signalable by the barrier */

	pthread_mutex_lock(&slots_lock);
	pthread_mutex_lock(&respec__registry_lock);
	for (struct respec_slot_state *other = respec__slots; other; other = other->next) {
		if (other->slot == slot) {
			pthread_mutex_unlock(&respec__registry_lock);
			pthread_mutex_unlock(&slots_lock);
			int err = respec__fail(EEXIST,
					       "respec_slot_init(\"%s\"): slot already registered as \"%s\"",
					       name, other->name);
			pthread_mutex_destroy(&st->replug_lock);
			free(name_copy);
			free(st);
			return err;
		}
	}
	st->id = -1;
	for (int id = 0; id < RESPEC_COUNTED_SLOTS; id++) {
		if (!respec__slot_by_id[id]) {
			st->id = id;
			respec__slot_by_id[id] = st;
			for (struct respec_thread *t = respec__threads; t; t = t->next) {
				atomic_store_explicit(&t->calls[id].specialized, 0, memory_order_relaxed);
				atomic_store_explicit(&t->calls[id].generic, 0, memory_order_relaxed);
			}
			break;
		}
	}
	slot->protocol = protocol;
	atomic_store_explicit(&slot->inside, 0, memory_order_relaxed);
	slot->state = st;
	respec__publish(st, generic);
	st->next = respec__slots;
	st->prev_next = &respec__slots;
	if (respec__slots)
		respec__slots->prev_next = &st->next;
	respec__slots = st;
	pthread_mutex_unlock(&respec__registry_lock);
	pthread_mutex_unlock(&slots_lock);
	return 0;
}

int respec_slot_set_owner(respec_slot *slot)
{
	if (!respec__slot_valid(slot))
		return respec__fail(EINVAL, "respec_slot_set_owner: slot %p is not initialized",
				    (void *)slot);
	if (slot->protocol != RESPEC_PROTOCOL_THREAD)
		return respec__fail(EINVAL, "respec_slot_set_owner(\"%s\"): not a THREAD slot",
				    slot->state->name);
	struct respec_slot_state *st = slot->state;
	respec__thread_self();
	pthread_mutex_lock(&st->replug_lock);
	st->owner = pthread_self();
	pthread_mutex_unlock(&st->replug_lock);
	return 0;
}

/* The name of an owned THREAD slot this thread is inside, or NULL. */
static const char *owned_thread_slot_inside(void)
{
	pthread_t me = pthread_self();
	const char *inside = NULL;
	pthread_mutex_lock(&respec__registry_lock);
	for (struct respec_slot_state *st = respec__slots; st && !inside; st = st->next)
		if (st->slot->protocol == RESPEC_PROTOCOL_THREAD &&
		    pthread_equal(atomic_load(&st->owner), me) &&
		    atomic_load_explicit(&st->slot->inside, memory_order_relaxed) != 0)
			inside = st->name;
	pthread_mutex_unlock(&respec__registry_lock);
	return inside;
}

bool respec__inside_a_call(void)
{
	return respec__reader.depth > 1 || counting_calls.depth > 0 || owned_thread_slot_inside();
}

int respec__check_can_wait(const char *what)
{
	if (respec__reader.depth > 1)
		return respec__fail(EDEADLK,
				    "%s: called from inside a call through an EPOCH slot; waiting for "
				    "callers would wait for this thread (use respec_replug_async)",
				    what);
	if (counting_calls.depth > 0)
		return respec__fail(EDEADLK,
				    "%s: called from inside a call through COUNTING slot \"%s\"; "
				    "waiting for callers would wait for this thread",
				    what,
				    counting_calls.depth <= RESPEC_COUNTING_STACK
					    ? counting_calls.stack[counting_calls.depth - 1]->state->name
					    : "(deeply nested)");
	const char *inside = owned_thread_slot_inside();
	if (inside)
		return respec__fail(EDEADLK,
				    "%s: called from inside a call through THREAD slot \"%s\" by its "
				    "owner; waiting for callers would wait for this thread",
				    what, inside);
	return 0;
}

void respec__wait_for_callers(respec_slot *slot)
{
	unsigned int spins = 0;
	switch (slot->protocol) {
	case RESPEC_PROTOCOL_EPOCH:
		respec__synchronize();
		return;
	case RESPEC_PROTOCOL_THREAD:
		/* The owner's own later calls follow its own stores in program order. */
		if (pthread_equal(atomic_load(&slot->state->owner), pthread_self()))
			return;
		/* Pairs with the compiler fence in respec__thread_enter(). */
		respec__process_barrier();
		/* Acquire pairs with the release store in respec__thread_exit(). */
		while (atomic_load_explicit(&slot->inside, memory_order_acquire) != 0)
			respec__spin_pause(&spins);
		return;
	case RESPEC_PROTOCOL_COUNTING:
		/* Seq-cst load after the seq-cst publish: pairs with the caller's RMW
		 * then load of `fast` in respec__counting_enter(). */
		while (atomic_load_explicit(&slot->inside, memory_order_seq_cst) != 0)
			respec__spin_pause(&spins);
		return;
	}
}

struct replug_item {
	respec_slot *slot;
	respec_fn fn;
	bool waits; /* replaces a non-generic implementation */
};

static int by_slot_address(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct replug_item *)a)->slot;
	uintptr_t y = (uintptr_t)((const struct replug_item *)b)->slot;
	return (x > y) - (x < y);
}

int respec__replug_many(respec_slot **slots, const respec_fn *fns, size_t count,
			bool count_as_invalidation)
{
	for (size_t i = 0; i < count; i++) {
		if (!respec__slot_valid(slots[i]))
			return respec__fail(EINVAL, "respec_replug: slot %p is not initialized",
					    (void *)slots[i]);
		if (!fns[i])
			return respec__fail(EINVAL, "respec_replug(\"%s\"): NULL implementation",
					    slots[i]->state->name);
	}
	int err = respec__check_can_wait(count == 1 ? slots[0]->state->name : "respec_replug");
	if (err)
		return err;
	struct replug_item stack_items[8];
	struct replug_item *items = count <= 8 ? stack_items : malloc(count * sizeof *items);
	if (!items)
		return respec__fail(ENOMEM, "respec_replug: out of memory");
	for (size_t i = 0; i < count; i++)
		items[i] = (struct replug_item){slots[i], fns[i], false};
	qsort(items, count, sizeof *items, by_slot_address);
	for (size_t i = 1; i < count; i++) {
		if (items[i].slot == items[i - 1].slot) {
			err = respec__fail(EINVAL, "respec_replug: slot \"%s\" listed twice",
					   items[i].slot->state->name);
			goto out;
		}
	}
	for (size_t i = 0; i < count; i++) {
		pthread_mutex_lock(&items[i].slot->state->replug_lock);
		respec__layout_note_plug(items[i].slot->state->generic, items[i].fn);
	}

	uint64_t start = respec__now_ns();
	bool epoch_wait = false;
	for (size_t i = 0; i < count; i++) {
		struct respec_slot_state *st = items[i].slot->state;
		respec_fn old = atomic_load_explicit(&st->current, memory_order_relaxed);
		if (old == items[i].fn)
			continue;
		if (old == st->generic) {
			respec__publish(st, items[i].fn);
			continue;
		}
		respec__publish(st, st->generic); /* the holding tank's detour */
		items[i].waits = true;
		if (items[i].slot->protocol == RESPEC_PROTOCOL_EPOCH)
			epoch_wait = true;
		else
			respec__wait_for_callers(items[i].slot);
	}
	if (epoch_wait)
		respec__synchronize();
	for (size_t i = 0; i < count; i++)
		if (items[i].waits)
			respec__publish(items[i].slot->state, items[i].fn);
	uint64_t elapsed = respec__now_ns() - start;

	for (size_t i = count; i-- > 0;) {
		struct respec_slot_state *st = items[i].slot->state;
		atomic_fetch_add_explicit(&st->replugs, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&st->replug_ns, elapsed, memory_order_relaxed);
		if (elapsed > atomic_load_explicit(&st->replug_ns_max, memory_order_relaxed))
			atomic_store_explicit(&st->replug_ns_max, elapsed, memory_order_relaxed);
		if (count_as_invalidation)
			atomic_fetch_add_explicit(&st->invalidations, 1, memory_order_relaxed);
		pthread_mutex_unlock(&st->replug_lock);
	}
out:
	if (items != stack_items)
		free(items);
	return err;
}

int respec_replug(respec_slot *slot, respec_fn fn)
{
	return respec__replug_many(&slot, &fn, 1, false);
}

int respec_replug_async(respec_slot *slot, respec_fn fn, respec_reclaim_fn reclaim, void *arg)
{
	if (!respec__slot_valid(slot))
		return respec__fail(EINVAL, "respec_replug_async: slot %p is not initialized",
				    (void *)slot);
	struct respec_slot_state *st = slot->state;
	if (!fn)
		return respec__fail(EINVAL, "respec_replug_async(\"%s\"): NULL implementation",
				    st->name);
	/* From inside a call, waiting for a synchronous replug of this slot could
	 * wait (through it) for ourselves: refuse instead. */
	if (!respec__inside_a_call())
		pthread_mutex_lock(&st->replug_lock);
	else if (pthread_mutex_trylock(&st->replug_lock) != 0)
		return respec__fail(EBUSY,
				    "respec_replug_async(\"%s\"): a synchronous replug of this slot "
				    "is under way and the caller is inside a repluggable call",
				    st->name);
	respec__layout_note_plug(st->generic, fn);
	respec_fn old = atomic_load_explicit(&st->current, memory_order_relaxed);
	if (old != fn)
		respec__publish(st, fn);
	atomic_fetch_add_explicit(&st->replugs, 1, memory_order_relaxed);
	pthread_mutex_unlock(&st->replug_lock);
	/* The generic implementation is never retired, so it is never reclaimed. */
	if (old == fn || old == st->generic || !reclaim)
		return 0;
	return respec__reclaim_enqueue(slot, old, reclaim, arg);
}

respec_fn respec_slot_current(const respec_slot *slot)
{
	if (!respec__slot_valid(slot))
		return NULL;
	return atomic_load_explicit(&slot->state->current, memory_order_acquire);
}

respec_fn respec_slot_generic(const respec_slot *slot)
{
	return respec__slot_valid(slot) ? slot->state->generic : NULL;
}

int respec_slot_destroy(respec_slot *slot)
{
	if (!respec__slot_valid(slot))
		return respec__fail(EINVAL, "respec_slot_destroy: slot %p is not initialized",
				    (void *)slot);
	struct respec_slot_state *st = slot->state;
	int err = respec__check_can_wait("respec_slot_destroy");
	if (err)
		return err;
	if (atomic_load(&st->predicate_refs) != 0)
		return respec__fail(EBUSY, "respec_slot_destroy(\"%s\"): still listed by %d predicate(s)",
				    st->name, atomic_load(&st->predicate_refs));
	respec__reclaim_flush();
	pthread_mutex_lock(&slots_lock);
	pthread_mutex_lock(&st->replug_lock);
	respec__publish(st, st->generic);
	pthread_mutex_unlock(&st->replug_lock);
	respec__wait_for_callers(slot);
	pthread_mutex_lock(&respec__registry_lock);
	*st->prev_next = st->next;
	if (st->next)
		st->next->prev_next = st->prev_next;
	if (st->id >= 0)
		respec__slot_by_id[st->id] = NULL;
	pthread_mutex_unlock(&respec__registry_lock);
	pthread_mutex_unlock(&slots_lock);
	atomic_store(&slot->fast, NULL);
	slot->state = NULL;
	pthread_mutex_destroy(&st->replug_lock);
	free(st->name);
	free(st);
	return 0;
}

void respec_stats_set_counting(bool on)
{
	pthread_mutex_lock(&slots_lock);
	atomic_store(&respec__counting_calls, on);
	/* The slot list is stable: init and destroy need slots_lock. */
	for (struct respec_slot_state *st = respec__slots; st; st = st->next) {
		pthread_mutex_lock(&st->replug_lock);
		respec__publish(st, atomic_load(&st->current));
		pthread_mutex_unlock(&st->replug_lock);
	}
	pthread_mutex_unlock(&slots_lock);
}

respec_fn respec__enter_slow(respec_slot *slot)
{
	if (!respec__slot_valid(slot)) {
		fprintf(stderr, "respec: call through slot %p, which is not initialized "
				"(or was destroyed)\n", (void *)slot);
		abort();
	}
	/* Acquire pairs with respec__publish(), as the fast path's load does. */
	respec_fn fn = atomic_load_explicit(&slot->state->current, memory_order_acquire);
	respec__count_call(slot, fn);
	return fn;
}

respec_fn respec__counting_enter(respec_slot *slot)
{
	if (counting_calls.depth < RESPEC_COUNTING_STACK)
		counting_calls.stack[counting_calls.depth] = slot;
	counting_calls.depth++;
	/* Dekker-style with the replugger: it stores the detour then reads
	 * `inside`; we bump `inside` then read `fast`, all sequentially consistent,
	 * so at least one of us sees the other. */
	atomic_fetch_add_explicit(&slot->inside, 1, memory_order_seq_cst);
	respec_fn fn = atomic_load_explicit(&slot->fast, memory_order_seq_cst);
	if (RESPEC_UNLIKELY(fn == NULL))
		fn = respec__enter_slow(slot);
	return fn;
}

void respec__counting_exit(respec_slot *slot)
{
	/* Release pairs with the replugger's load of `inside` reaching zero. */
	atomic_fetch_sub_explicit(&slot->inside, 1, memory_order_release);
	counting_calls.depth--;
}

/* Fork child: the forking thread is the only one left. Locks a dead thread may
 * hold are reset, slots keep what they publish (a replug cut short leaves the
 * generic detour, which is always correct), and inside-counts drop the calls
 * of threads that no longer exist. */
void respec__slots_fork_child(void)
{
	pthread_mutex_init(&slots_lock, NULL);
	pthread_t me = pthread_self();
	for (struct respec_slot_state *st = respec__slots; st; st = st->next) {
		pthread_mutex_init(&st->replug_lock, NULL);
		respec_slot *slot = st->slot;
		if (slot->protocol == RESPEC_PROTOCOL_COUNTING) {
			unsigned long mine = 0;
			for (int i = 0; i < counting_calls.depth && i < RESPEC_COUNTING_STACK; i++)
				mine += counting_calls.stack[i] == slot;
			atomic_store(&slot->inside, mine);
		} else if (slot->protocol == RESPEC_PROTOCOL_THREAD && !pthread_equal(atomic_load(&st->owner), me)) {
			st->owner = me;
			atomic_store(&slot->inside, 0);
		}
		respec__publish(st, atomic_load(&st->current));
	}
}
