/*
 * jit_spec.c — the spec the run-time specialization tests embed: the example
 * bytecode interpreter run on a program known only at run time, and a function
 * with a plain integer parameter to bind statically.
 */
#include "vm.h"

#include <respec/respec.h>

#include <stdlib.h>

RESPEC_SPECIALIZE int32_t run_program(const struct insn *program, const int32_t *input,
				      size_t n)
{
	return vm_run(program, input, n);
}

RESPEC_SPECIALIZE int32_t affine(int32_t x, int32_t factor, int32_t offset)
{
	return x * factor + offset;
}

/* What specialized code reaches besides its own body: a mutable global it must
 * share with the program, constant data, generic functions it still calls
 * (chosen by a dynamic index, so the calls stay residual), a C library call. */
int32_t jit_calls_counted;
static const int32_t jit_weights[4] = {3, -5, 7, 11};

static int32_t jit_twice(int32_t x)
{
	return 2 * x;
}

static int32_t jit_negate(int32_t x)
{
	return -x;
}

static int32_t (*const jit_operations[2])(int32_t) = {jit_twice, jit_negate};

RESPEC_SPECIALIZE int32_t weigh(int32_t x, int32_t which, int32_t step)
{
	jit_calls_counted += step;
	return jit_operations[which & 1](x) * jit_weights[(unsigned)x % 4] + abs(x);
}

/* File-static mutable state: specialized code shares the program's own
 * (found through its symbol table). */
static int32_t jit_hidden_total;

RESPEC_SPECIALIZE int32_t accumulate(int32_t x, int32_t scale)
{
	jit_hidden_total += x * scale;
	return jit_hidden_total;
}

/* Inline assembly in reached code stays residual and must be assembled. */
static int32_t rotate_left(int32_t x, int32_t by)
{
	__asm__("roll %%cl, %0" : "+r"(x) : "c"(by));
	return x;
}

RESPEC_SPECIALIZE int32_t rotate(int32_t x, int32_t by)
{
	return rotate_left(x, by);
}

/* Recursion that repeats its static pattern: at run time the pattern is host
 * memory, and the recursive calls go to variants specialized for each position
 * in it ('*' any run, '?' one character, others themselves). */
static int jit_match(const char *p, const char *s)
{
	if (*p == 0)
		return *s == 0;
	if (*p == '*')
		return jit_match(p + 1, s) || (*s && jit_match(p, s + 1));
	if (*s && (*p == '?' || *p == *s))
		return jit_match(p + 1, s + 1);
	return 0;
}

RESPEC_SPECIALIZE int glob_match(const char *pattern, const char *s)
{
	return jit_match(pattern, s);
}
