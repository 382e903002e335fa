// Notes name a file the user can open from where respec ran: relative to the
// current directory when the file is under it, absolute otherwise; not the
// path relative to a directory clang happened to share a prefix with.
//
// RUN: rm -rf %t && mkdir -p %t/run/src %t/elsewhere && cp %s %t/run/src/notes.c
// RUN: cd %t/run && %respec specialize src/notes.c -o %t/x.o 2> %t/under.err
// RUN: %FileCheck --check-prefix=UNDER %s < %t/under.err
// RUN: cd %t/elsewhere && %respec specialize %t/run/src/notes.c -o %t/x.o 2> %t/outside.err
// RUN: %FileCheck --check-prefix=OUTSIDE %s < %t/outside.err
// RUN: sed -n 's/:[0-9]*:[0-9]*: note:.*//p' %t/outside.err > %t/outside.paths
// RUN: %FileCheck --check-prefix=PATHS %s < %t/outside.paths
// RUN: xargs ls < %t/outside.paths
//
// UNDER: {{^}}src/notes.c:[[@LINE+7]]:{{[0-9]+}}: note: inline assembly kept residual
// OUTSIDE: {{^}}/{{.+}}/run/src/notes.c:[[@LINE+6]]:{{[0-9]+}}: note: inline assembly kept residual
// PATHS: {{^}}/{{.+}}/run/src/notes.c{{$}}
#include <respec/respec.h>

static int opaque(int x) {
  int y;
  __asm__ volatile("mov %1, %0"
                   : "=r"(y)
                   : "r"(x));
  return y;
}
RESPEC_SPECIALIZE int f(int x) { return opaque(x) + 1; }
