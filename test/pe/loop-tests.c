// What counts as a loop's own test. A loop bounded by comparing two static
// pointers into a const array unrolls (the comparison is evaluated). A loop
// whose test is dynamic only in the second half of a short-circuit condition,
// while a static counter keeps changing, is recognized as under dynamic control
// at once: a residual loop, no budget hit.
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - 2>%t.err | %FileCheck %s
// RUN: %FileCheck --check-prefix=NOTE %s < %t.err
#include <respec/respec.h>

static const unsigned char weights[] = {3, 1, 4, 1, 5};

static int weighted_sum(const unsigned char *w, const unsigned char *end, const int *x) {
  int sum = 0;
  while (w < end)
    sum += *w++ * *x++;
  return sum;
}

// CHECK-LABEL: define {{.*}} @dot5(
// CHECK-NOT: icmp
// CHECK-COUNT-5: mul nsw i32
// CHECK-NOT: icmp
// CHECK: ret i32
RESPEC_SPECIALIZE int dot5(const int *x) {
  return weighted_sum(weights, weights + sizeof weights, x);
}

static int copy_until(int *out, const int *in, unsigned n) {
  int status = 0;
  unsigned i;
  for (i = 0; status == 0 && i < n; i++) {
    if (in[i] < 0)
      status = -1;
    out[i] = in[i];
  }
  return status ? -1 : (int)i;
}

// CHECK-LABEL: define {{.*}} @copy(
// CHECK: phi i32
// CHECK: ret i32
// NOTE-NOT: budget
// NOTE: loop-tests.c:32:{{.*}}note: loop under dynamic control
// NOTE-NOT: budget
RESPEC_SPECIALIZE int copy(int *out, const int *in, unsigned n) { return copy_until(out, in, n); }
