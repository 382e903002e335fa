/*
 * internal.h — what the librespec .c files share and the public header hides:
 * the slot's private state, the per-thread record, and the entry points of each
 * concept (barrier, readers, slots, reclaim, predicates, stats, errors).
 *
 * Lock order, outermost first: predicate lock, slot replug locks (by address),
 * grace-period lock, registry lock, MemGuard's table spinlock. The registry lock
 * and the spinlock are only ever held briefly (never while waiting for
 * callers), which is what lets fork() take them.
 */
#ifndef RESPEC_RUNTIME_INTERNAL_H
#define RESPEC_RUNTIME_INTERNAL_H

#include "respec/runtime.h"

#include <pthread.h>
#include <stddef.h>

/* Slots with an id below this count calls in per-thread counters; later ones
 * share atomic counters in their state. */
#define RESPEC_COUNTED_SLOTS 64
/* Depth of the per-thread stack of COUNTING slots entered (deadlock checks). */
#define RESPEC_COUNTING_STACK 16

struct respec_call_counts {
	_Atomic uint64_t specialized;
	_Atomic uint64_t generic;
};

struct respec_slot_state {
	respec_slot *slot;
	char *name;
	respec_fn generic;
	/* What callers run now: the installed implementation, or the generic one
	 * while a replug is under way. `fast` mirrors it unless counting calls. */
	_Atomic(respec_fn) current;
	pthread_mutex_t replug_lock;
	_Atomic(pthread_t) owner; /* THREAD protocol; read without the replug lock */
	int id;          /* per-thread counter index, or -1 */
	_Atomic int predicate_refs;
	struct respec_slot_state *next; /* registry list */
	struct respec_slot_state **prev_next;
	/* Counters: replug figures under replug_lock; calls of threads that exited
	 * or of slots without a per-thread index. */
	struct respec_call_counts shared_calls;
	_Atomic uint64_t replugs, replug_ns, replug_ns_max, invalidations;
};

/* Per-thread record, registered on first need and unlinked at thread exit. */
struct respec_thread {
	struct respec_thread *next, *prev;
	struct respec_reader *reader; /* this thread's respec__reader */
	pthread_t thread;
	_Atomic unsigned int barrier_ack; /* signal fallback of the process barrier */
	struct respec_call_counts calls[RESPEC_COUNTED_SLOTS];
	bool registered;
};

/* registry (reader.c): threads and slots, under one briefly-held lock. */
extern pthread_mutex_t respec__registry_lock;
extern struct respec_thread *respec__threads;
extern struct respec_slot_state *respec__slots;
struct respec_thread *respec__thread_self(void);
/* Waits until every thread inside an EPOCH call has left it or entered after
 * the start of this call (a grace period). */
void respec__synchronize(void);
void respec__registry_fork_child(void);

/* barrier.c: make every thread's compiler fences act as full fences. */
void respec__barrier_init(void);
void respec__process_barrier(void);
void respec__barrier_fork_child(void);

/* slot.c */
bool respec__slot_valid(const respec_slot *slot);
/* Replugs `count` slots together with one wait; used by predicates. */
int respec__replug_many(respec_slot **slots, const respec_fn *fns, size_t count,
			bool count_as_invalidation);
/* EDEADLK (with a message naming `what`) if the calling thread is inside a
 * repluggable call, where waiting for callers could wait for itself. */
int respec__check_can_wait(const char *what);
/* The same test without recording an error: is this thread inside a call? */
bool respec__inside_a_call(void);
/* Stores what callers of `st` run now (under its replug lock or at init). */
void respec__publish(struct respec_slot_state *st, respec_fn fn);
/* Slots by per-thread counter index (registry lock). */
extern struct respec_slot_state *respec__slot_by_id[RESPEC_COUNTED_SLOTS];
/* Waits until no caller is inside `slot`'s implementations installed so far. */
void respec__wait_for_callers(respec_slot *slot);
void respec__slots_fork_child(void);
void respec__spin_pause(unsigned int *spins);

/* reclaim.c */
int respec__reclaim_enqueue(respec_slot *slot, respec_fn old, respec_reclaim_fn fn, void *arg);
/* Waits until every reclaim queued so far has run (slot destruction, barrier). */
void respec__reclaim_flush(void);
void respec__reclaim_fork_prepare(void);
void respec__reclaim_fork_parent(void);
void respec__reclaim_fork_child(void);

