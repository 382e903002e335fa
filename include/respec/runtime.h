/*
 * runtime.h — librespec, the run-time half of respec: repluggable functions,
 * specialization predicates with guards, and counters.
 *
 * A *slot* holds the current implementation of one function. Callers go through
 * the slot (RESPEC_CALL and friends); a *replug* installs another implementation
 * and returns only once no caller can still be running, or later enter, the one it
 * replaced. The holding tank: while a replug is under way the slot detours
 * arriving callers to its generic implementation, never to the one being
 * replaced, and never blocks them (so no caller can deadlock with a replugger).
 * The generic implementation is correct in every state, so it is never "stale":
 * replugging away from it needs no waiting.
 *
 * How callers and repluggers synchronize is the slot's *protocol*:
 *   RESPEC_PROTOCOL_EPOCH     (default) shared by any threads. A caller publishes,
 *                             in a per-thread word, the epoch it entered in; no
 *                             atomic read-modify-write and no fence on the call
 *                             path. The replugger pays: one process-wide barrier
 *                             (membarrier(2) MEMBARRIER_CMD_PRIVATE_EXPEDITED,
 *                             or signals where that is unavailable), then a scan.
 *   RESPEC_PROTOCOL_THREAD    owned by one thread (Synthetix's boolean replugger):
 *                             an inside-count written only by the owner; the
 *                             replugger pays with the same process-wide barrier.
 *   RESPEC_PROTOCOL_COUNTING  shared (Synthetix's counting replugger): an atomic
 *                             count of callers inside, two locked RMWs per call.
 *
 * The fast paths are inline below; every ordering point says what it pairs with.
 * Slow paths live in the runtime/ sources. Functions returning int return 0 or an errno
 * value; respec_last_error() then describes what went wrong in this thread.
 */
#ifndef RESPEC_RUNTIME_H
#define RESPEC_RUNTIME_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__) || defined(__clang__)
#define RESPEC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RESPEC_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define RESPEC_UNLIKELY(x) (x)
#define RESPEC_LIKELY(x) (x)
#endif

/* The type a slot stores; cast real function pointers with RESPEC_FN. */
typedef void (*respec_fn)(void);
#define RESPEC_FN(f) ((respec_fn)(f))

enum respec_protocol {
	RESPEC_PROTOCOL_EPOCH = 0,
	RESPEC_PROTOCOL_THREAD = 1,
	RESPEC_PROTOCOL_COUNTING = 2,
};
#define RESPEC_PROTOCOL_DEFAULT RESPEC_PROTOCOL_EPOCH

struct respec_slot_state; /* private: names, locks, counters, replug state */

/*
 * A repluggable function. Allocate it anywhere (static storage is usual), zeroed,
 * and initialize it with respec_slot_init(). Only the fields the call path reads
 * are visible here; treat them as private.
 */
typedef struct respec_slot {
	/* What callers jump to (the generic implementation during a replug). NULL
	 * sends them to the slow path: call counting is on, or no initialized slot. */
	_Atomic(respec_fn) fast;
	/* THREAD: how deep the owner is inside this slot (written by the owner only).
	 * COUNTING: how many calls are inside this slot. EPOCH: unused. */
	_Atomic unsigned long inside;
	int protocol; /* enum respec_protocol, fixed at init */
	struct respec_slot_state *state;
} respec_slot;

/* ---- slots ---------------------------------------------------------------- */

/* Registers a slot whose implementation starts as `generic`. EINVAL for a NULL
 * slot/generic or unknown protocol, EEXIST if the slot is already registered.
 * A THREAD slot is owned by the calling thread (see respec_slot_set_owner). */
int respec_slot_init(respec_slot *slot, const char *name, enum respec_protocol protocol,
		     respec_fn generic);
/* Unregisters the slot after waiting for its callers and pending reclaims. EBUSY
 * while a predicate still lists it, EDEADLK from inside a repluggable call. */
int respec_slot_destroy(respec_slot *slot);
/* Makes the calling thread the owner of a THREAD slot. */
int respec_slot_set_owner(respec_slot *slot);

