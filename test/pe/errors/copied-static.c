// Specialized code that uses a static variable the generic code changes cannot
// be linked beside the generic source (it would count on a copy of its own):
// an error at each variable's declaration, function-local statics too, that
// says how to link instead; no output is left behind. explain warns.
//
// RUN: echo stale > %t.o
// RUN: %not %respec specialize %s %S/../Inputs/ids.c -o %t.o 2>&1 | %FileCheck %s
// RUN: test ! -e %t.o
// RUN: %respec explain %s %S/../Inputs/ids.c --color=never 2>&1 >/dev/null | %FileCheck --check-prefix=EXPLAIN %s
//
// CHECK: ids.c:2: error: the specialized code uses 'next', a static variable of {{.*}}ids.c that the generic code may change, and {{.*}}.o would have a copy of its own: link {{.*}}.o instead of {{.*}}ids.c and pass --replaces-sources
// CHECK: ids.c:4: error: the specialized code uses 'counter' in new_ticket(), a static variable of {{.*}}ids.c
// CHECK-NOT: 'scale'
// EXPLAIN: ids.c:2: warning: the specialized code uses 'next'
// EXPLAIN: ids.c:4: warning: the specialized code uses 'counter' in new_ticket()
#include <respec/respec.h>

unsigned new_id(void);
unsigned new_ticket(void);
unsigned scaled(unsigned x);

RESPEC_SPECIALIZE unsigned take(void) { return new_id(); }
RESPEC_SPECIALIZE unsigned take_ticket(void) { return new_ticket(); }
RESPEC_SPECIALIZE unsigned triple(unsigned x) { return scaled(x); }
