/*
 * peer_kernel.c — the kernel-jit peer (see peers.h): the Linux eBPF JIT running
 * the filter, through bpf(BPF_PROG_LOAD) and BPF_PROG_TEST_RUN (root, or
 * CAP_BPF + CAP_NET_ADMIN).
 *
 * The kernel only loads eBPF, and BPF_PROG_TEST_RUN rejects classic programs, so
 * the classic program is converted here as the kernel converts a classic socket
 * filter: A in R0, X in R7, the scratch words on the stack, packet loads with
 * the legacy LD_ABS/LD_IND instructions (which return 0 from the program when
 * out of bounds, as the interpreter does), 32-bit ALU and JMP32 operations. The
 * program is a tc classifier (BPF_PROG_TYPE_SCHED_CLS), the type whose test run
 * hands it the packet from the Ethernet header on. Libpcap's semantics are kept
 * where the kernel's would differ: division or modulus by X = 0 and shifts by
 * X >= 32 follow bpf_filter.c.
 *
 * A test run has one packet length and needs a whole Ethernet header, so cases
 * with truncated or shorter packets are left out. Each test run repeats the
 * program on one packet; the time includes the test loop's own cost per
 * repetition, which kernel_jit_empty_program_ns measures.
 */
#include "peers.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* <linux/bpf.h>'s eBPF instruction, renamed: libpcap's classic struct bpf_insn is
 * already declared (peers.h). */
#define bpf_insn ebpf_insn
#include <linux/bpf.h>
#undef bpf_insn

enum { REG_A = BPF_REG_0, REG_CTX = BPF_REG_6, REG_X = BPF_REG_7, REG_TMP = BPF_REG_8,
       MAX_EBPF = 8192, MAX_REPEAT = 1000 };

#define INSN(c, dst, src, offset, immediate)                                              \
	((struct ebpf_insn){ .code = (c), .dst_reg = (dst), .src_reg = (src), .off = (offset), \
			    .imm = (int32_t)(immediate) })

struct conversion {
	struct ebpf_insn insns[MAX_EBPF];
	unsigned count;
	/* eBPF jumps whose offset is patched once every classic target is placed */
	struct {
		unsigned at, classic_target;
	} fixups[MAX_EBPF];
	unsigned nfixups;
	unsigned *start; /* eBPF index of each classic instruction */
	bool overflow;
};

static void emit(struct conversion *c, struct ebpf_insn insn)
{
	if (c->count == MAX_EBPF) {
		c->overflow = true;
		return;
	}
	c->insns[c->count++] = insn;
}

/* A jump to a classic instruction, resolved later. */
static void emit_jump(struct conversion *c, struct ebpf_insn insn, unsigned classic_target)
{
	if (c->nfixups < MAX_EBPF && c->count < MAX_EBPF)
		c->fixups[c->nfixups++] = (typeof(c->fixups[0])){ c->count, classic_target };
	emit(c, insn);
}

static int16_t scratch_offset(uint32_t k)
{
	return (int16_t)(-4 * (int)(k + 1));
}

static bool convert_jump(struct conversion *c, const struct bpf_insn *f, unsigned i)
{
	unsigned op = BPF_OP(f->code), taken = i + 1 + f->jt, not_taken = i + 1 + f->jf;
	if (op == BPF_JA) {
		emit_jump(c, INSN(BPF_JMP | BPF_JA, 0, 0, 0, 0), i + 1 + f->k);
		return true;
	}
	bool x = BPF_SRC(f->code) == BPF_X;
	uint8_t src = x ? REG_X : 0;
	uint32_t k = x ? 0 : f->k;
	unsigned inverse = op == BPF_JEQ ? BPF_JNE : op == BPF_JGT ? BPF_JLE
				   : op == BPF_JGE ? BPF_JLT : 0;
	if (f->jf == 0) {
		emit_jump(c, INSN(BPF_JMP32 | op | BPF_SRC(f->code), REG_A, src, 0, k), taken);
	} else if (f->jt == 0 && inverse != 0) {
		emit_jump(c, INSN(BPF_JMP32 | inverse | BPF_SRC(f->code), REG_A, src, 0, k),
			  not_taken);
	} else {
		emit_jump(c, INSN(BPF_JMP32 | op | BPF_SRC(f->code), REG_A, src, 0, k), taken);
		emit_jump(c, INSN(BPF_JMP | BPF_JA, 0, 0, 0, 0), not_taken);
	}
	return true;
}

