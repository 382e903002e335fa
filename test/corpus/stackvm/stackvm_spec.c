/*
 * stackvm_spec.c — spec of the stack machine program: five byte-code programs, fixed
 * here as const data, run by the generic machine (stackvm.c) on dynamic arguments.
 *
 * What each one exercises in the partial evaluator:
 *   poly       straight-line code: dispatch, operand fetches and stack bounds fold;
 *              the argument bounds checks stay (nargs is dynamic).
 *   clamp      forward conditional jumps on dynamic values: both continuations are
 *              specialized, with different static stacks, and meet at HALT.
 *   power      a backward jump whose trip count lives in a local with a static
 *              value: the byte-code loop unrolls.
 *   popcount   a byte-code loop under dynamic control: the machine's loop must be
 *              generalized (its program counter becomes dynamic) and still be right.
 *   underflow  a malformed program: its fault is found statically, after a dynamic
 *              argument check.
 */
#include "stackvm_spec.h"

#include <respec/respec.h>

/* args[0] * args[0] * 3 - args[1] * 5, then xor args[2] and shift right 3. */
static const unsigned char poly_program[] = {
	SV_ARG, 0, SV_DUP, SV_MUL, SV_PUSH, 3, SV_MUL,
	SV_ARG, 1, SV_PUSH, 5, SV_MUL, SV_SUB,
	SV_ARG, 2, SV_XOR, SV_SHR, 3, SV_HALT,
};

/* args[0] clamped to [-10, 100]. */
enum { CLAMP_HIGH = 13, CLAMP_DONE = 22 };
static const unsigned char clamp_program[] = {
	/* 0 */ SV_ARG, 0, SV_DUP, SV_PUSH, (unsigned char)-10, SV_LT, SV_JZ, CLAMP_HIGH,
	/* 8 */ SV_DROP, SV_PUSH, (unsigned char)-10, SV_JMP, CLAMP_DONE,
	/* 13: high */ SV_PUSH, 100, SV_OVER, SV_LT, SV_JZ, CLAMP_DONE, SV_DROP, SV_PUSH, 100,
	/* 22: done */ SV_HALT,
};

/* args[0]**5 + args[1]: a loop of five trips counted down in local 1. */
enum { POWER_LOOP = 8 };
static const unsigned char power_program[] = {
	/* 0 */ SV_PUSH, 1, SV_STORE, 0, SV_PUSH, 5, SV_STORE, 1,
	/* 8: loop */ SV_LOAD, 0, SV_ARG, 0, SV_MUL, SV_STORE, 0,
	/* 15 */ SV_LOAD, 1, SV_PUSH, 1, SV_SUB, SV_DUP, SV_STORE, 1, SV_JNZ, POWER_LOOP,
	/* 25 */ SV_LOAD, 0, SV_ARG, 1, SV_ADD, SV_HALT,
};

/* Set bits of args[0]: x &= x - 1 until x is 0, counting trips in local 1. */
enum { POPCOUNT_LOOP = 4, POPCOUNT_DONE = 26 };
static const unsigned char popcount_program[] = {
	/* 0 */ SV_ARG, 0, SV_STORE, 0,
	/* 4: loop */ SV_LOAD, 0, SV_JZ, POPCOUNT_DONE,
	/* 8 */ SV_LOAD, 0, SV_DUP, SV_PUSH, 1, SV_SUB, SV_AND, SV_STORE, 0,
	/* 17 */ SV_LOAD, 1, SV_PUSH, 1, SV_ADD, SV_STORE, 1, SV_JMP, POPCOUNT_LOOP,
	/* 26: done */ SV_LOAD, 1, SV_HALT,
};

/* SWAP with one element on the stack. */
static const unsigned char underflow_program[] = { SV_ARG, 0, SV_SWAP, SV_HALT };

RESPEC_SPECIALIZE int stackvm_poly(const int32_t *args, size_t nargs, int32_t *result)
{
	return sv_run(poly_program, sizeof poly_program, args, nargs, result);
}

RESPEC_SPECIALIZE int stackvm_clamp(const int32_t *args, size_t nargs, int32_t *result)
{
	return sv_run(clamp_program, sizeof clamp_program, args, nargs, result);
}

RESPEC_SPECIALIZE int stackvm_power(const int32_t *args, size_t nargs, int32_t *result)
{
	return sv_run(power_program, sizeof power_program, args, nargs, result);
}

RESPEC_SPECIALIZE int stackvm_popcount(const int32_t *args, size_t nargs, int32_t *result)
{
	return sv_run(popcount_program, sizeof popcount_program, args, nargs, result);
}

RESPEC_SPECIALIZE int stackvm_underflow(const int32_t *args, size_t nargs, int32_t *result)
{
	return sv_run(underflow_program, sizeof underflow_program, args, nargs, result);
}
