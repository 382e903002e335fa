// Return sensitivity: a callee whose body must stay (its control depends on
// dynamic data) still has a static result when every return yields the same
// static value; the caller's test of that result is evaluated away.
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - -q | %FileCheck %s
#include <respec/respec.h>

static int store_status(int *out, int n) {
  if (n > 10) {
    *out = 1;
    return 1;
  }
  *out = 2;
  return 1;
}

// CHECK-LABEL: define {{.*}} @checked(ptr {{.*}}%out, i32 {{.*}}%n)
// CHECK: icmp sgt i32 %n, 10
// CHECK-DAG: store i32 1, ptr %out
// CHECK-DAG: store i32 2, ptr %out
// CHECK: ret i32 42
// CHECK-NOT: ret i32 7
RESPEC_SPECIALIZE int checked(int *out, int n) {
  int ok = store_status(out, n);
  return ok ? 42 : 7;
}