/* predicate.c */
void respec__predicates_fork_child(void);
void respec__predicates_print(FILE *out);
/* A slot's counters (respec_slot_get_stats), with the registry lock held. */
void respec__slot_collect(const struct respec_slot_state *st, respec_slot_stats *out);

/* predicate.c, for feedback.c's back-off thread: a predicate whose back-off
 * has expired by `now` (marked busy until back_off_over), else NULL and the
 * earliest deadline in *next_due (UINT64_MAX: none). */
respec_predicate *respec__predicates_take_due(uint64_t now, uint64_t *next_due);
/* Re-specializes it (unless it holds again) and clears the mark. */
void respec__predicate_back_off_over(respec_predicate *pred);
/* feedback.c: a back-off began: the thread (started on first use) recomputes
 * its deadline. */
void respec__feedback_wake(void);
/* Starts the back-off thread now if it is not running (ENFORCE watches wake
 * it from a signal handler, where it cannot be started). */
void respec__feedback_start(void);
void respec__feedback_fork_child(void);

/* predicate.c, for memguard.c's trap handler: respec_guard_end, but a
 * re-specialization the policy wants now is the back-off thread's to do (the
 * respecialize callback may compile code: not in a signal handler). */
int respec__guard_end_deferred(respec_predicate *pred);
/* predicate.c, for memguard.c: the predicate's own lock (watches start armed
 * exactly when it holds). */
void respec__predicate_lock(respec_predicate *pred);
void respec__predicate_unlock(respec_predicate *pred);
/* How many MemGuard watches it has; lock held. */
void respec__predicate_count_watches(respec_predicate *pred, int change);

/* memguard.c: a predicate's watches are armed exactly while it holds
 * (predicate lock held): before specialized code is plugged in, after it has
 * been replugged to generic. */
void respec__memguard_arm(respec_predicate *pred, bool armed);
void respec__memguard_fork_prepare(void);
void respec__memguard_fork_parent(void);
void respec__memguard_fork_child(void);

/* watchpoint.c: perf breakpoints on every thread for [start, start + len). */
int respec__watchpoints_open(uintptr_t start, size_t len, int **fds, size_t *count);
/* Returns once the events (and their inherited copies) are switched. */
void respec__watchpoints_enable(const int *fds, size_t count, bool on);
void respec__watchpoints_close(const int *fds, size_t count);

/* memguard_report.c: a trapped write, recorded in a signal handler. */
#define RESPEC_REPORT_FRAMES 24
struct respec__report {
	uintptr_t addr;
	long tid;
	char term[48], pred[48], what[48];
	unsigned nframes;
	uintptr_t frames[RESPEC_REPORT_FRAMES]; /* [0]: the store */
};
/* Async-signal-safe once respec__report_start has run. `pc` is the trapping
 * context's; `pc_exact` when it is the store (a fault), not the next one. */
void respec__report_fill(struct respec__report *r, const char *term, respec_predicate *pred,
			 const char *what, uintptr_t addr, uintptr_t pc, bool pc_exact);
/* Names another term (and its predicate) in a filled report. */
void respec__report_name(struct respec__report *r, const char *term, respec_predicate *pred,
			 const char *what);
void respec__report_queue(const struct respec__report *r);
bool respec__reports_on(void);
void respec__report_start(void);
void respec__report_fork_child(void);

/* lifecycle.c: starts a thread nobody joins; false if it could not. */
bool respec__start_detached_thread(void *(*run)(void *));

/* lifecycle.c: one-time setup (also run by a constructor). */
void respec__init(void);
const char *respec__protocol_name(int protocol);

/* stats.c */
extern _Atomic bool respec__counting_calls;
void respec__count_call(respec_slot *slot, respec_fn fn);
void respec__stats_flush_thread(struct respec_thread *self);
uint64_t respec__now_ns(void);
void respec__stats_init(void);

/* layout_record.c */
void respec__layout_record_init(void);
void respec__layout_note_plug(respec_fn generic, respec_fn implementation);

/* error.c: records the message for respec_last_error() and returns err. */
int respec__fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* RESPEC_RUNTIME_INTERNAL_H */
