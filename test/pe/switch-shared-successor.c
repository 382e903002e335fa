// A residual switch with several cases to one block, where that block needs a
// phi of a static pointer into a local: every edge from the switch brings the
// same materialized value (the residual function used to fail verification).
// Found by PCRE2's match() with its frames vector local to the spec.
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - -q | %FileCheck %s
#include <respec/respec.h>
int use(char *p);

// CHECK-LABEL: define {{.*}} @f(
// CHECK: switch i32 %x
// CHECK: phi ptr [ %{{[0-9]+}}, %f.sw.default ], [ [[P:%[0-9]+]], %entry ], [ [[P]], %entry ]
RESPEC_SPECIALIZE int f(int x) {
  char buf[16] = {0};
  char *top = buf + 8;
  switch (x) {
  case 10:
    break;
  case 11:
    break;
  default:
    top = buf + 4;
    break;
  }
  return use(top);
}
