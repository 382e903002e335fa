// The work budget: a specialization that would evaluate too much (nested static
// loops, a tree of unfolded calls) keeps the loop that unrolled most, else the
// callee that cost most, residual, says so, and still computes what the generic
// code computes.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -o %t/spec.o --max-work 20000 2>%t/err
// RUN: %FileCheck --check-prefix=NOTE %s < %t/err
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %respec explain %s --function calls --max-work 20000 | %FileCheck --check-prefix=EXPLAIN %s
//
// NOTE: respec: nested: {{.*}}, 2 budget hits
// NOTE-NEXT: work-budget.c:33:{{.*}}note: work budget (--max-work=20000) hit: loop kept residual
// NOTE-NEXT: work-budget.c:34:{{.*}}note: work budget (--max-work=20000) hit: loop kept residual
// NOTE: respec: calls: {{.*}}, 1 budget hits
// NOTE-NEXT: work-budget.c:39:{{.*}}note: work budget (--max-work=20000) hit: calls to 'fib' kept residual
// EXPLAIN: budget hits: 1
// EXPLAIN: work: instructions evaluated, all attempts (--max-work per attempt): {{[0-9]+}}
#include <respec/respec.h>

unsigned nested(unsigned d);
unsigned calls(unsigned d);

#ifndef MAIN
RESPEC_SPECIALIZE unsigned nested(unsigned d) {
  unsigned s = d;
  for (int i = 0; i < 30; i++)
    for (int j = 0; j < 30; j++)
      for (int k = 0; k < 30; k++)
        s = s * 31 + (unsigned)(i ^ j ^ k);
  return s;
}

static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
RESPEC_SPECIALIZE unsigned calls(unsigned d) { return fib(20) + d; }
#else
#include <stdio.h>
int main(void) {
  for (unsigned d = 0; d < 5; d++)
    printf("%u %u\n", nested(d), calls(d));
  return 0;
}
#endif
