/*
 * reader.c — the registry of threads and slots, and the EPOCH protocol's grace
 * period.
 *
 * Each thread that calls through an EPOCH slot (or needs per-thread counters)
 * gets a record linked into the registry on first need and unlinked by a
 * pthread key destructor at thread exit. A grace period advances the global
 * epoch, runs the process-wide barrier, and waits for every thread whose
 * published epoch is neither 0 (outside) nor the new one (entered afterwards,
 * hence after the barrier, hence seeing whatever the replugger stored before).
 */
#include "internal.h"

#include <sched.h>
#include <stdlib.h>
#include <time.h>

pthread_mutex_t respec__registry_lock = PTHREAD_MUTEX_INITIALIZER;
struct respec_thread *respec__threads;
struct respec_slot_state *respec__slots;

_Thread_local struct respec_reader respec__reader;
_Atomic unsigned long respec__epoch = 1;

static _Thread_local struct respec_thread self_record;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
/* Serializes grace periods: each one owns the epoch it advances to. */
static pthread_mutex_t grace_period_lock = PTHREAD_MUTEX_INITIALIZER;

static void unlink_thread(struct respec_thread *t)
{
	if (t->prev)
		t->prev->next = t->next;
	else
		respec__threads = t->next;
	if (t->next)
		t->next->prev = t->prev;
	t->next = t->prev = NULL;
}

static void thread_exit(void *record)
{
	struct respec_thread *t = record;
	pthread_mutex_lock(&respec__registry_lock);
	respec__stats_flush_thread(t);
	unlink_thread(t);
	t->registered = false;
	pthread_mutex_unlock(&respec__registry_lock);
	/* A later destructor calling through a slot registers the thread again. */
	t->reader->depth = 0;
}

static void create_exit_key(void)
{
	if (pthread_key_create(&exit_key, thread_exit) != 0)
		abort();
}

struct respec_thread *respec__thread_self(void)
{
	struct respec_thread *t = &self_record;
	if (RESPEC_LIKELY(t->registered))
		return t;
	pthread_once(&exit_key_once, create_exit_key);
	t->reader = &respec__reader;
	t->thread = pthread_self();
	pthread_mutex_lock(&respec__registry_lock);
	t->prev = NULL;
	t->next = respec__threads;
	if (respec__threads)
		respec__threads->prev = t;
	respec__threads = t;
	t->registered = true;
	pthread_mutex_unlock(&respec__registry_lock);
	if (respec__reader.depth == 0)
		respec__reader.depth = 1;
	pthread_setspecific(exit_key, t);
	return t;
}

unsigned long respec__reader_register(void)
{
	respec__thread_self();
	return respec__reader.depth;
}

void respec__spin_pause(unsigned int *spins)
{
	unsigned int n = (*spins)++;
	if (n < 128) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	} else if (n < 2048) {
		sched_yield();
	} else {
		struct timespec nap = {0, 50 * 1000};
		nanosleep(&nap, NULL);
	}
}

void respec__synchronize(void)
{
	pthread_mutex_lock(&grace_period_lock);
	/* Pairs with the compiler fence in respec__epoch_enter(): after this, a
	 * caller that published its epoch before the barrier is visible to the scan,
	 * and one that publishes later sees everything stored before it (the
	 * holding tank, the retired implementation's replacement). */
	respec__process_barrier();
	unsigned long target = atomic_load_explicit(&respec__epoch, memory_order_relaxed) + 2;
	atomic_store_explicit(&respec__epoch, target, memory_order_relaxed);
	unsigned int spins = 0;
	pthread_mutex_lock(&respec__registry_lock);
	for (struct respec_thread *t = respec__threads; t;) {
		/* Acquire pairs with the release store of 0 in respec__epoch_exit(). */
		unsigned long epoch = atomic_load_explicit(&t->reader->epoch, memory_order_acquire);
		if (epoch == 0 || epoch == target) {
			t = t->next;
			continue;
		}
		/* Never wait under the registry lock (fork and thread exit take it):
		 * drop it, back off, and rescan from the head since the list may
		 * have changed meanwhile. */
		pthread_mutex_unlock(&respec__registry_lock);
		respec__spin_pause(&spins);
		pthread_mutex_lock(&respec__registry_lock);
		t = respec__threads;
	}
	pthread_mutex_unlock(&respec__registry_lock);
	pthread_mutex_unlock(&grace_period_lock);
}

/* In a fork child only the forking thread exists: drop everyone else's record
 * (their counters go to the slots' shared totals) and reset the lock a dead
 * thread may hold. Runs with the registry lock held since fork's prepare. */
void respec__registry_fork_child(void)
{
	struct respec_thread *t = respec__threads;
	while (t) {
		struct respec_thread *next = t->next;
		if (t != &self_record) {
			respec__stats_flush_thread(t);
			unlink_thread(t);
		}
		t = next;
	}
	if (self_record.registered)
		self_record.thread = pthread_self();
	pthread_mutex_init(&grace_period_lock, NULL);
}
