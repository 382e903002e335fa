/*
 * interp_spec.c — spec of the interpreter example: one bytecode program, fixed
 * here as const data, run by the generic interpreter (vm.c) over dynamic input.
 *
 * The program is a checksum over INTERP_PROGRAM_WORDS input words. Its loop counter
 * starts at an immediate and is compared with a bound loaded from an immediate, so
 * the trip count is static and the loop can be unrolled; inside, the path taken
 * depends on each input word (sign and parity), so those branches must stay. The
 * input loads keep their bounds checks because n is dynamic.
 *
 * The second program runs the same loop body over input[1..bound-1], where the
 * bound is input[0]: its trip count is run-time data, so the interpreted loop
 * stays a loop (the interpreter's loop is keyed on its program counter: one
 * residual block per instruction, the dispatch gone; see pe/Generalization.cpp).
 */
#include "interp_spec.h"

#include <respec/respec.h>

/* Instruction indices of the jump targets below. */
enum { LOOP = 6, NEGATIVE = 11, PARITY = 16, NEXT = 20 };

static const struct insn checksum_program[] = {
	{ VM_LOADI, 0, 0, 0 },                    /* r0 = i = 0 */
	{ VM_LOADI, 1, 0, INTERP_PROGRAM_WORDS }, /* r1 = bound */
	{ VM_LOADI, 2, 0, (int32_t)0x811c9dc5 },  /* r2 = h = FNV offset basis */
	{ VM_LOADI, 3, 0, 0x01000193 },           /* r3 = FNV prime */
	{ VM_LOADI, 6, 0, 0 },                    /* r6 = 0 */
	{ VM_LOADI, 7, 0, 1 },                    /* r7 = 1 */
	/* LOOP: */
	{ VM_LOADIN, 4, 0, 0 },     /* r4 = w = input[i] */
	{ VM_JLT, 4, 6, NEGATIVE }, /* if w < 0: goto NEGATIVE */
	{ VM_XOR, 2, 4, 0 },        /* h ^= w */
	{ VM_MUL, 2, 3, 0 },        /* h *= prime */
	{ VM_JMP, 0, 0, PARITY },
	/* NEGATIVE: h = rotl(h - w, 7) */
	{ VM_SUB, 2, 4, 0 },
	{ VM_MOV, 5, 2, 0 },
	{ VM_SHL, 2, 0, 7 },
	{ VM_SHR, 5, 0, 25 },
	{ VM_XOR, 2, 5, 0 },
	/* PARITY: odd words also mix in their position */
	{ VM_MOV, 5, 4, 0 },
	{ VM_AND, 5, 7, 0 },
	{ VM_JEQ, 5, 6, NEXT },
	{ VM_ADD, 2, 0, 0 },
	/* NEXT: */
	{ VM_ADDI, 0, 0, 1 },   /* i++ */
	{ VM_JLT, 0, 1, LOOP }, /* if i < bound: goto LOOP */
	{ VM_RET, 2, 0, 0 },
};

RESPEC_SPECIALIZE int32_t run_fixed_program(const int32_t *input, size_t n)
{
	return vm_run(checksum_program, input, n);
}

/* Instruction indices of the second program's jump targets. */
enum { TEST = 6, BODY = 8, BODY_NEGATIVE = 13, BODY_PARITY = 18, BODY_NEXT = 22 };

static const struct insn bounded_program[] = {
	{ VM_LOADI, 0, 0, 1 },                   /* r0 = i = 1 */
	{ VM_LOADI, 6, 0, 0 },                   /* r6 = 0 */
	{ VM_LOADI, 7, 0, 1 },                   /* r7 = 1 */
	{ VM_LOADIN, 1, 6, 0 },                  /* r1 = bound = input[0] */
	{ VM_LOADI, 2, 0, (int32_t)0x811c9dc5 }, /* r2 = h = FNV offset basis */
	{ VM_LOADI, 3, 0, 0x01000193 },          /* r3 = FNV prime */
	/* TEST: */
	{ VM_JLT, 0, 1, BODY }, /* if i < bound: goto BODY */
	{ VM_RET, 2, 0, 0 },
	/* BODY: the checksum program's loop body */
	{ VM_LOADIN, 4, 0, 0 },          /* r4 = w = input[i] */
	{ VM_JLT, 4, 6, BODY_NEGATIVE }, /* if w < 0: goto BODY_NEGATIVE */
	{ VM_XOR, 2, 4, 0 },             /* h ^= w */
	{ VM_MUL, 2, 3, 0 },             /* h *= prime */
	{ VM_JMP, 0, 0, BODY_PARITY },
	/* BODY_NEGATIVE: h = rotl(h - w, 7) */
	{ VM_SUB, 2, 4, 0 },
	{ VM_MOV, 5, 2, 0 },
	{ VM_SHL, 2, 0, 7 },
	{ VM_SHR, 5, 0, 25 },
	{ VM_XOR, 2, 5, 0 },
	/* BODY_PARITY: odd words also mix in their position */
	{ VM_MOV, 5, 4, 0 },
	{ VM_AND, 5, 7, 0 },
	{ VM_JEQ, 5, 6, BODY_NEXT },
	{ VM_ADD, 2, 0, 0 },
	/* BODY_NEXT: */
	{ VM_ADDI, 0, 0, 1 }, /* i++ */
	{ VM_JMP, 0, 0, TEST },
};

RESPEC_SPECIALIZE int32_t run_bounded_program(const int32_t *input, size_t n)
{
	return vm_run(bounded_program, input, n);
}
