/*
 * peer_memb.c — liburcu's memb flavor: readers bump a per-thread nesting word; the writer uses membarrier(2). Linked into bench-runtime as a real peer
 * (Debian liburcu-dev 0.13), with its read side inlined.
 */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#include "peers.h"

static target_fn published = target_add_one;

uint64_t memb_call_loop(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		urcu_memb_read_lock();
		target_fn fn = rcu_dereference(published);
		sum += (uint64_t)fn((int)(i & 0xffff));
		urcu_memb_read_unlock();
	}
	return sum;
}

void memb_reader_begin(void)
{
	urcu_memb_register_thread();
}

void memb_reader_end(void)
{
	urcu_memb_unregister_thread();
}

void memb_replug(target_fn fn)
{
	rcu_xchg_pointer(&published, fn);
	urcu_memb_synchronize_rcu();
}

uint64_t memb_busy_reader(_Atomic int *stop)
{
	uint64_t calls = 0;
	urcu_memb_register_thread();
	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		urcu_memb_read_lock();
		target_fn fn = rcu_dereference(published);
		int got = fn(1);
		urcu_memb_read_unlock();
		if (got != 2 && got != 3)
			return 0;
		calls++;
	}
	urcu_memb_unregister_thread();
	return calls;
}
