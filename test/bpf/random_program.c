/*
 * random_program.c — the random cBPF program and packet generator (see
 * random_program.h for what it generates and what it leaves out, and why).
 */
#include "random_program.h"

#include <string.h>

static uint64_t pick(struct diff_rng *rng, const uint64_t *choices, size_t n)
{
	return choices[diff_rng_below(rng, n)];
}
#define PICK(rng, array) pick(rng, array, sizeof(array) / sizeof(array)[0])

/* A load offset: mostly within the first headers, sometimes just past common
 * packet lengths, sometimes where offset + size or X + offset overflows. */
static uint32_t random_offset(struct diff_rng *rng)
{
	static const uint64_t extremes[] = { 0xffffffff, 0xfffffffe, 0xfffffffd, 0xfffffffc,
					     0x80000000, 0x7fffffff, 0xffff, 0x10000 };
	switch (diff_rng_below(rng, 10)) {
	case 0:
		return (uint32_t)(64 + diff_rng_below(rng, 1500));
	case 1:
		return (uint32_t)PICK(rng, extremes);
	case 2:
		return (uint32_t)diff_rng_next(rng);
	default:
		return (uint32_t)diff_rng_below(rng, 64);
	}
}

/* A constant to compare or compute with: protocol values, edge cases, anything. */
static uint32_t random_constant(struct diff_rng *rng)
{
	static const uint64_t protocol[] = { 0x0800, 0x86dd, 0x0806, 6, 17, 1, 80, 53, 0x45,
					     0x1fff, 0xff, 0xf, 14, 20 };
	switch (diff_rng_below(rng, 3)) {
	case 0:
		return (uint32_t)PICK(rng, protocol);
	case 1:
		return (uint32_t)diff_rng_below(rng, 8);
	default:
		return (uint32_t)diff_rng_int32(rng);
	}
}

static struct bpf_insn random_return(struct diff_rng *rng)
{
	static const uint64_t verdicts[] = { 0, 0, 0, 1, 0xffffffff, 262144, 96 };
	if (diff_rng_one_in(rng, 4))
		return (struct bpf_insn)BPF_STMT(BPF_RET | BPF_A, 0);
	uint32_t k = diff_rng_one_in(rng, 8) ? (uint32_t)diff_rng_next(rng)
					     : (uint32_t)PICK(rng, verdicts);
	return (struct bpf_insn)BPF_STMT(BPF_RET | BPF_K, k);
}

static struct bpf_insn random_alu(struct diff_rng *rng)
{
	static const uint64_t ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD, BPF_AND,
					BPF_OR, BPF_XOR, BPF_LSH, BPF_RSH, BPF_NEG };
	unsigned op = (unsigned)PICK(rng, ops);
	if (op == BPF_NEG)
		return (struct bpf_insn)BPF_STMT(BPF_ALU | BPF_NEG, 0);
	if (diff_rng_one_in(rng, 3))
		return (struct bpf_insn)BPF_STMT(BPF_ALU | op | BPF_X, 0);
	uint32_t k = random_constant(rng);
	if (op == BPF_LSH || op == BPF_RSH)
		k = (uint32_t)diff_rng_below(rng, 32);
	if ((op == BPF_DIV || op == BPF_MOD) && k == 0)
		k = 1 + (uint32_t)diff_rng_below(rng, 16);
	return (struct bpf_insn)BPF_STMT(BPF_ALU | op | BPF_K, k);
}

static struct bpf_insn random_packet_load(struct diff_rng *rng)
{
	static const uint64_t sizes[] = { BPF_W, BPF_H, BPF_B };
	unsigned size = (unsigned)PICK(rng, sizes);
	switch (diff_rng_below(rng, 8)) {
	case 0:
	case 1:
		return (struct bpf_insn)BPF_STMT(BPF_LD | size | BPF_IND, random_offset(rng));
	case 2:
		return (struct bpf_insn)BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, random_offset(rng));
	default:
		return (struct bpf_insn)BPF_STMT(BPF_LD | size | BPF_ABS, random_offset(rng));
	}
}

static struct bpf_insn random_register_load(struct diff_rng *rng)
{
	bool x = diff_rng_one_in(rng, 2);
	unsigned class = x ? BPF_LDX : BPF_LD;
	if (diff_rng_one_in(rng, 3))
		return (struct bpf_insn)BPF_STMT(class | BPF_W | BPF_LEN, 0);
	return (struct bpf_insn)BPF_STMT(class | BPF_W | BPF_IMM, random_constant(rng));
}

/* The jump offset to a later instruction: at most `room` (the instructions left
 * after the next one) and 255 for conditional jumps; short jumps preferred. */
static unsigned random_jump(struct diff_rng *rng, unsigned room, unsigned limit)
{
	unsigned most = room < limit ? room : limit;
	unsigned near = most < 4 ? most : 4;
	return (unsigned)(diff_rng_one_in(rng, 2) ? diff_rng_below(rng, near + 1)
						  : diff_rng_below(rng, most + 1));
}

/* The scratch words stored on every path so far, per instruction. */
struct scratch_flow {
	bool reached[RANDOM_PROGRAM_MAX];
	uint16_t written[RANDOM_PROGRAM_MAX];
};