static bool convert_alu(struct conversion *c, const struct bpf_insn *f)
{
	unsigned op = BPF_OP(f->code);
	if (op == BPF_NEG) {
		emit(c, INSN(BPF_ALU | BPF_NEG, REG_A, 0, 0, 0));
		return true;
	}
	if (BPF_SRC(f->code) == BPF_K) {
		emit(c, INSN(BPF_ALU | op | BPF_K, REG_A, 0, 0, f->k));
		return true;
	}
	if (op == BPF_DIV || op == BPF_MOD) { /* X = 0: the filter rejects */
		emit(c, INSN(BPF_JMP | BPF_JNE | BPF_K, REG_X, 0, 2, 0));
		emit(c, INSN(BPF_ALU | BPF_MOV | BPF_K, REG_A, 0, 0, 0));
		emit(c, INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
	} else if (op == BPF_LSH || op == BPF_RSH) { /* X >= 32: A = 0 */
		emit(c, INSN(BPF_JMP | BPF_JGE | BPF_K, REG_X, 0, 2, 32));
		emit(c, INSN(BPF_ALU | op | BPF_X, REG_A, REG_X, 0, 0));
		emit(c, INSN(BPF_JMP | BPF_JA, 0, 0, 1, 0));
		emit(c, INSN(BPF_ALU | BPF_MOV | BPF_K, REG_A, 0, 0, 0));
		return true;
	}
	emit(c, INSN(BPF_ALU | op | BPF_X, REG_A, REG_X, 0, 0));
	return true;
}

static bool convert_one(struct conversion *c, const struct bpf_insn *f, unsigned i)
{
	unsigned len_offset = offsetof(struct __sk_buff, len);
	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS:
	case BPF_LD | BPF_H | BPF_ABS:
	case BPF_LD | BPF_B | BPF_ABS:
	case BPF_LD | BPF_W | BPF_IND:
	case BPF_LD | BPF_H | BPF_IND:
	case BPF_LD | BPF_B | BPF_IND:
		if (f->k > INT32_MAX) /* negative offsets mean ancillary data to the kernel */
			return false;
		emit(c, INSN(f->code, 0, BPF_MODE(f->code) == BPF_IND ? REG_X : 0, 0, f->k));
		return true;
	case BPF_LDX | BPF_B | BPF_MSH:
		if (f->k > INT32_MAX)
			return false;
		emit(c, INSN(BPF_ALU64 | BPF_MOV | BPF_X, REG_TMP, REG_A, 0, 0));
		emit(c, INSN(BPF_LD | BPF_B | BPF_ABS, 0, 0, 0, f->k));
		emit(c, INSN(BPF_ALU | BPF_AND | BPF_K, REG_A, 0, 0, 0xf));
		emit(c, INSN(BPF_ALU | BPF_LSH | BPF_K, REG_A, 0, 0, 2));
		emit(c, INSN(BPF_ALU | BPF_MOV | BPF_X, REG_X, REG_A, 0, 0));
		emit(c, INSN(BPF_ALU64 | BPF_MOV | BPF_X, REG_A, REG_TMP, 0, 0));
		return true;
	case BPF_LD | BPF_W | BPF_LEN:
		emit(c, INSN(BPF_LDX | BPF_MEM | BPF_W, REG_A, REG_CTX, len_offset, 0));
		return true;
	case BPF_LDX | BPF_W | BPF_LEN:
		emit(c, INSN(BPF_LDX | BPF_MEM | BPF_W, REG_X, REG_CTX, len_offset, 0));
		return true;
	case BPF_LD | BPF_IMM:
		emit(c, INSN(BPF_ALU | BPF_MOV | BPF_K, REG_A, 0, 0, f->k));
		return true;
	case BPF_LDX | BPF_IMM:
		emit(c, INSN(BPF_ALU | BPF_MOV | BPF_K, REG_X, 0, 0, f->k));
		return true;
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
		emit(c, INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_CLASS(f->code) == BPF_LD ? REG_A : REG_X,
			     BPF_REG_10, scratch_offset(f->k), 0));
		return true;
	case BPF_ST:
	case BPF_STX:
		emit(c, INSN(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10,
			     f->code == BPF_ST ? REG_A : REG_X, scratch_offset(f->k), 0));
		return true;
	case BPF_RET | BPF_K:
		emit(c, INSN(BPF_ALU | BPF_MOV | BPF_K, REG_A, 0, 0, f->k));
		emit(c, INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
		return true;
	case BPF_RET | BPF_A:
		emit(c, INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
		return true;
	case BPF_MISC | BPF_TAX:
		emit(c, INSN(BPF_ALU | BPF_MOV | BPF_X, REG_X, REG_A, 0, 0));
		return true;
	case BPF_MISC | BPF_TXA:
		emit(c, INSN(BPF_ALU | BPF_MOV | BPF_X, REG_A, REG_X, 0, 0));
		return true;
	}
	if (BPF_CLASS(f->code) == BPF_JMP)
		return convert_jump(c, f, i);
	if (BPF_CLASS(f->code) == BPF_ALU)
		return convert_alu(c, f);
	return false;
}

/* Converts the classic program; false with the reason in why. */
static bool convert(const struct bpf_program *program, struct conversion *c, char *why,
		    size_t why_size)
{
	c->start = calloc(program->bf_len, sizeof *c->start);
	emit(c, INSN(BPF_ALU64 | BPF_MOV | BPF_X, REG_CTX, BPF_REG_1, 0, 0));
	emit(c, INSN(BPF_ALU | BPF_MOV | BPF_K, REG_A, 0, 0, 0));
	emit(c, INSN(BPF_ALU | BPF_MOV | BPF_K, REG_X, 0, 0, 0));
	/* The verifier refuses reads of stack it has not seen written. */
	bool reads_scratch = false;
	for (unsigned i = 0; i < program->bf_len; i++)
		reads_scratch |= BPF_MODE(program->bf_insns[i].code) == BPF_MEM &&
				 (BPF_CLASS(program->bf_insns[i].code) == BPF_LD ||
				  BPF_CLASS(program->bf_insns[i].code) == BPF_LDX);
	for (unsigned k = 0; reads_scratch && k < BPF_MEMWORDS; k++)
		emit(c, INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, scratch_offset(k), 0));
	for (unsigned i = 0; i < program->bf_len; i++) {
		c->start[i] = c->count;
		if (!convert_one(c, &program->bf_insns[i], i)) {
			snprintf(why, why_size, "instruction %u (code %#x) has no eBPF conversion here",
				 i, program->bf_insns[i].code);
			return false;
		}
	}
	if (c->overflow) {
		snprintf(why, why_size, "the eBPF program is too long");
		return false;
	}
	for (unsigned j = 0; j < c->nfixups; j++) {
		unsigned at = c->fixups[j].at, target = c->fixups[j].classic_target;
		c->insns[at].off = (int16_t)(c->start[target] - (at + 1));
	}
	return true;
}

