// Flow sensitivity: a memory cell is static after a static store and dynamic
// after a dynamic one, per path; where paths meet with different values it is
// dynamic; a later static store makes it static again.
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - -q | %FileCheck %s
#include <respec/respec.h>

struct cell {
  int mode;
};
static int read_mode(const struct cell *c) { return c->mode; }

// CHECK-LABEL: define {{.*}} @flow(i32 {{.*}}%d, i32 {{.*}}%sel)
// Before the branch, mode is 1: read_mode() is evaluated, no load.
// CHECK-NOT: load
// CHECK: br i1
// After the join, mode is 2 on one path and %d on the other: a residual load.
// CHECK: load i32
// After `c.mode = 3`, static again: the result adds 10 and 300 as constants.
// CHECK-NOT: load
// CHECK: add nsw i32 10,
// CHECK: add nsw i32 {{.*}}, 300
RESPEC_SPECIALIZE int flow(int d, int sel) {
  struct cell c;
  c.mode = 1;
  int a = read_mode(&c) * 10;
  if (sel)
    c.mode = d;
  else
    c.mode = 2;
  int b = read_mode(&c);
  c.mode = 3;
  return a + b + read_mode(&c) * 100;
}
