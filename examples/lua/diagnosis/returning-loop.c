/*
 * returning-loop.c — an interpreter whose return instruction may go on running the
 * caller's frame in the same C frame (`goto returning`, as Lua's luaV_execute does
 * for a Lua function that returns to a Lua caller). The loop that `goto
 * returning` closes is under dynamic control and is generalized to a residual
 * loop; before session 6 its first entry, where the frame's pc is known, met the
 * re-entry where it is not, so no program counter stayed static at all:
 *
 *   respec specialize returning-loop.c -I include --emit-llvm -o -
 *
 * printed `note: loop under dynamic control (...): loop kept residual` at
 * `returning:` and `warning: assumption had no effect`, and the residual code
 * had the whole `switch` on the opcode.
 *
 * Fixed in session 6 (test/pe/peeled-residual-loop.c): a loop kept residual runs
 * its first iteration in the state it is entered with (Generalization.cpp,
 * residualLoopContext). The loop at `returning:` is still generalized, but its
 * peeled first iteration runs the entry frame with its program counter known:
 * the output now starts with that program evaluated away (the JNZ loop in closed
 * form, no switch), and only the frames reached by returning run the generic
 * switch, after it. Stating instead that a frame is fresh (`f->fresh`, Lua's
 * `ci->callstatus & CIST_FRESH`) would not have helped: in Lua every store of a
 * register's type tag is an unsigned char store of unknown target, which may
 * alias the frame, so such a fact ends at the first register write (correctly,
 * under C's aliasing rules).
 */
#include <respec/respec.h>

enum op { ADD, JNZ, RET };
struct insn {
	unsigned char op, a, b;
	signed char offset;
};
struct frame {
	const struct insn *savedpc;
	struct frame *previous;
	int fresh;
	long *regs;
};

static long execute(struct frame *f)
{
	const struct insn *pc;
returning:
	pc = f->savedpc;
	for (;;) {
		struct insn i = *pc++;
		switch (i.op) {
		case ADD:
			f->regs[i.a] += f->regs[i.b];
			break;
		case JNZ: /* a loop of the interpreted program: run-time trip count */
			if (f->regs[i.a]-- > 0)
				pc += i.offset;
			break;
		case RET:
			if (f->fresh)
				return f->regs[i.a];
			f = f->previous;
			goto returning;
		}
	}
}

/* r0 += r1, r2 times (r2 from the caller), then return r0. */
static const struct insn program[] = {
	{ ADD, 0, 1, 0 },
	{ JNZ, 2, 0, -2 },
	{ RET, 0, 0, 0 },
};

RESPEC_SPECIALIZE long sum_loop(struct frame *f)
{
	respec_assume(f->savedpc == program);
	return execute(f);
}
