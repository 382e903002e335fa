// respec explain --json: per function, the conditional branches left residual
// and those left after LLVM's cleanup; per reached line, [line, evaluated
// away, residual, and of those its conditional branches'] (respec profile's
// prediction reads them: profile/ProfileReport.h).
//
// RUN: %respec explain %s --color=never -q --json %t.json > /dev/null
// RUN: %FileCheck %s < %t.json
#include <respec/respec.h>

static int scaled(int kind, int x) {
  if (kind == 2)
    return x * 3;
  if (x > 100)
    return 100;
  return x;
}

// Both tests of `kind` fold; nothing is left to branch on.
RESPEC_SPECIALIZE int tripled(int x) { return scaled(2, x); }
// CHECK: "conditionalBranchesAfter":0,"conditionalBranchesEmitted":0,"function":"tripled"
// CHECK-SAME: "lines":{{\[\[}}[[#@LINE-10]],2,0,1,0],
//
// The test of x stays, one residual branch, which the cleanup makes a select
// (x > 100 ? 100 : x):
RESPEC_SPECIALIZE int clamped(int x) { return scaled(1, x); }
// CHECK: "conditionalBranchesAfter":0,"conditionalBranchesEmitted":1,"function":"clamped"
// CHECK-SAME: "lines":{{\[\[}}[[#@LINE-16]],2,0,1,0],
// CHECK-SAME: {{\[}}[[#@LINE-15]],0,2,0,1]
