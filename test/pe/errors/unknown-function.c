// Asking for a function the spec does not mark is an error, and leaves no
// output behind (an older output file is removed, too).
//
// RUN: echo stale > %t.o
// RUN: %not %respec specialize %s --function no_such -o %t.o 2>&1 | %FileCheck %s
// RUN: test ! -e %t.o
// CHECK: error: unknown function 'no_such': not a RESPEC_SPECIALIZE function of the spec
#include <respec/respec.h>
RESPEC_SPECIALIZE int one(int x) { return x + 1; }
