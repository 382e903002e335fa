// Inline assembly in reached code stays (an opaque call) and is assembled into
// the object: the program linked against it computes what the generic build
// computes. (The code generator needs the target's assembly parser for it.)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %FileCheck %s < %t/specialized.out
// CHECK: 3 45
#include <respec/respec.h>

#ifdef MAIN
#include <stdio.h>
int rotate_sum(int x);
int main(void) {
  for (int x = 3; x < 1000; x += 77)
    printf("%d %d\n", x, rotate_sum(x));
  return 0;
}
#else
static const int amounts[] = {1, 2, 0, 3};
static int rotate_left(int x, int by) {
  __asm__("roll %%cl, %0" : "+r"(x) : "c"(by));
  return x;
}
static int rotate_all(const int *by, int n, int x) {
  int sum = 0;
  for (int i = 0; i < n; i++)
    sum += rotate_left(x, by[i]);
  return sum;
}
RESPEC_SPECIALIZE int rotate_sum(int x) { return rotate_all(amounts, 4, x); }
#endif
