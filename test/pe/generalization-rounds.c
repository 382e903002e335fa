// Loops found to be under dynamic control during one attempt are all
// generalized before specialization starts over (Specializer::generalize,
// pe/Generalization.cpp): the attempt goes on with each such loop in its new
// mode, so three independent loops cost one restart, not three. A loop is
// generalized at most one step per attempt.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec explain %s --function three_loops | %FileCheck %s
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
//
// CHECK: loops kept residual: 3
// CHECK: attempts (each restart follows a round of loop generalization or a budget hit): 2
// CHECK-DAG: generalization-rounds.c:[[#@LINE+11]]:{{.*}}loop kept residual
// CHECK-DAG: generalization-rounds.c:[[#@LINE+12]]:{{.*}}loop kept residual
// CHECK-DAG: generalization-rounds.c:[[#@LINE+13]]:{{.*}}loop kept residual
#include <respec/respec.h>
#include <stdint.h>

uint32_t three_loops(uint32_t a, uint32_t b, uint32_t c);

#ifndef MAIN
RESPEC_SPECIALIZE uint32_t three_loops(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t s = 7;
  for (uint32_t i = 0; i < a; i++)
    s = s * 31 + i;
  for (uint32_t j = 3; j < b; j += 2)
    s ^= j << (s & 7);
  for (uint32_t k = 1; k < c; k *= 3)
    s += k;
  return s;
}
#else
#include <stdio.h>
int main(void) {
  uint32_t digest = 0;
  for (uint32_t a = 0; a < 40; a++)
    for (uint32_t b = 0; b < 40; b++)
      for (uint32_t c = 0; c < 400; c += 7)
        digest = digest * 31 + three_loops(a, b, c);
  printf("digest %08x\n", digest);
  return 0;
}
#endif
