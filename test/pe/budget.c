// The unrolling budget: a static loop longer than --max-unroll stays a residual
// loop, and respec says so. Within the budget it is unrolled completely.
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - | %FileCheck --check-prefix=UNROLLED %s
// RUN: %respec specialize %s -O0 --emit-llvm -o - --max-unroll 16 2>%t.err | %FileCheck --check-prefix=LOOP %s
// RUN: %FileCheck --check-prefix=NOTE %s < %t.err
#include <respec/respec.h>

static void fill(int *out, int n) {
  for (int i = 0; i < n; i++)
    out[i] = i * i;
}

// UNROLLED-LABEL: define {{.*}} @fill_100(
// UNROLLED-NOT: phi
// UNROLLED: store i32 9801,
// LOOP-LABEL: define {{.*}} @fill_100(
// LOOP: phi i32
// NOTE: 1 budget hits
// NOTE-NEXT: budget.c:10:{{.*}}note: unrolling budget (--max-unroll=16) hit: loop kept residual
RESPEC_SPECIALIZE void fill_100(int *out) { fill(out, 100); }
