// respec_assume() on a C bool: clang tests a bool as its low bit (`b == 0` is
// `!(trunc b to i1)`), so the fact is that bit of the field, in either
// polarity. `respec profile` writes such facts for the bool fields it sees
// (respec-pcap's `options->list == 0`). Both builds run on the same inputs and
// agree.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O2 --emit-llvm -o %t/spec.ll -q
// RUN: %FileCheck %s < %t/spec.ll
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
#include <respec/respec.h>
#include <stdbool.h>

struct options { int count; bool list, quiet; };

int when_off(const struct options *o, int v);
int when_on(const struct options *o, int v);
int when_not(const struct options *o, int v);

#ifdef MAIN
#include <stdio.h>
int main(void) {
  struct options off = {1, false, true}, on = {2, true, false};
  for (int v = -3; v < 4; v++)
    printf("%d %d %d\n", when_off(&off, v), when_on(&on, v), when_not(&off, v));
  return 0;
}
#else
static int work(const struct options *o, int v) {
  if (o->list)
    return v * 3 + o->count;
  return o->quiet ? v : v + 1;
}
// The list test folds; quiet, not stated, stays.
// CHECK-LABEL: define {{.*}} @when_off(
// CHECK-NOT: mul
// CHECK: ret i32
RESPEC_SPECIALIZE int when_off(const struct options *o, int v) {
  respec_assume(o->list == 0);
  return work(o, v);
}
// CHECK-LABEL: define {{.*}} @when_on(
// CHECK-NOT: br
// CHECK-NOT: select
// CHECK: ret i32
RESPEC_SPECIALIZE int when_on(const struct options *o, int v) {
  respec_assume(o->list);
  return work(o, v);
}
// CHECK-LABEL: define {{.*}} @when_not(
// CHECK-NOT: mul
// CHECK: ret i32
RESPEC_SPECIALIZE int when_not(const struct options *o, int v) {
  respec_assume(!o->list);
  return work(o, v);
}
#endif
