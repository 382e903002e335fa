/*
 * peers.h — what bench_runtime.c needs from the other translation units: the
 * called functions (in their own file, so no call can be inlined away) and the
 * liburcu peers. Each liburcu flavor lives in its own file because the flavor
 * headers cannot share one; each file holds the same call loop as
 * bench_runtime.c's, with liburcu's read side inlined (_LGPL_SOURCE), so no
 * variant pays a call that another does not.
 */
#ifndef RESPEC_BENCH_RUNTIME_PEERS_H
#define RESPEC_BENCH_RUNTIME_PEERS_H

#include <stdatomic.h>
#include <stdint.h>

typedef int (*target_fn)(int);
/* The slots' generic implementation; computes what target_add_one does. */
int target_generic(int x);
int target_add_one(int x);
int target_add_two(int x);

/* Runs `n` calls x -> target(x) through the flavor's protected pointer and
 * returns the sum of the results (the output every variant must agree on). */
uint64_t qsbr_call_loop(uint64_t n);
uint64_t memb_call_loop(uint64_t n);
/* Reader registration of the calling thread. */
void qsbr_reader_begin(void);
void qsbr_reader_end(void);
void memb_reader_begin(void);
void memb_reader_end(void);
/* Publishes `fn` and waits for a grace period (synchronize_rcu). */
void qsbr_replug(target_fn fn);
void memb_replug(target_fn fn);
/* A busy reader: calls until *stop, returns the number of calls; QSBR
 * announces a quiescent state every 1024 calls. */
uint64_t qsbr_busy_reader(_Atomic int *stop);
uint64_t memb_busy_reader(_Atomic int *stop);

#endif /* RESPEC_BENCH_RUNTIME_PEERS_H */
