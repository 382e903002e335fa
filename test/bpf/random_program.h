/*
 * random_program.h — random valid cBPF programs and random packets for them, for
 * the random-program suite (random_cbpf.c): the build-time spec of random
 * programs (gen_random_spec.c) and the run-time suite draw from this one
 * generator.
 *
 * Every program passes libpcap's bpf_validate() and uses only instructions
 * libpcap's interpreter implements: loads of every width and mode (absolute,
 * indexed, MSH, length, immediate, scratch memory), stores, all ALU operations
 * with constant and register operands, every jump kind, returns of constants
 * and of A. Offsets favour the first bytes of a packet but include ones just
 * past typical lengths and ones near 2^32, where the interpreter's bounds checks
 * must not overflow.
 *
 * Two things bpf_validate accepts are left out on purpose, because libpcap's
 * interpreter gives them no defined meaning:
 *   - reading a scratch word no path has written (the interpreter reads an
 *     uninitialized stack array): a load from M[k] is generated only where every
 *     path to it has stored M[k];
 *   - shifting by a constant of 32 or more (`A <<= k` in C: undefined
 *     behaviour); shifts by X are checked at run time and may be any amount.
 * Jumps go forward (bpf_validate admits backward `ja` for libpcap's protochain
 * code; random ones would loop forever; the suite's protochain filters cover
 * them).
 */
#ifndef RESPEC_BPF_RANDOM_PROGRAM_H
#define RESPEC_BPF_RANDOM_PROGRAM_H

#include "diffcheck.h"

#include <sys/types.h> /* before pcap/bpf.h, which uses u_int */

#include <pcap/bpf.h>

#define RANDOM_PROGRAM_MAX 64

/* Writes a program of 1..max instructions (max <= RANDOM_PROGRAM_MAX) into insns;
 * returns its length. */
unsigned random_program(struct diff_rng *rng, struct bpf_insn *insns, unsigned max);

struct random_packet {
	u_char bytes[2048];
	u_int buflen;  /* captured bytes: 0..2048 */
	u_int wirelen; /* >= buflen; sometimes far larger */
};

/* A packet for a random program: random or Ethernet/IPv4-shaped bytes, often
 * short (truncated below the offsets programs load from). */
void random_packet(struct diff_rng *rng, struct random_packet *packet);

#endif /* RESPEC_BPF_RANDOM_PROGRAM_H */
