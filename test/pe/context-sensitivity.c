// Context sensitivity: each call site of the same function is specialized for
// its own static arguments.
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - -q | %FileCheck %s
#include <respec/respec.h>

static int scale(int x, int k) {
  if (k == 0)
    return 0;
  if (k == 1)
    return x;
  return x * k;
}

// CHECK-LABEL: define {{.*}} @three_sites(i32 {{.*}}%x)
// CHECK-NOT: icmp
// CHECK-NOT: br i1
// CHECK: mul nsw i32 %x, 5
// CHECK-NOT: call {{.*}}@
// CHECK: ret i32
RESPEC_SPECIALIZE int three_sites(int x) { return scale(x, 1) + scale(x, 0) + scale(x, 5); }
