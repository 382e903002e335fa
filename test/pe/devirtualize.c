// Indirect calls through a function pointer loaded from static memory (an ops
// table reached through a stack object) become direct and are unfolded.
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - -q | %FileCheck %s
#include <respec/respec.h>

struct stream;
struct ops {
  int (*put)(struct stream *, int);
};
struct stream {
  const struct ops *ops;
  int count;
};
static int put_twice(struct stream *s, int v) {
  s->count += 2;
  return v * 2;
}
static const struct ops twice_ops = {put_twice};

// The table is copied into the stack object; its cells stay static, so the
// callee is known, unfolded, and s.count += 2 is evaluated to a store of 2.
// CHECK-LABEL: define {{.*}} @encode(i32 {{.*}}%v)
// CHECK: call void @llvm.memcpy
// CHECK-NOT: call {{.*}}@
// CHECK: store i32 2,
// CHECK-NEXT: mul nsw i32 %v, 2
// CHECK-NOT: call {{.*}}@
// CHECK: ret i32
RESPEC_SPECIALIZE int encode(int v) {
  struct stream s = {&twice_ops, 0};
  return s.ops->put(&s, v);
}
