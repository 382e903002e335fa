// Inline assembly the assembler rejects is an error at the asm statement
// (clang -c would reject it too; respec's compile to IR does not assemble),
// and leaves no output behind.
//
// RUN: echo stale > %t.o
// RUN: %not %respec specialize %s -o %t.o 2>&1 | %FileCheck %s
// RUN: test ! -e %t.o
// CHECK: bad-inline-asm.c:[[@LINE+4]]:{{[0-9]+}}: error: the code generator rejects the specialized code: inline assembly: invalid instruction mnemonic 'bogus_instruction'
#include <respec/respec.h>

static int opaque(int x) {
  __asm__ volatile("bogus_instruction %0" : "+r"(x));
  return x;
}
RESPEC_SPECIALIZE int f(int x) { return opaque(x); }
