// A fixed-arity function called through a variadic pointer type with an extra
// argument is unfolded like any direct call: the extra argument is never read.
// Sun RPC does this everywhere: xdr_array calls its element procedure as
// (*elproc)(xdrs, target, LASTUNSIGNED), elproc being `(xdrproc_t) xdr_int`.
// respec used to keep such calls residual, so the element procedure ran
// generically and, its result being dynamic, the loop around it stayed residual.
// A call whose arguments do not match the callee's parameter types stays a call.
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - -q | %FileCheck %s
// RUN: %respec specialize %s -O1 --emit-llvm -o - -q | %FileCheck --check-prefix=CLEAN %s
#include <respec/respec.h>

typedef int (*element_proc)(int *, const int *, ...);

static int increment(int *out, const int *in) {
  *out = *in + 1;
  return 1;
}

static int each(int *out, const int *in, element_proc proc) {
  int ok = 1;
  for (int i = 0; i < 3 && ok; i++)
    ok = (*proc)(out + i, in + i, ~0u);
  return ok;
}

// CHECK-LABEL: define {{.*}} @increment3(
// CHECK-NOT: call {{.*}}@increment
// CHECK: ret i32
// CLEAN-LABEL: define {{.*}} @increment3(
// CLEAN-NOT: call
// CLEAN: ret i32 1
RESPEC_SPECIALIZE int increment3(int *out, const int *in) {
  return each(out, in, (element_proc)increment);
}

typedef long (*wide_proc)(long);

static int narrow(int x) { return x + 1; }

// CHECK-LABEL: define {{.*}} @mismatched(
// CHECK: call {{.*}}@narrow(
RESPEC_SPECIALIZE long mismatched(long x) { return ((wide_proc)narrow)(x); }
