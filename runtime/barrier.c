/*
 * barrier.c — the process-wide memory barrier repluggers pay so that callers
 * don't have to. Callers of EPOCH and THREAD slots only put compiler fences
 * between publishing "I am inside" and loading the implementation; this barrier
 * makes each of those fences act as a full fence on every thread of the process.
 *
 * First choice: membarrier(2) MEMBARRIER_CMD_PRIVATE_EXPEDITED (an IPI to the
 * CPUs running our threads; sleeping threads already passed a context switch).
 * Fallback, when the kernel lacks it or RESPEC_BARRIER=signals is set: signal
 * every registered thread and wait until each has run a fence in its handler
 * (the liburcu-signal approach). The fallback needs registered threads not to
 * block RESPEC_BARRIER_SIGNAL (SIGRTMIN+6).
 */
#include "internal.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static bool use_membarrier;
static _Atomic unsigned int barrier_round; /* signal fallback: what handlers ack */

static long sys_membarrier(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0);
}

static int barrier_signal(void)
{
	return SIGRTMIN + 6;
}

static void barrier_signal_handler(int sig)
{
	(void)sig;
	struct respec_thread *self = respec__thread_self();
	/* The full fence this thread owes the replugger: pairs with the fence in
	 * signal_barrier() before it reads this thread's state. */
	atomic_thread_fence(memory_order_seq_cst);
	atomic_store_explicit(&self->barrier_ack,
			      atomic_load_explicit(&barrier_round, memory_order_relaxed),
			      memory_order_release);
}

static bool try_membarrier(void)
{
	const char *forced = getenv("RESPEC_BARRIER");
	if (forced && strcmp(forced, "signals") == 0)
		return false;
	long supported = sys_membarrier(MEMBARRIER_CMD_QUERY);
	if (supported < 0 || !(supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
		return false;
	return sys_membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

void respec__barrier_init(void)
{
	use_membarrier = try_membarrier();
	if (use_membarrier)
		return;
	struct sigaction action;
	memset(&action, 0, sizeof action);
	action.sa_handler = barrier_signal_handler;
	action.sa_flags = SA_RESTART;
	sigemptyset(&action.sa_mask);
	if (sigaction(barrier_signal(), &action, NULL) != 0) {
		fprintf(stderr, "respec: no membarrier(2) and cannot install the barrier signal "
				"handler: %s\n", strerror(errno));
		abort();
	}
	if (getenv("RESPEC_STATS"))
		fprintf(stderr, "respec: membarrier(2) PRIVATE_EXPEDITED unavailable or disabled; "
				"repluggers fall back to signals (SIGRTMIN+6)\n");
}

const char *respec_barrier_mechanism(void)
{
	return use_membarrier ? "membarrier" : "signals";
}

static void signal_barrier(void)
{
	pthread_mutex_lock(&respec__registry_lock);
	unsigned int round = atomic_fetch_add(&barrier_round, 1) + 1;
	pthread_t me = pthread_self();
	for (struct respec_thread *t = respec__threads; t; t = t->next)
		if (!pthread_equal(t->thread, me))
			pthread_kill(t->thread, barrier_signal());
	for (struct respec_thread *t = respec__threads; t; t = t->next) {
		if (pthread_equal(t->thread, me))
			continue;
		unsigned int spins = 0;
		/* Acquire pairs with the handler's release store of its ack. */
		while (atomic_load_explicit(&t->barrier_ack, memory_order_acquire) != round)
			respec__spin_pause(&spins);
	}
	pthread_mutex_unlock(&respec__registry_lock);
	atomic_thread_fence(memory_order_seq_cst);
}

void respec__process_barrier(void)
{
	if (!use_membarrier) {
		signal_barrier();
		return;
	}
	if (sys_membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) {
		fprintf(stderr, "respec: membarrier(PRIVATE_EXPEDITED) failed after registration: %s\n",
			strerror(errno));
		abort();
	}
}

/* A child process keeps the mapping but re-registering is cheap and makes the
 * expedited command valid whatever the kernel does about inheritance. */
void respec__barrier_fork_child(void)
{
	if (use_membarrier)
		(void)sys_membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED);
}