static long sys_bpf(int command, union bpf_attr *attr)
{
	return syscall(SYS_bpf, command, attr, sizeof *attr);
}

static int load(const struct ebpf_insn *insns, unsigned count, char *why, size_t why_size)
{
	static char log[1 << 16];
	union bpf_attr attr;
	memset(&attr, 0, sizeof attr);
	attr.prog_type = BPF_PROG_TYPE_SCHED_CLS;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = count;
	attr.license = (uintptr_t) "BSD";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof log;
	attr.log_level = 1;
	log[0] = '\0';
	int fd = (int)sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0) {
		size_t length = strlen(log);
		snprintf(why, why_size, "bpf(BPF_PROG_LOAD): %s%s%s", strerror(errno),
			 length ? "; verifier: ..." : "", log + (length > 200 ? length - 200 : 0));
	}
	return fd;
}

struct kernel_variant {
	struct packet_cursor cursor; /* first: see peers.h */
	int fd;
};

static bool packets_fit(const struct packet_cursor *cursor, char *why, size_t why_size)
{
	size_t unfit = 0;
	for (size_t i = 0; i < cursor->count; i++)
		unfit += cursor->packets[i].caplen != cursor->packets[i].wirelen ||
			 cursor->packets[i].caplen < 14;
	if (unfit)
		snprintf(why, why_size, "%zu of the case's packets are truncated or shorter than an "
			 "Ethernet header, which BPF_PROG_TEST_RUN cannot represent", unfit);
	return unfit == 0;
}

