// respec_assume() states a fact about memory behind a dynamic pointer: the
// operation field of a stream the caller passes in. Dispatch on it folds.
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - -q | %FileCheck %s
#include <respec/respec.h>

enum op { ENCODE, DECODE, FREE };
struct stream {
  enum op op;
  int position;
};
static int code(struct stream *s, int *v) {
  switch (s->op) {
  case ENCODE:
    s->position += 4;
    return *v;
  case DECODE:
    *v = s->position;
    return 0;
  default:
    return -1;
  }
}

// CHECK-LABEL: define {{.*}} @encode_one(ptr {{.*}}%s, ptr {{.*}}%v)
// CHECK-NOT: switch
// CHECK: add nsw i32 {{.*}}, 4
// CHECK-NOT: switch
// CHECK: ret i32
RESPEC_SPECIALIZE int encode_one(struct stream *s, int *v) {
  respec_assume(s->op == ENCODE);
  return code(s, v);
}
