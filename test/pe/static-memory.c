// respec_static_memory() declares a mutable global's contents known and
// unchanging: the program array of an interpreter is read at specialization
// time. Without the declaration the interpreter stays.
//
// RUN: %respec specialize %s -O1 --emit-llvm -o - -q | %FileCheck %s
// RUN: %respec specialize %s -O1 --emit-llvm -o - -q -DNOT_STATIC | %FileCheck --check-prefix=GENERIC %s
#include <respec/respec.h>

struct insn {
  int op, k;
};
struct insn program[] = {{1, 7}, {1, 5}, {0, 0}};

static int run(const struct insn *pc, int x) {
  for (;; pc++)
    switch (pc->op) {
    case 0:
      return x;
    case 1:
      x = x * pc->k + 1;
      break;
    }
}

// CHECK-LABEL: define {{.*}} @run_program(i32 {{.*}}%x)
// CHECK-NOT: load
// CHECK: mul i32 %x, 35
// GENERIC-LABEL: define {{.*}} @run_program(
// GENERIC: load
RESPEC_SPECIALIZE int run_program(int x) {
#ifndef NOT_STATIC
  respec_static_memory(program, sizeof program);
#endif
  return run(program, x);
}
