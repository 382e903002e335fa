// The object path end to end: `specialize -o OUT.o --header OUT.h` writes an
// object exporting the spec function (only it) and a header declaring it; a
// program linked against it computes what the generically compiled spec computes.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -o %t/spec.o --header %t/spec.h -q
// RUN: %FileCheck --check-prefix=HEADER %s < %t/spec.h
// RUN: llvm-nm %t/spec.o | %FileCheck --check-prefix=SYMBOLS %s
// RUN: %clang -O2 -I%inc -DMAIN -include %t/spec.h %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
//
// HEADER: #ifndef RESPEC_GENERATED_SPEC_H
// HEADER: #include <respec/respec.h>
// HEADER: int polynomial(int x);
// SYMBOLS: T polynomial
// SYMBOLS-NOT: T
#include <respec/respec.h>

#ifdef MAIN
#include <stdio.h>
int polynomial(int x);
int main(void) {
  for (int x = -1000; x <= 1000; x += 7)
    printf("%d %d\n", x, polynomial(x));
  return 0;
}
#else
static const int coefficients[] = {3, 0, -2, 5};
static int evaluate(const int *c, int n, int x) {
  int result = 0;
  for (int i = n - 1; i >= 0; i--)
    result = result * x + c[i];
  return result;
}
RESPEC_SPECIALIZE int polynomial(int x) { return evaluate(coefficients, 4, x); }
#endif
