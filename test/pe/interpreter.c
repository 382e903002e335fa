// A bytecode interpreter written as for (;;) switch (pc->op) over a static
// program is unrolled per program counter, with no change to its source: no
// switch and no load of the program remain, only the operations on dynamic data.
// A conditional jump on dynamic data keeps both continuations.
//
// RUN: %respec specialize %s -O1 --emit-llvm -o - -q | %FileCheck %s
#include <respec/respec.h>

enum { ADD, MULK, JNEG, RET };
struct insn { int op, k; };

static int interpret(const struct insn *pc, int acc, int x) {
  const struct insn *prog = pc;
  for (;;) {
    switch (pc->op) {
    case ADD: acc += x; break;
    case MULK: acc *= pc->k; break;
    case JNEG:
      if (acc < 0) { pc = prog + pc->k; continue; }
      break;
    case RET: return acc + pc->k;
    }
    pc++;
  }
}

static const struct insn program[] = {
  {ADD, 0}, {MULK, 3}, {JNEG, 5}, {ADD, 0}, {RET, 100}, {RET, -100},
};

// CHECK-LABEL: define {{.*}} @run(i32 {{.*}}%acc, i32 {{.*}}%x)
// CHECK-NOT: switch
// CHECK-NOT: @program
// CHECK: add nsw i32 %x, %acc
// CHECK: mul nsw i32 {{.*}}, 3
// CHECK: icmp slt i32
// CHECK-DAG: , 100
// CHECK-DAG: i32 -100
// CHECK: ret i32
RESPEC_SPECIALIZE int run(int acc, int x) { return interpret(program, acc, x); }
