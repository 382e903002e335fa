// A code-growth budget that cannot be met even with every loop and call kept
// residual is an error with a hint.
//
// RUN: %not %respec specialize %s --max-growth 3 -o %t.o 2>&1 | %FileCheck %s
// CHECK: growth-budget.c:{{[0-9]+}}: error: code-growth budget (--max-growth=3) exceeded by 'f' even with every loop and call kept residual; raise it
#include <respec/respec.h>
RESPEC_SPECIALIZE int f(int *p) {
  p[0] = 1;
  p[1] = 2;
  p[2] = 3;
  p[3] = 4;
  return p[4];
}
