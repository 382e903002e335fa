// A walk over a static table that stops early on a run-time match (Sun RPC's
// xdr_union over its discriminants) ends where the table does: the loop unrolls,
// each entry's handler is called directly, and nothing reads the table at run
// time. Its early exit is a test on run-time data, but the table's end is a test
// on program data in the same iteration (Generalization.cpp, noteLoopTest).
//
// RUN: %respec specialize %s -O1 --emit-llvm -o - -q | %FileCheck %s
//
// CHECK-LABEL: define {{.*}} @run_tagged(
// CHECK-NOT: @choices
// CHECK-NOT: call {{.*}}(
// CHECK: shl nsw i32 %x, 1
// CHECK: sub nsw i32 0, %x
// CHECK: icmp eq i32 %tag, 7
// CHECK: mul nsw i32 %x, %x
// CHECK-NOT: call {{.*}}(
// CHECK: ret i32
#include <respec/respec.h>

typedef int (*handler)(int);
struct choice {
  int tag;
  handler run;
};
static int twice(int x) { return 2 * x; }
static int negate(int x) { return -x; }
static int square(int x) { return x * x; }
struct choice choices[] = {{1, twice}, {2, negate}, {7, square}, {0, 0}};

static int dispatch(const struct choice *c, int tag, int x) {
  for (; c->run != 0; c++)
    if (c->tag == tag)
      return c->run(x);
  return -1;
}

RESPEC_SPECIALIZE int run_tagged(int tag, int x) {
  respec_static_memory(choices, sizeof choices);
  return dispatch(choices, tag, x);
}
