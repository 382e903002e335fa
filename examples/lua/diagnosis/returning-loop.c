/*
 * returning-loop.c — an interpreter whose return instruction may go on running the
 * caller's frame in the same C frame (`goto returning`, as Lua's luaV_execute does
 * for a Lua function that returns to a Lua caller) keeps no static program
 * counter at all: the loop that `goto returning` closes is generalized to a
 * residual loop, and its first entry, where the frame's pc is known, meets the
 * re-entry where it is not.
 *
 *   respec specialize returning-loop.c -I include --emit-llvm -o -
 *
 * prints `note: loop under dynamic control (its test depends on run-time data
 * while its static state keeps changing): loop kept residual` at `returning:`, and
 * `warning: assumption had no effect`; the residual code has the whole `switch`
 * on the opcode. Replace `f = f->previous; goto returning;` by `return 0;` and the
 * dispatch is evaluated away: no switch, no load of the program; the interpreted
 * loop (JNZ) is a residual loop (which LLVM's cleanup then even computes in
 * closed form).
 *
 * What would be needed: polyvariance at that header — a first iteration keyed on
 * its static frame (program counter known) and a second, generic one for frames
 * reached by returning — instead of one generalized loop for both. Whether a
 * frame is fresh (`f->fresh`, Lua's `ci->callstatus & CIST_FRESH`) cannot be
 * stated instead: in Lua every store of a register's type tag is an unsigned char
 * store of unknown target, which may alias the frame, so such a fact ends at the
 * first register write (correctly, under C's aliasing rules).
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
