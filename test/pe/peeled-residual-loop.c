// A loop kept residual runs its first iteration in the state it is entered
// with (Specializer::residualLoopContext, pe/Generalization.cpp). An
// interpreter whose return instruction goes on running the caller's frame in
// the same C frame (`goto returning`, as Lua's luaV_execute does) re-enters its
// outer loop with a frame it knows nothing about; that loop is generalized, but
// its first iteration still runs the entry frame, whose program is static: the
// dispatch of that program is evaluated away and only frames reached by
// returning run the generic interpreter. Loops inside the peeled iteration are
// their own sites: generalizing the generic copy's dispatch loop leaves the
// peeled one keyed on its program.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O1 --emit-llvm -o %t/spec.ll 2>%t/notes
// RUN: %FileCheck --check-prefix=NOTE %s < %t/notes
// RUN: %respec explain %s --function sum_then_return | %FileCheck --check-prefix=EXPLAIN %s
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %FileCheck --check-prefix=RUNS %s < %t/specialized.out
//
// The outer loop (the re-entry) is kept residual, but the program counter is
// read statically on entry (M, mixed: residual in the generic copy; before
// loops were peeled it was D) and the dispatch of the entry frame's program is
// evaluated away:
// NOTE: peeled-residual-loop.c:{{[0-9]+}}:{{.*}}loop kept residual
// EXPLAIN: {{^ *[0-9]+}} M | {{.*}}pc = f->savedpc;
// EXPLAIN: {{^ *[0-9]+}} M | {{.*}}switch (i.op) {
//
// Both ways out of the first frame were taken, and frames reached by returning
// ran programs of every kind:
// RUNS: fresh returns: {{[1-9][0-9]+}}, returns to a caller: {{[1-9][0-9]+}}
#include <respec/respec.h>
#include <stdint.h>

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

long sum_then_return(struct frame *f);

#ifndef MAIN
/* r0 += r1, r2 times (r2 from the caller), then return r0. */
static const struct insn sum_program[] = {
	{ ADD, 0, 1, 0 },
	{ JNZ, 2, 0, -2 },
	{ RET, 0, 0, 0 },
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

/* Runs sum_program in the frame f, which may return to callers' frames. */
RESPEC_SPECIALIZE long sum_then_return(struct frame *f)
{
	f->savedpc = sum_program;
	return execute(f);
}
#else
#include <stdio.h>

/* Caller programs, resumed after the callee returns: run in the generic copy. */
static const struct insn double_program[] = {
	{ ADD, 1, 1, 0 }, { ADD, 0, 1, 0 }, { RET, 0, 0, 0 },
};
static const struct insn count_program[] = {
	{ ADD, 0, 3, 0 }, { JNZ, 1, 0, -2 }, { ADD, 2, 0, 0 }, { RET, 2, 0, 0 },
};
static const struct insn triple_program[] = {
	{ ADD, 3, 0, 0 }, { ADD, 3, 0, 0 }, { ADD, 3, 0, 0 }, { RET, 3, 0, 0 },
};
static const struct insn *const callers[] = { double_program, count_program, triple_program };

int main(void)
{
	uint32_t x = 2463534242u, digest = 0;
	unsigned fresh = 0, returned = 0;
	for (int round = 0; round < 20000; round++) {
		long regs[3][4];
		struct frame frames[3];
		for (int k = 0; k < 3; k++) {
			for (int r = 0; r < 4; r++) {
				x ^= x << 13, x ^= x >> 17, x ^= x << 5;
				regs[k][r] = (long)(x % 41) - 8; /* JNZ counts stay small */
			}
			frames[k].savedpc = k == 0 ? NULL : callers[(x >> 8) % 3];
			frames[k].regs = regs[k];
			frames[k].previous = k < 2 ? &frames[k + 1] : NULL;
			frames[k].fresh = k == 2 || (x >> 12) % 3 == 0;
		}
		long result = sum_then_return(&frames[0]);
		frames[0].fresh ? fresh++ : returned++;
		digest = digest * 31 + (uint32_t)result;
		for (int k = 0; k < 3; k++)
			for (int r = 0; r < 4; r++)
				digest = digest * 31 + (uint32_t)regs[k][r];
	}
	printf("fresh returns: %u, returns to a caller: %u\ndigest %08x\n", fresh, returned, digest);
	return 0;
}
#endif