/*
 * Installs `fn` and returns when no caller can still be executing, or later
 * enter, the implementation it replaced (the holding-tank guarantee). Replugs of
 * one slot are serialized. EINVAL for an uninitialized slot or NULL fn; EDEADLK
 * when the calling thread is itself inside a repluggable call (it could end up
 * waiting for itself, directly or through another replugger).
 */
int respec_replug(respec_slot *slot, respec_fn fn);

/* Called once no caller can be running `old` any more; from the reclaimer thread
 * or from respec_barrier(). */
typedef void (*respec_reclaim_fn)(respec_fn old, void *arg);

/*
 * Non-blocking replug: installs `fn` at once (callers already inside keep
 * running the old implementation, new callers run `fn`) and arranges for
 * `reclaim(old, arg)` to run after every caller of the old one has left.
 * `reclaim` may be NULL. Usable from inside a repluggable call, except that it
 * then fails with EBUSY instead of waiting for a synchronous replug of the slot.
 */
int respec_replug_async(respec_slot *slot, respec_fn fn, respec_reclaim_fn reclaim, void *arg);

/* Waits until every reclaim callback queued so far has run (running them in the
 * calling thread if the reclaimer is idle). EDEADLK from inside a call. */
int respec_barrier(void);

/* The implementation currently installed (a snapshot). */
respec_fn respec_slot_current(const respec_slot *slot);
/* The generic implementation given to respec_slot_init. */
respec_fn respec_slot_generic(const respec_slot *slot);

/* Description of this thread's last failed respec_* call. */
const char *respec_last_error(void);
/* How repluggers make callers' fences real: "membarrier" or "signals". */
const char *respec_barrier_mechanism(void);

/* ---- calling through a slot ---------------------------------------------- */

/* Per-thread caller state of the EPOCH protocol. Private. */
struct respec_reader {
	/* 0 while outside every EPOCH call; otherwise the (odd) epoch the
	 * outermost call began in. Written by this thread, read by repluggers. */
	_Atomic unsigned long epoch;
	/* 0: thread not registered yet; 1: registered, outside; n+1: n calls deep. */
	unsigned long depth;
};
extern _Thread_local struct respec_reader respec__reader;
extern _Atomic unsigned long respec__epoch; /* odd; advanced by grace periods */

respec_fn respec__enter_slow(respec_slot *slot);
unsigned long respec__reader_register(void);
respec_fn respec__counting_enter(respec_slot *slot);
void respec__counting_exit(respec_slot *slot);

static inline respec_fn respec__epoch_enter(respec_slot *slot)
{
	struct respec_reader *self = &respec__reader;
	unsigned long depth = self->depth;
	if (RESPEC_UNLIKELY(depth == 0))
		depth = respec__reader_register();
	if (RESPEC_LIKELY(depth == 1))
		atomic_store_explicit(&self->epoch,
				      atomic_load_explicit(&respec__epoch, memory_order_relaxed),
				      memory_order_relaxed);
	self->depth = depth + 1;
	/* Compiler-only fence; the process-wide barrier in respec__synchronize()
	 * turns it into a full one. Pairs with that barrier: either this epoch store
	 * is visible to the replugger's scan, or the load below sees what the
	 * replugger stored before it (the generic detour, or the new version). */
	atomic_signal_fence(memory_order_seq_cst);
	/* Acquire pairs with the release store that installs an implementation, so
	 * whatever its installer prepared is visible to the call. */
	respec_fn fn = atomic_load_explicit(&slot->fast, memory_order_acquire);
	if (RESPEC_UNLIKELY(fn == NULL))
		fn = respec__enter_slow(slot);
	return fn;
}

static inline void respec__epoch_exit(void)
{
	struct respec_reader *self = &respec__reader;
	unsigned long depth = self->depth - 1;
	self->depth = depth;
	/* Release pairs with the acquire load in the grace-period scan: everything
	 * the call did happens before the replugger moves on (and frees things). */
	if (depth == 1)
		atomic_store_explicit(&self->epoch, 0, memory_order_release);
}

