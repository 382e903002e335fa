// A source clang rejects: clang's own message (with file:line), then respec's.
//
// RUN: %not %respec specialize %s -o %t.o 2>&1 | %FileCheck %s
// RUN: test ! -e %t.o
// CHECK: clang-rejects.c:[[@LINE+3]]:{{[0-9]+}}: error:
// CHECK: clang-rejects.c: error: clang rejected this file
#include <respec/respec.h>
RESPEC_SPECIALIZE int broken(int x) { return x + ; }
