// A loop whose trip count is dynamic is kept as a residual loop (its counter
// and every other loop-carried value become dynamic) instead of unrolling
// forever; the report says where. A loop with a static trip count unrolls.
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - 2>%t.err | %FileCheck %s
// RUN: %FileCheck --check-prefix=NOTE %s < %t.err
#include <respec/respec.h>

struct sink {
  int *pos;
  int left;
};
static int put(struct sink *s, int v) {
  if (s->left < 1)
    return 0;
  *s->pos++ = v;
  s->left--;
  return 1;
}
static int put_all(struct sink *s, const int *a, int n) {
  for (int i = 0; i < n; i++)
    if (!put(s, a[i]))
      return 0;
  return 1;
}

// CHECK-LABEL: define {{.*}} @copy_n(
// CHECK: phi i32
// CHECK: icmp slt i32 %{{.*}}, %n
// CHECK: ret i32
// NOTE: dynamic-loop.c:21:{{.*}}note: loop under dynamic control: loop kept residual
RESPEC_SPECIALIZE int copy_n(int *out, const int *a, int n) {
  struct sink s = {out, 64};
  return put_all(&s, a, n);
}

// CHECK-LABEL: define {{.*}} @copy_3(
// CHECK-NOT: icmp
// CHECK-COUNT-3: store i32 %{{[0-9]+}}, ptr %{{[0-9]+}}, align 4
// CHECK-NOT: icmp
// CHECK: ret i32 1
RESPEC_SPECIALIZE int copy_3(int *out, const int *a) {
  struct sink s = {out, 64};
  return put_all(&s, a, 3);
}
