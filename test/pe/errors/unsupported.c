// Unsupported constructs: setjmp in the spec function itself is an error;
// setjmp or inline assembly in generic code degrade to residual code (a call
// to the generic function, an opaque asm) and the report says where.
//
// RUN: %not %respec specialize %s --function direct -o %t.o 2>&1 | %FileCheck --check-prefix=ERROR %s
// RUN: %respec specialize %s --function indirect --function with_asm -O0 --emit-llvm -o - 2>%t.err | %FileCheck %s
// RUN: %FileCheck --check-prefix=NOTE %s < %t.err
#include <respec/respec.h>
#include <setjmp.h>

static jmp_buf env;
static int guarded(int x) {
  if (setjmp(env))
    return -1;
  return x * 2;
}
static int cycles(int x) {
  int y;
  __asm__ volatile("mov %1, %0" : "=r"(y) : "r"(x));
  return y + 1;
}

// ERROR: unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot specialize 'direct': calls setjmp
RESPEC_SPECIALIZE int direct(int x) { return setjmp(env) ? 0 : x; }

// CHECK-LABEL: define {{.*}} @indirect(
// CHECK: call i32 @guarded(
// NOTE: unsupported.c:[[@LINE+1]]:{{.*}}note: call to 'guarded' kept residual: calls setjmp (returns twice) at {{.*}}unsupported.c:13
RESPEC_SPECIALIZE int indirect(int x) { return guarded(x); }

// CHECK-LABEL: define {{.*}} @with_asm(
// CHECK: call i32 asm sideeffect
// NOTE: unsupported.c:19:{{.*}}note: inline assembly kept residual
RESPEC_SPECIALIZE int with_asm(int x) { return cycles(x); }