static inline respec_fn respec__thread_enter(respec_slot *slot)
{
	/* Only the owner writes `inside`, so a plain load and store suffice. */
	unsigned long inside = atomic_load_explicit(&slot->inside, memory_order_relaxed);
	atomic_store_explicit(&slot->inside, inside + 1, memory_order_relaxed);
	/* Pairs with the process-wide barrier in the replug (as for EPOCH): either
	 * the replugger sees `inside`, or this load sees the generic detour. */
	atomic_signal_fence(memory_order_seq_cst);
	respec_fn fn = atomic_load_explicit(&slot->fast, memory_order_acquire);
	if (RESPEC_UNLIKELY(fn == NULL))
		fn = respec__enter_slow(slot);
	return fn;
}

static inline void respec__thread_exit(respec_slot *slot)
{
	unsigned long inside = atomic_load_explicit(&slot->inside, memory_order_relaxed);
	/* Release pairs with the replugger's acquire load of `inside`. */
	atomic_store_explicit(&slot->inside, inside - 1, memory_order_release);
}

/* Enters a call: returns the implementation to call. Must be paired with
 * respec_exit() on the same slot once the call has returned. */
static inline respec_fn respec_enter(respec_slot *slot)
{
	if (RESPEC_LIKELY(slot->protocol == RESPEC_PROTOCOL_EPOCH))
		return respec__epoch_enter(slot);
	if (slot->protocol == RESPEC_PROTOCOL_THREAD)
		return respec__thread_enter(slot);
	return respec__counting_enter(slot);
}

static inline void respec_exit(respec_slot *slot)
{
	if (RESPEC_LIKELY(slot->protocol == RESPEC_PROTOCOL_EPOCH))
		respec__epoch_exit();
	else if (slot->protocol == RESPEC_PROTOCOL_THREAD)
		respec__thread_exit(slot);
	else
		respec__counting_exit(slot);
}

/* respec_enter/respec_exit for a caller that knows the slot uses the THREAD
 * protocol and is its owner: the same, without the protocol dispatch (which
 * the compiler cannot fold, and which costs a third of a very cheap call). */
static inline respec_fn respec_enter_thread(respec_slot *slot)
{
	return respec__thread_enter(slot);
}

static inline void respec_exit_thread(respec_slot *slot)
{
	respec__thread_exit(slot);
}

/* result = slot(args...), where fn_type is the implementations' pointer type. */
#define RESPEC_CALL_INTO(result, slot, fn_type, ...)                                  \
	do {                                                                          \
		respec_slot *const respec_call_slot_ = (slot);                        \
		(result) = ((fn_type)respec_enter(respec_call_slot_))(__VA_ARGS__);   \
		respec_exit(respec_call_slot_);                                       \
	} while (0)

/* slot(args...) for implementations returning void. */
#define RESPEC_CALL_VOID(slot, fn_type, ...)                                          \
	do {                                                                          \
		respec_slot *const respec_call_slot_ = (slot);                        \
		((fn_type)respec_enter(respec_call_slot_))(__VA_ARGS__);              \
		respec_exit(respec_call_slot_);                                       \
	} while (0)

#if defined(__GNUC__) || defined(__clang__)
/* slot(args...) as an expression (GNU C statement expression). */
#define RESPEC_CALL(slot, fn_type, ...)                                               \
	__extension__({                                                               \
		respec_slot *const respec_call_slot_ = (slot);                        \
		__typeof__(fn_type) const respec_call_fn_ = (fn_type)respec_enter(respec_call_slot_); \
		__typeof__(respec_call_fn_(__VA_ARGS__)) respec_call_result_ =        \
			respec_call_fn_(__VA_ARGS__);                                 \
		respec_exit(respec_call_slot_);                                       \
		respec_call_result_;                                                  \
	})
#endif

/* ---- predicates and guards ----------------------------------------------- */

/*
 * A predicate names a quasi-invariant ("fd 3 is read sequentially by one
 * thread") and the slots specialized on it. Objects whose fields are terms of
 * the predicate carry a respec_spid field (the SPID of Synthetix's TypeGuard):
 * NULL while no live predicate covers the object, the predicate otherwise.
 */
