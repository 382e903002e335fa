// A copy of a length known only at run time through a dynamic pointer writes
// from its destination on, to an end the specializer does not know: the
// values stored behind that pointer at or after the destination are forgotten
// (pe/MemoryState.cpp, forgetFrom), those before it are kept. (Until session
// 27 the copy forgot nothing behind its own destination: `copy_then_read`
// returned the 5 it had stored, whatever memcpy wrote over it.) Both builds run
// on the same inputs, every length from 0 to 16 bytes, and agree.
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
#include <string.h>

int copy_then_read(int *p, const int *q, unsigned long n);
int copy_after(int *p, const int *q, unsigned long n);
int fill_then_read(int *p, int c, unsigned long n);

#ifdef MAIN
#include <stdio.h>
int main(void) {
  static const int source[4] = {11, 12, 13, 14};
  for (unsigned long n = 0; n <= 16; n++) {
    int a[4] = {0}, b[4] = {0}, c[4] = {0};
    printf("%lu: %d %d %d\n", n, copy_then_read(a, source, n), copy_after(b, source, n),
           fill_then_read(c, 0x7f, n));
  }
  return 0;
}
#else
// The value stored at the destination is read back from memory.
// CHECK-LABEL: define {{.*}} @copy_then_read(
// CHECK: store i32 5
// CHECK: call void @llvm.memcpy
// CHECK: [[V:%.*]] = load i32
// CHECK: ret i32 [[V]]
RESPEC_SPECIALIZE int copy_then_read(int *p, const int *q, unsigned long n) {
  p[0] = 5;
  memcpy(p, q, n);
  return p[0];
}

// p[0] lies before the destination: its 7 is still known; p[2] is read back.
// CHECK-LABEL: define {{.*}} @copy_after(
// CHECK: call void @llvm.memcpy
// CHECK: [[V:%.*]] = load i32
// CHECK: add nsw i32 [[V]], 7
RESPEC_SPECIALIZE int copy_after(int *p, const int *q, unsigned long n) {
  p[0] = 7;
  p[2] = 5;
  memcpy(p + 1, q, n);
  return p[0] + p[2];
}

// memset of a run-time length, the same.
// CHECK-LABEL: define {{.*}} @fill_then_read(
// CHECK: call void @llvm.memset
// CHECK: [[V:%.*]] = load i32
// CHECK: ret i32 [[V]]
RESPEC_SPECIALIZE int fill_then_read(int *p, int c, unsigned long n) {
  p[0] = 5;
  memset(p, c, n);
  return p[0];
}
#endif
