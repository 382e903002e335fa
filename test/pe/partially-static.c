// Partially-static aggregates: a struct with one static and one dynamic field,
// reached through a pointer in a callee. The static field decides the branch;
// the dynamic one stays.
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - -q | %FileCheck %s
#include <respec/respec.h>

struct header {
  int kind;
  int length;
};
static int wire_size(const struct header *h) {
  if (h->kind == 1)
    return 8 + h->length;
  return 4;
}

// CHECK-LABEL: define {{.*}} @size_of_data(i32 {{.*}}%length)
// CHECK-NOT: icmp
// CHECK-NOT: br i1
// CHECK: add nsw i32 8,
// CHECK: ret i32
RESPEC_SPECIALIZE int size_of_data(int length) {
  struct header h = {1, length};
  return wire_size(&h);
}