typedef struct respec_predicate respec_predicate;
typedef _Atomic(respec_predicate *) respec_spid;

/* Asked, after a guarded store broke the predicate, for an implementation
 * specialized to the new state; NULL leaves the slot generic. */
typedef respec_fn (*respec_respecialize_fn)(respec_predicate *pred, respec_slot *slot,
					    void *arg);

/* NULL (with respec_last_error) on allocation failure or NULL name. */
respec_predicate *respec_predicate_create(const char *name);
/* EBUSY while established. */
int respec_predicate_destroy(respec_predicate *pred);
/* `slot` runs `specialized` while the predicate holds. EEXIST if already added,
 * EBUSY while established, EINVAL for NULL arguments or uninitialized slots. */
int respec_predicate_add_slot(respec_predicate *pred, respec_slot *slot, respec_fn specialized);
/* The predicate arms *spid while it holds. EEXIST if already watched. */
int respec_predicate_watch(respec_predicate *pred, respec_spid *spid);
/* Incremental specialization after a guarded store (optional). */
int respec_predicate_set_respecialize(respec_predicate *pred, respec_respecialize_fn fn,
				      void *arg);
/* The caller has checked that the terms hold: arms the watched SPIDs, then plugs
 * in the specialized implementations. EALREADY if already established. Must not
 * race with unguarded writers of the terms (establish in a binding phase). */
int respec_predicate_establish(respec_predicate *pred);
/* Replugs every dependent slot back to generic, then disarms the SPIDs, and
 * cancels a pending back-off (see respec_predicate_set_policy): nothing
 * re-specializes it until it is established again. No-op otherwise when the
 * predicate does not hold. */
int respec_predicate_invalidate(respec_predicate *pred);
bool respec_predicate_holds(const respec_predicate *pred);
const char *respec_predicate_name(const respec_predicate *pred);

/*
 * A guarded write of a predicate term is respec_guard_begin (dependent slots
 * replugged to generic: no specialized call can still be running), the write,
 * then respec_guard_end (re-specialization through the callback, which sees the
 * new value). begin holds the predicate's lock until end. begin fails with
 * EDEADLK from inside a repluggable call; the lock is then not held.
 */
int respec_guard_begin(respec_predicate *pred);
int respec_guard_end(respec_predicate *pred);

/* ---- feedback: when specializing stops paying ---------------------------- */

/*
 * What a predicate's guards and replugs have cost so far. A predicate whose
 * terms change so often that re-specializing costs more than it saves should
 * stay generic for a while: after each guarded store that broke it, its policy
 * says for how long (0: re-specialize now, as without a policy). Once that time
 * has passed, librespec's back-off thread re-specializes it through the
 * respecialize callback (which may therefore run on that thread).
 */
typedef struct respec_predicate_stats {
	const char *name;
	bool holds;
	bool backing_off;          /* generic until the policy's period has passed */
	uint64_t establishes, invalidations, respecializations;
	uint64_t guarded_stores;   /* respec_guard_begin calls */
	uint64_t guard_fires;      /* ... that found it established and broke it */
	uint64_t backoffs;         /* times the policy kept it generic for a while */
	uint64_t consecutive_backoffs; /* since the policy last said "now" */
	uint64_t respecialize_ns;  /* in the respecialize callback, all calls */
	uint64_t replugs;          /* replugs of its slots, either way (a batch: one grace period) */
	uint64_t replug_ns;        /* replugging its slots, both ways */
	double store_interval_ns;  /* recent mean time between guarded stores; 0: fewer than 2 */
	/* Its slots' calls (counted only while call counting is on). */
	uint64_t calls_specialized, calls_generic;
	/* What its specialized code saves per call (respec_predicate_set_benefit;
	 * 0: not known), and the calls its slots served per guarded store between
	 * the policy's last two runs (counted calls only). */
	double saved_ns_per_call, recent_calls_per_store;
} respec_predicate_stats;

int respec_predicate_get_stats(const respec_predicate *pred, respec_predicate_stats *out);

/* Nanoseconds to stay generic after a guarded store broke the predicate. */
typedef uint64_t (*respec_policy_fn)(respec_predicate *pred, const respec_predicate_stats *stats,
				     void *arg);