static struct kernel_variant *variant_for(const struct ebpf_insn *insns, unsigned count,
					  const struct packet_cursor *cursor, char *why,
					  size_t why_size)
{
	if (!packets_fit(cursor, why, why_size))
		return NULL;
	int fd = load(insns, count, why, why_size);
	if (fd < 0)
		return NULL;
	struct kernel_variant *variant = malloc(sizeof *variant);
	variant->cursor = *cursor;
	variant->fd = fd;
	return variant;
}

void *kernel_jit_create(const struct bpf_program *program, const struct packet_cursor *cursor,
			char *why, size_t why_size)
{
	struct conversion *c = calloc(1, sizeof *c);
	struct kernel_variant *variant = NULL;
	if (convert(program, c, why, why_size))
		variant = variant_for(c->insns, c->count, cursor, why, why_size);
	free(c->start);
	free(c);
	return variant;
}

void kernel_jit_run(void *opaque, uint64_t iterations)
{
	struct kernel_variant *variant = opaque;
	/* Spread the repetitions over the packets; each test run repeats one. */
	uint64_t per_packet = iterations / variant->cursor.count;
	per_packet = per_packet == 0 ? 1 : per_packet > MAX_REPEAT ? MAX_REPEAT : per_packet;
	while (iterations > 0) {
		uint64_t repeat = iterations < per_packet ? iterations : per_packet;
		size_t index = packet_cursor_advance(&variant->cursor);
		const struct trace_packet *packet = &variant->cursor.packets[index];
		union bpf_attr attr;
		memset(&attr, 0, sizeof attr);
		attr.test.prog_fd = (uint32_t)variant->fd;
		attr.test.data_in = (uintptr_t)packet->data;
		attr.test.data_size_in = packet->caplen;
		attr.test.repeat = (uint32_t)repeat;
		if (sys_bpf(BPF_PROG_TEST_RUN, &attr) != 0) {
			perror("kernel-jit: BPF_PROG_TEST_RUN");
			exit(1);
		}
		variant->cursor.verdicts[index] = attr.test.retval;
		iterations -= repeat;
	}
}

double kernel_jit_empty_program_ns(const struct packet_cursor *cursor)
{
	static const struct ebpf_insn empty[] = {
		INSN(BPF_ALU | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	char why[256];
	struct kernel_variant *variant = variant_for(empty, 2, cursor, why, sizeof why);
	if (variant == NULL)
		return -1;
	enum { REPETITIONS = 2000000 };
	double best = 0;
	for (int round = 0; round < 5; round++) {
		struct timespec start, end;
		clock_gettime(CLOCK_MONOTONIC, &start);
		kernel_jit_run(variant, REPETITIONS);
		clock_gettime(CLOCK_MONOTONIC, &end);
		double ns = ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) /
			    REPETITIONS;
		if (round == 0 || ns < best)
			best = ns;
	}
	close(variant->fd);
	free(variant);
	return best;
}
