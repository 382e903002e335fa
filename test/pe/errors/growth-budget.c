// A code-growth budget that no loop can satisfy is an error with a hint.
//
// RUN: %not %respec specialize %s --max-growth 3 -o %t.o 2>&1 | %FileCheck %s
// CHECK: error: code-growth budget exceeded (3 residual instructions) with no loop left to keep residual; raise --max-growth
#include <respec/respec.h>
RESPEC_SPECIALIZE int f(int *p) {
  p[0] = 1;
  p[1] = 2;
  p[2] = 3;
  p[3] = 4;
  return p[4];
}
