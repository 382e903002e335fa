// The object exports only the spec functions: the generic code's aliases
// (weak_alias(twice, twice_r)) are private copies like its functions, and an
// alias of a mutable variable binds to the program's variable (weak) like the
// variable itself. With --replaces-sources every name keeps its linkage.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s %S/Inputs/aliases.c -o %t/beside.o -q
// RUN: llvm-nm --extern-only --defined-only %t/beside.o | %FileCheck --check-prefix=BESIDE %s
// RUN: %respec specialize %s %S/Inputs/aliases.c --replaces-sources -o %t/replaces.o -q
// RUN: llvm-nm --extern-only --defined-only %t/replaces.o | %FileCheck --check-prefix=REPLACES %s
// RUN: %clang -O2 -I%inc -DMAIN %s %t/beside.o %S/Inputs/aliases.c -o %t/specialized
// RUN: %t/specialized | %FileCheck --check-prefix=OUT %s
//
// BESIDE-NOT: {{ }}quadruple_alias
// BESIDE-NOT: {{ }}twice
// BESIDE: T sixteen_times
// BESIDE-NEXT: V total
// BESIDE-NEXT: V total_alias
// BESIDE-NOT: {{ }}twice
//
// REPLACES: T add
// REPLACES: T quadruple_alias
// REPLACES: T sixteen_times
// REPLACES: B total
// REPLACES: B total_alias
// REPLACES: T twice
// REPLACES: W twice_r
//
// OUT: 48 5
#include <respec/respec.h>

int twice_r(int x);
int quadruple_alias(int x);
int add(int x);
extern int total;

#ifdef MAIN
#include <stdio.h>
int sixteen_times(int x);
int main(void) {
  int result = sixteen_times(3);
  printf("%d %d\n", result, add(5));
  return 0;
}
#else
RESPEC_SPECIALIZE int sixteen_times(int x) { return quadruple_alias(twice_r(twice_r(x))) + add(0); }
#endif
