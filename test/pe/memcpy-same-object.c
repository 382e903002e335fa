// A copy between two places of one object carries the static cells, read
// before the write, so an overlapping memmove is right too. Found by PCRE2's
// match(), which makes each backtracking frame by copying the tail of the
// current one within its frames vector.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O1 --emit-llvm -o - -q | %FileCheck %s
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
#include <respec/respec.h>
#include <string.h>

struct frame { const char *pc; int recurse; int depth; };
int next_frame(int dynamic);
int shifted(int dynamic);

#ifdef MAIN
#include <stdio.h>
int main(void) {
  for (int d = -3; d <= 3; d++)
    printf("%d %d\n", next_frame(d), shifted(d));
  return 0;
}
#else
// CHECK-LABEL: define {{.*}} @next_frame(
// CHECK-NEXT: entry:
// CHECK-NEXT: ret i32 %dynamic
RESPEC_SPECIALIZE int next_frame(int dynamic) {
  struct frame frames[2];
  frames[0].recurse = -1;
  frames[0].depth = 0;
  memcpy(&frames[1].recurse, &frames[0].recurse, 2 * sizeof(int));
  if (frames[1].recurse != -1)
    return dynamic + 1;
  return dynamic + frames[1].depth;
}

// An overlapping move one int to the right: {1, 2, 3, 4} -> {1, 1, 2, 3}.
// CHECK-LABEL: define {{.*}} @shifted(
// CHECK: ret i32
RESPEC_SPECIALIZE int shifted(int dynamic) {
  int a[4] = {1, 2, 3, dynamic};
  memmove(&a[1], &a[0], 3 * sizeof(int));
  return a[0] * 1000 + a[1] * 100 + a[2] * 10 + a[3];
}
#endif
