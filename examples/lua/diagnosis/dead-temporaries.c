/*
 * dead-temporaries.c — a temporary that is only conditionally assigned inside one
 * case of an interpreter's switch is carried around the interpreter loop in SSA
 * form (mem2reg cannot see that its old value is never used), and respec keys the
 * loop's iterations on it: undefined before the first ADDF/MULF/SUBF ran, dynamic
 * after. Every combination of "which of these cases ran before" gets its own copy
 * of each interpreted instruction.
 *
 * Lua's arithmetic has this shape: op_arithf_aux declares `lua_Number n1; lua_Number
 * n2;` and assigns them in `tonumberns(v1, n1) && tonumberns(v2, n2)`. In the
 * diagnosis build of the Lua case study, the largest group of iteration keys at one
 * interpreted instruction of checksum (75 keys) differs in five such temporaries
 * and `trap` only; checksum's 38 instructions become 1,064 unrolled iterations and
 * 140 KB of code.
 *
 *   respec specialize dead-temporaries.c -I include -o out.o
 *
 * prints `145 generic instructions -> 285 specialized; ... 98 loop iterations
 * unrolled` for this 8-instruction program (three conditionally skipped float
 * instructions: up to 2^3 variants of the loop body); with -DINITIALIZED (the
 * temporaries initialized where they are declared, so no old value is carried
 * around the loop): `136 generic instructions -> 130 specialized; ... 21 loop
 * iterations unrolled`.
 *
 * Fixed in session 6 for undefined values (test/pe/undefined-temporaries.c): an
 * undefined value is the bottom of the lattice, written as dynamic in iteration
 * keys and met as the other value, so this file now unrolls exactly like the
 * -DINITIALIZED build (21 iterations, 130 instructions). Still open: a dead
 * temporary that holds a stale *static* value (Lua's collatz: `n2` left at 2.0
 * by a previous `x % 2`) still keys iterations; that needs liveness of phis
 * whose every use follows a reassignment.
 */
#include <respec/respec.h>

#ifdef INITIALIZED
#define TEMPORARY(n) double n = 0
#else
#define TEMPORARY(n) double n
#endif

struct reg {
	int isfloat;
	double f;
	long i;
};
enum op { JZ, ADDF, MULF, SUBF, JNZ, RET };
struct insn {
	unsigned char op, a;
	signed char target;
};

/* Lua's tonumberns, reduced: assigns n only for a float. */
#define TONUM(r, n) ((r)->isfloat ? ((n) = (r)->f, 1) : 0)

static double run(struct reg *regs, const struct insn *prog)
{
	for (const struct insn *pc = prog;; pc++) {
		const struct insn i = *pc;
		switch (i.op) {
		case JZ:
			if (regs[i.a].i == 0)
				pc = prog + i.target - 1;
			break;
		case ADDF: {
			TEMPORARY(n1);
			if (TONUM(&regs[i.a], n1))
				regs[i.a].f = n1 + 1.0;
			break;
		}
		case MULF: {
			TEMPORARY(n2);
			if (TONUM(&regs[i.a], n2))
				regs[i.a].f = n2 * 2.0;
			break;
		}
		case SUBF: {
			TEMPORARY(n3);
			if (TONUM(&regs[i.a], n3))
				regs[i.a].f = n3 - 3.0;
			break;
		}
		case JNZ: /* the interpreted loop: a run-time trip count */
			if (regs[i.a].i-- > 0)
				pc = prog + i.target - 1;
			break;
		case RET:
			return regs[i.a].f;
		}
	}
}

/* r1 is transformed by ADDF, MULF and SUBF, each skipped when its flag register
 * (r0, r2, r3) is zero, r4 times. */
static const struct insn program[] = {
	{ JZ, 0, 2 }, { ADDF, 1, 0 }, { JZ, 2, 4 }, { MULF, 1, 0 },
	{ JZ, 3, 6 }, { SUBF, 1, 0 }, { JNZ, 4, 0 }, { RET, 1, 0 },
};

RESPEC_SPECIALIZE double transform(struct reg *regs)
{
	return run(regs, program);
}
