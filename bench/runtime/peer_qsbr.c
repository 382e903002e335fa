/*
 * peer_qsbr.c — liburcu's QSBR flavor: readers announce quiescent states (every 1024 calls here); read-side lock and unlock compile to nothing. Linked into bench-runtime as a real peer
 * (Debian liburcu-dev 0.13), with its read side inlined.
 */
#define _LGPL_SOURCE
#include <urcu/urcu-qsbr.h>

#include "peers.h"

static target_fn published = target_add_one;

uint64_t qsbr_call_loop(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		urcu_qsbr_read_lock();
		target_fn fn = rcu_dereference(published);
		sum += (uint64_t)fn((int)(i & 0xffff));
		urcu_qsbr_read_unlock();
		if ((i & 1023) == 0)
			urcu_qsbr_quiescent_state();
	}
	return sum;
}

void qsbr_reader_begin(void)
{
	urcu_qsbr_register_thread();
}

void qsbr_reader_end(void)
{
	urcu_qsbr_unregister_thread();
}

void qsbr_replug(target_fn fn)
{
	rcu_xchg_pointer(&published, fn);
	urcu_qsbr_synchronize_rcu();
}

uint64_t qsbr_busy_reader(_Atomic int *stop)
{
	uint64_t calls = 0;
	urcu_qsbr_register_thread();
	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		urcu_qsbr_read_lock();
		target_fn fn = rcu_dereference(published);
		int got = fn(1);
		urcu_qsbr_read_unlock();
		if (got != 2 && got != 3)
			return 0;
		calls++;
		if ((calls & 1023) == 0)
			urcu_qsbr_quiescent_state();
	}
	urcu_qsbr_unregister_thread();
	return calls;
}
