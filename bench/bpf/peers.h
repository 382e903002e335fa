/*
 * peers.h — the cBPF JIT compilers bench-bpf compares respec with, each behind
 * the same two calls:
 *
 *   dpdk-jit    DPDK's librte_bpf: rte_bpf_convert (cBPF -> eBPF), rte_bpf_load,
 *               rte_bpf_get_jit; packets are handed over as rte_mbufs
 *   bpfjit      FreeBSD's cBPF JIT for amd64 (bpf_jit_machdep.c from the crate
 *               bpfjit 0.1.1, fetched at build time)
 *   kernel-jit  the Linux JIT: the classic program converted to eBPF the way the
 *               kernel converts a classic socket filter (packet loads through
 *               LD_ABS/LD_IND), loaded with bpf(BPF_PROG_LOAD) as a tc classifier
 *               and run with BPF_PROG_TEST_RUN
 *
 * `create` compiles the program for the packets of one benchmark case and
 * returns the variant's context, or NULL with the reason in `why` when the peer
 * cannot run it (not installed, not permitted, an instruction it lacks, packets
 * its model cannot represent). `run` has the harness's signature: it filters
 * `iterations` packets, cycling through the case's packets, recording each
 * verdict. Every context starts with its struct packet_cursor, so the one digest
 * function (packet_cursor_digest) serves all variants.
 */
#ifndef RESPEC_BENCH_BPF_PEERS_H
#define RESPEC_BENCH_BPF_PEERS_H

#include "trace.h"

#include <stddef.h>
#include <stdint.h>

struct packet_cursor {
	const struct trace_packet *packets;
	size_t count;
	size_t next;     /* the packet the next operation filters */
	u_int *verdicts; /* the latest verdict for each packet */
};

/* Advances to the next packet, wrapping around. */
static inline size_t packet_cursor_advance(struct packet_cursor *cursor)
{
	size_t index = cursor->next;
	cursor->next = index + 1 == cursor->count ? 0 : index + 1;
	return index;
}

struct bpf_program;

void *dpdk_jit_create(const struct bpf_program *program, const struct packet_cursor *cursor,
		      char *why, size_t why_size);
void dpdk_jit_run(void *variant, uint64_t iterations);

void *bpfjit_create(const struct bpf_program *program, const struct packet_cursor *cursor,
		    char *why, size_t why_size);
void bpfjit_run(void *variant, uint64_t iterations);

void *kernel_jit_create(const struct bpf_program *program, const struct packet_cursor *cursor,
			char *why, size_t why_size);
void kernel_jit_run(void *variant, uint64_t iterations);
/* ns per BPF_PROG_TEST_RUN repetition of a program that only returns, on the
 * cursor's packets (its verdicts are overwritten): the test-run loop's own
 * cost, included in kernel-jit's figures. Negative when the kernel JIT is
 * unavailable. */
double kernel_jit_empty_program_ns(const struct packet_cursor *cursor);

#endif /* RESPEC_BENCH_BPF_PEERS_H */
