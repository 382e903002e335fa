/*
 * peer_dpdk.c — the dpdk-jit peer (see peers.h): DPDK's librte_bpf converts the
 * classic program to eBPF (rte_bpf_convert), loads it and JIT-compiles it; the
 * compiled function takes an rte_mbuf. EAL is initialized once, without huge
 * pages or PCI devices, since only the BPF library is used.
 *
 * DPDK's model has one packet length: loads are bounded by, and `len` reads, the
 * mbuf's pkt_len. Here pkt_len = data_len = the captured length, so verdicts on
 * truncated packets can differ from libpcap's for filters that read `len`; the
 * benchmark then leaves dpdk-jit out of that case and says so.
 */
#include "peers.h"

#include <rte_bpf.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dpdk_variant {
	struct packet_cursor cursor; /* first: see peers.h */
	uint64_t (*filter)(void *mbuf);
	struct rte_mbuf *mbufs; /* one chain per packet, pointing at its bytes */
};

static bool eal_ready(char *why, size_t why_size)
{
	static int state; /* 0 not tried, 1 ready, -1 failed */
	if (state == 0) {
		char *args[] = { "bench-bpf", "--no-huge", "--no-pci", "-m", "64",
				 "--log-level=error", "--no-telemetry", NULL };
		state = rte_eal_init(sizeof args / sizeof args[0] - 1, args) < 0 ? -1 : 1;
	}
	if (state < 0)
		snprintf(why, why_size, "rte_eal_init failed: %s", rte_strerror(rte_errno));
	return state > 0;
}

static struct rte_mbuf *new_mbufs(size_t count)
{
	struct rte_mbuf *mbufs = aligned_alloc(RTE_CACHE_LINE_SIZE, count * sizeof *mbufs);
	if (mbufs == NULL) {
		perror("bench-bpf");
		exit(1);
	}
	memset(mbufs, 0, count * sizeof *mbufs);
	return mbufs;
}

/* Describes the packet's bytes as a chain of segments of at most 64 KiB - 1
 * (an mbuf's data_len is 16 bits; a few tcpdump test packets are longer). */
static void chain_segments(struct rte_mbuf *head, const struct trace_packet *packet)
{
	size_t segments = packet->caplen / UINT16_MAX + 1;
	struct rte_mbuf *rest = segments > 1 ? new_mbufs(segments - 1) : NULL;
	struct rte_mbuf *segment = head;
	for (size_t offset = 0, s = 0; s < segments; s++) {
		size_t length = packet->caplen - offset < UINT16_MAX ? packet->caplen - offset
								      : UINT16_MAX;
		segment->buf_addr = (void *)(packet->data + offset);
		segment->buf_len = (uint16_t)length;
		segment->data_len = (uint16_t)length;
		segment->next = s + 1 < segments ? &rest[s] : NULL;
		offset += length;
		segment = segment->next;
	}
	head->pkt_len = packet->caplen;
	head->nb_segs = (uint16_t)segments;
}

void *dpdk_jit_create(const struct bpf_program *program, const struct packet_cursor *cursor,
		      char *why, size_t why_size)
{
	if (!eal_ready(why, why_size))
		return NULL;
	struct rte_bpf_prm *prm = rte_bpf_convert(program);
	if (prm == NULL) {
		snprintf(why, why_size, "rte_bpf_convert: %s", rte_strerror(rte_errno));
		return NULL;
	}
	struct rte_bpf *bpf = rte_bpf_load(prm);
	rte_free(prm); /* rte_bpf_convert allocates it with rte_malloc */
	struct rte_bpf_jit jit = { 0 };
	if (bpf == NULL || rte_bpf_get_jit(bpf, &jit) != 0 || jit.func == NULL) {
		snprintf(why, why_size, "DPDK cannot JIT-compile the program: %s",
			 rte_strerror(rte_errno));
		if (bpf != NULL)
			rte_bpf_destroy(bpf);
		return NULL;
	}
	struct dpdk_variant *variant = calloc(1, sizeof *variant);
	variant->cursor = *cursor;
	variant->filter = jit.func; /* the rte_bpf stays loaded while the process runs */
	variant->mbufs = new_mbufs(cursor->count);
	for (size_t i = 0; i < cursor->count; i++)
		chain_segments(&variant->mbufs[i], &cursor->packets[i]);
	return variant;
}

void dpdk_jit_run(void *opaque, uint64_t iterations)
{
	struct dpdk_variant *variant = opaque;
	for (uint64_t i = 0; i < iterations; i++) {
		size_t index = packet_cursor_advance(&variant->cursor);
		variant->cursor.verdicts[index] = (u_int)variant->filter(&variant->mbufs[index]);
	}
}