/* NULL restores the default, respec_policy_default. A predicate without a
 * respecialize callback is never re-specialized by a policy. */
int respec_predicate_set_policy(respec_predicate *pred, respec_policy_fn fn, void *arg);
/* What the predicate's specialized code saves per call, in ns (a benchmark's
 * figure, or respec profile's estimate), for the default policy. EINVAL when
 * negative. */
int respec_predicate_set_benefit(respec_predicate *pred, double saved_ns_per_call);
/*
 * The default, Synthetix's cost model: re-specialize after a break when it
 * pays. One cycle (a break's replug, the re-specialization and its replug:
 * their mean cost so far) must cost less than the specialized code saves
 * until the next write: its recent calls per guarded store (counted while
 * call counting is on; with counting off, none) times the benefit set with
 * respec_predicate_set_benefit. Without a benefit, the cycle must take at most 5% of the time between
 * guarded stores (its recent mean). Otherwise stay generic for 1 ms, doubling
 * with each consecutive back-off up to about 1 s. So a writer breaking the
 * predicate ever faster costs the program at most about 5% over its generic
 * code, and a predicate that became stable again is specialized again within
 * the back-off period.
 */
uint64_t respec_policy_default(respec_predicate *pred, const respec_predicate_stats *stats,
			       void *arg);
/* Re-specialize after every break, whatever it costs. */
uint64_t respec_policy_always(respec_predicate *pred, const respec_predicate_stats *stats,
			      void *arg);

/* Reports a failed guard in RESPEC_GUARDED_STORE (prints and aborts). */
void respec__guard_failed(respec_predicate *pred, int err, const char *file, int line);

/* A forgotten guard is caught at run time by MemGuard (respec/memguard.h):
 * watches on the terms, armed while the predicate holds, that report unguarded
 * writes or turn them into guarded stores. */

/* Loads an object's SPID: one plain load (relaxed atomic). */
static inline respec_predicate *respec_spid_load(respec_spid *spid)
{
	return atomic_load_explicit(spid, memory_order_relaxed);
}

/*
 * term = value, guarded by the object's SPID. With no live predicate this is one
 * load, a compare and a not-taken branch before the store. Otherwise dependent
 * slots are replugged first, then the term is written, then re-specialized.
 */
#define RESPEC_GUARDED_STORE(spid, term, value)                                       \
	do {                                                                          \
		respec_predicate *const respec_guard_pred_ = respec_spid_load(&(spid)); \
		if (RESPEC_UNLIKELY(respec_guard_pred_ != NULL)) {                    \
			int respec_guard_err_ = respec_guard_begin(respec_guard_pred_); \
			if (respec_guard_err_ != 0)                                   \
				respec__guard_failed(respec_guard_pred_, respec_guard_err_, \
						     __FILE__, __LINE__);             \
			(term) = (value);                                             \
			respec_guard_end(respec_guard_pred_);                         \
		} else {                                                              \
			(term) = (value);                                             \
		}                                                                     \
	} while (0)

/* ---- observability -------------------------------------------------------- */

typedef struct respec_slot_stats {
	const char *name;
	enum respec_protocol protocol;
	/* Counted only while call counting is on (RESPEC_STATS=1 or
	 * respec_stats_set_counting), because counting sends calls through the slow
	 * path. Calls that ran the generic implementation vs any other. */
	uint64_t calls_specialized;
	uint64_t calls_generic;
	uint64_t replugs;       /* synchronous and asynchronous */
	uint64_t replug_ns;     /* total time inside respec_replug for this slot */
	uint64_t replug_ns_max;
	uint64_t invalidations; /* times a predicate's invalidation replugged it */
} respec_slot_stats;

int respec_slot_get_stats(const respec_slot *slot, respec_slot_stats *out);
/* Turns call counting on or off for every slot. */
void respec_stats_set_counting(bool on);
bool respec_stats_counting(void);
/* The table RESPEC_STATS=1 prints to stderr at exit. */
void respec_stats_print(FILE *out);

#endif /* RESPEC_RUNTIME_H */
