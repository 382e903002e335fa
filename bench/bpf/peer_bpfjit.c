/*
 * peer_bpfjit.c — the bpfjit peer (see peers.h): FreeBSD's cBPF JIT for amd64,
 * bpf_jit_machdep.c from the crate bpfjit 0.1.1 (crates.io), which CMake fetches
 * with cargo into the build tree and compiles into bench-bpf. Its compiled
 * filters have the interpreter's signature and semantics (wire length and
 * captured length apart), so it runs every case.
 */
#include "peers.h"

#include <pcap/bpf.h>
#include <stdio.h>
#include <stdlib.h>

typedef u_int (*bpfjit_filter)(u_char *packet, u_int wirelen, u_int buflen);

/* From the crate's bpf_jit_machdep.c (its header is the kernel's net/bpf.h,
 * whose struct bpf_insn has the same layout as libpcap's). */
bpfjit_filter bpf_jit_compile(struct bpf_insn *program, u_int ninsns, size_t *size);

struct bpfjit_variant {
	struct packet_cursor cursor; /* first: see peers.h */
	bpfjit_filter filter;
};

void *bpfjit_create(const struct bpf_program *program, const struct packet_cursor *cursor,
		    char *why, size_t why_size)
{
	size_t size = 0;
	bpfjit_filter filter = bpf_jit_compile(program->bf_insns, program->bf_len, &size);
	if (filter == NULL) {
		snprintf(why, why_size, "bpf_jit_compile cannot compile the program");
		return NULL;
	}
	struct bpfjit_variant *variant = malloc(sizeof *variant);
	variant->cursor = *cursor;
	variant->filter = filter;
	return variant;
}

void bpfjit_run(void *opaque, uint64_t iterations)
{
	struct bpfjit_variant *variant = opaque;
	for (uint64_t i = 0; i < iterations; i++) {
		size_t index = packet_cursor_advance(&variant->cursor);
		const struct trace_packet *packet = &variant->cursor.packets[index];
		variant->cursor.verdicts[index] =
			variant->filter((u_char *)packet->data, packet->wirelen, packet->caplen);
	}
}