static void flow_to(struct scratch_flow *flow, unsigned target, uint16_t written)
{
	if (!flow->reached[target]) {
		flow->reached[target] = true;
		flow->written[target] = written;
	} else {
		flow->written[target] &= written;
	}
}

/* A load from a scratch word every path has written, if there is one. */
static bool random_scratch_load(struct diff_rng *rng, uint16_t written, struct bpf_insn *insn)
{
	if (written == 0)
		return false;
	unsigned k;
	do
		k = (unsigned)diff_rng_below(rng, BPF_MEMWORDS);
	while (!(written & (1u << k)));
	*insn = (struct bpf_insn)BPF_STMT((diff_rng_one_in(rng, 2) ? BPF_LD : BPF_LDX) | BPF_MEM, k);
	return true;
}

unsigned random_program(struct diff_rng *rng, struct bpf_insn *insns, unsigned max)
{
	unsigned length = diff_rng_one_in(rng, 4) ? 1 + (unsigned)diff_rng_below(rng, 8)
						  : 1 + (unsigned)diff_rng_below(rng, max);
	if (length > max)
		length = max;
	struct scratch_flow flow = { 0 };
	flow.reached[0] = true;
	for (unsigned i = 0; i < length; i++) {
		/* Unreachable instructions are generated as if nothing were written. */
		uint16_t written = flow.reached[i] ? flow.written[i] : 0;
		struct bpf_insn *insn = &insns[i];
		if (i == length - 1) {
			*insn = random_return(rng);
			break;
		}
		unsigned room = length - 2 - i; /* instructions after the next one */
		uint64_t kind = diff_rng_below(rng, 100);
		if (kind < 6) {
			*insn = random_return(rng);
			continue; /* no successor */
		}
		if (kind < 24) {
			static const uint64_t conditions[] = { BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET };
			if (diff_rng_one_in(rng, 8)) {
				unsigned k = random_jump(rng, room, room);
				*insn = (struct bpf_insn)BPF_STMT(BPF_JMP | BPF_JA, k);
				flow_to(&flow, i + 1 + k, written);
				continue;
			}
			unsigned op = (unsigned)PICK(rng, conditions);
			bool x = diff_rng_one_in(rng, 3);
			unsigned jt = random_jump(rng, room, 255), jf = random_jump(rng, room, 255);
			*insn = (struct bpf_insn)BPF_JUMP(BPF_JMP | op | (x ? BPF_X : BPF_K),
							  x ? 0 : random_constant(rng), jt, jf);
			flow_to(&flow, i + 1 + jt, written);
			flow_to(&flow, i + 1 + jf, written);
			continue;
		}
		if (kind < 32) {
			unsigned k = (unsigned)diff_rng_below(rng, BPF_MEMWORDS);
			*insn = (struct bpf_insn)BPF_STMT(diff_rng_one_in(rng, 2) ? BPF_ST : BPF_STX, k);
			written |= (uint16_t)(1u << k);
		} else if (kind < 40 && random_scratch_load(rng, written, insn)) {
			/* done */
		} else if (kind < 60) {
			*insn = random_packet_load(rng);
		} else if (kind < 70) {
			*insn = random_register_load(rng);
		} else if (kind < 76) {
			*insn = (struct bpf_insn)BPF_STMT(
				BPF_MISC | (diff_rng_one_in(rng, 2) ? BPF_TAX : BPF_TXA), 0);
		} else {
			*insn = random_alu(rng);
		}
		flow_to(&flow, i + 1, written);
	}
	return length;
}

void random_packet(struct diff_rng *rng, struct random_packet *packet)
{
	static const uint64_t alphabet[] = { 0, 0, 1, 2, 6, 17, 0x08, 0x45, 0x86, 0xdd, 0xff };
	switch (diff_rng_below(rng, 4)) {
	case 0:
		packet->buflen = (u_int)diff_rng_below(rng, 16);
		break;
	case 1:
		packet->buflen = (u_int)diff_rng_below(rng, sizeof packet->bytes + 1);
		break;
	default:
		packet->buflen = 14 + (u_int)diff_rng_below(rng, 70);
	}
	switch (diff_rng_below(rng, 3)) {
	case 0:
		diff_rng_fill(rng, packet->bytes, packet->buflen);
		break;
	case 1:
		for (u_int i = 0; i < packet->buflen; i++)
			packet->bytes[i] = (u_char)PICK(rng, alphabet);
		break;
	default: /* Ethernet + IPv4-ish: header lengths and ethertypes programs test */
		diff_rng_fill(rng, packet->bytes, packet->buflen);
		if (packet->buflen > 14) {
			memcpy(packet->bytes + 12, diff_rng_one_in(rng, 4) ? "\x86\xdd" : "\x08\x00",
			       2);
			packet->bytes[14] = (u_char)(0x40 | (5 + diff_rng_below(rng, 11)));
		}
	}
	switch (diff_rng_below(rng, 5)) {
	case 0:
		packet->wirelen = packet->buflen + (u_int)diff_rng_below(rng, 1500);
		break;
	case 1:
		packet->wirelen = packet->buflen +
				  (u_int)diff_rng_below(rng, (uint64_t)UINT32_MAX - packet->buflen + 1);
		break;
	default:
		packet->wirelen = packet->buflen;
	}
}
