// Misused declarations of external facts are errors at the declaration, and
// leave no output behind; a declaration that decides nothing is a warning
// (an error with -Werror) that says why.
//
// RUN: echo stale > %t.o
// RUN: %not %respec specialize %s -DUNKNOWN -o %t.o 2>&1 | %FileCheck --check-prefix=UNKNOWN %s
// RUN: test ! -e %t.o
// RUN: %not %respec specialize %s -DVARIABLE -o %t.o 2>&1 | %FileCheck --check-prefix=VARIABLE %s
// RUN: %not %respec specialize %s -DVOID -o %t.o 2>&1 | %FileCheck --check-prefix=VOID %s
// RUN: %not %respec specialize %s -DIMPURE -o %t.o 2>&1 | %FileCheck --check-prefix=IMPURE %s
// RUN: %not %respec specialize %s -DEMPTY -o %t.o 2>&1 | %FileCheck --check-prefix=EMPTY %s
// RUN: %not %respec specialize %s -DARGUMENTS -o %t.o 2>&1 | %FileCheck --check-prefix=ARGUMENTS %s
// RUN: %not %respec specialize %s -DTABLE_ARGUMENTS -o %t.o 2>&1 | %FileCheck --check-prefix=TABLE-ARGUMENTS %s
// RUN: %not %respec specialize %s -DNOT_POINTER -o %t.o 2>&1 | %FileCheck --check-prefix=NOT-POINTER %s
// RUN: %not %respec specialize %s -DDEFINED -o %t.o 2>&1 | %FileCheck --check-prefix=DEFINED %s
// RUN: %not %respec specialize %s -DSIZE -o %t.o 2>&1 | %FileCheck --check-prefix=SIZE %s
// RUN: %not %respec specialize %s -DTWICE -o %t.o 2>&1 | %FileCheck --check-prefix=TWICE %s
// RUN: %not %respec embed %s -DTWICE -o %t.o --name facts 2>&1 | %FileCheck --check-prefix=TWICE %s
// RUN: test ! -e %t.o
// RUN: %respec specialize %s -DUNUSED -o %t.o 2>&1 | %FileCheck --check-prefix=UNUSED %s
// RUN: %not %respec specialize %s -DUNUSED -Werror -o %t.o 2>&1 | %FileCheck --check-prefix=UNUSED %s
// RUN: test ! -e %t.o
// RUN: %respec explain %s -DUNUSED --color=never 2>&1 | %FileCheck --check-prefix=UNUSED %s
#include <respec/respec.h>
#include <stdlib.h>
#include <string.h>

const char **table_loc(void);
const char *config(void);
int counter(void);
const char *with_argument(int which);
static const char *defined(void) { return "x"; }

#ifdef UNKNOWN
// UNKNOWN: external-facts.c:[[@LINE+1]]:{{[0-9]+}}: error: use of undeclared identifier 'no_such_function'
RESPEC_PURE(no_such_function);
#endif
#ifdef VARIABLE
int a_variable;
// VARIABLE: external-facts.c:[[@LINE+1]]: error: RESPEC_PURE: 'a_variable' is not a function
RESPEC_PURE(a_variable);
#endif
#ifdef VOID
// VOID: external-facts.c:[[@LINE+1]]: error: RESPEC_PURE(srand): 'srand' returns nothing: a pure function's only effect is its result
RESPEC_PURE(srand);
#endif
#ifdef IMPURE
// IMPURE: external-facts.c:[[@LINE+1]]: error: RESPEC_PURE(strtol): the C library's 'strtol' is not pure (it writes memory, sets errno, depends on other state or does I/O)
RESPEC_PURE(strtol);
#endif
#ifdef EMPTY
#include <errno.h>
// EMPTY: external-facts.c:[[@LINE+1]]: error: RESPEC_STABLE(__errno_location, 0): the stable memory is empty (a function whose pointer alone is stable, like __errno_location, needs no declaration)
RESPEC_STABLE(__errno_location, 0);
#endif
#ifdef ARGUMENTS
// ARGUMENTS: external-facts.c:[[@LINE+1]]: error: RESPEC_STABLE(with_argument, 8): 'with_argument' takes arguments; a stable function takes none
RESPEC_STABLE(with_argument, 8);
#endif
#ifdef TABLE_ARGUMENTS
// TABLE-ARGUMENTS: external-facts.c:[[@LINE+1]]:{{[0-9]+}}: error: too few arguments to function call
RESPEC_STABLE_TABLE(with_argument, 0, 4);
#endif
#ifdef NOT_POINTER
// NOT-POINTER: external-facts.c:[[@LINE+1]]: error: RESPEC_STABLE(counter, 4): 'counter' does not return a pointer
RESPEC_STABLE(counter, 4);
#endif
#ifdef DEFINED
// DEFINED: external-facts.c:[[@LINE+1]]: error: RESPEC_STABLE(defined, 2): respec has the definition of 'defined' and unfolds it; declare stable memory of the code it is given with respec_static_memory()
RESPEC_STABLE(defined, 2);
#endif
#ifdef SIZE
static const int four_ints[4] = {1, 2, 3, 4};
// SIZE: external-facts.c:[[@LINE+1]]: error: RESPEC_STABLE_TABLE_AS(table_loc, 0, four_ints): the contents have 16 bytes; the stable memory has 4
RESPEC_STABLE_TABLE_AS(table_loc, 0, four_ints);
#endif
#ifdef TWICE
RESPEC_PURE(strlen);
// TWICE: external-facts.c:[[@LINE+1]]: error: RESPEC_PURE(strlen): 'strlen' is declared already, at {{.*}}external-facts.c:[[@LINE-1]]
RESPEC_PURE(strlen);
#endif
#ifdef UNUSED
// UNUSED: external-facts.c:[[@LINE+1]]: {{warning|error}}: RESPEC_PURE(strchr) had no effect: no call of the function was reached
RESPEC_PURE(strchr);
// UNUSED: external-facts.c:[[@LINE+1]]: {{warning|error}}: RESPEC_STABLE_TABLE(table_loc, 0, 4) had no effect: its contents are known only at run time (respec embed); to fold them at build time, vouch for them with RESPEC_STABLE_TABLE_AS
RESPEC_STABLE_TABLE(table_loc, 0, 4);
// UNUSED: external-facts.c:[[@LINE+1]]: {{warning|error}}: RESPEC_PURE(strlen) had no effect: no call reached had static arguments and memory, and without the declaration none would have forgotten memory
RESPEC_PURE(strlen);
#endif

RESPEC_SPECIALIZE int f(const char *s)
{
	return (*table_loc())[1] + (int)strlen(s) + config()[0];
}
