// Recursion is unfolded while its static arguments change (a static factorial
// evaluates to a constant) and kept as a residual call when an activation
// would repeat its caller's static pattern (recursion on dynamic data).
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - 2>%t.err | %FileCheck %s
// RUN: %FileCheck --check-prefix=NOTE %s < %t.err
#include <respec/respec.h>

static int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }
static int sum(const int *a, int n) { return n == 0 ? 0 : a[0] + sum(a + 1, n - 1); }

// CHECK-LABEL: define {{.*}} @factorial_6()
// CHECK-NEXT: entry:
// CHECK-NEXT: ret i32 720
RESPEC_SPECIALIZE int factorial_6(void) { return factorial(6); }

// CHECK-LABEL: define {{.*}} @sum_n(
// CHECK: call i32 @sum(
// NOTE: recursion.c:10:{{.*}}note: recursive call to 'sum' kept residual
RESPEC_SPECIALIZE int sum_n(const int *a, int n) { return sum(a, n); }
