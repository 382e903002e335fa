// A step counter beside an interpreter's state (pe/Generalization.cpp,
// fewValuedSlots): the counter takes a new value at every iteration, so
// unrolling runs out of its budget; the state cycles through few values. The
// loop is then keyed on the state, the counter widens, and the dispatch on the
// state stays static (PCRE2 counts every backtracking frame against its match
// limit like this). An inner loop whose outer index only moves on is not keyed
// on that index: it is kept residual as before.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -o %t/spec.o 2>%t/notes
// RUN: %FileCheck --check-prefix=NOTE %s < %t/notes
// RUN: %respec explain %s --function ab_star | %FileCheck --check-prefix=EXPLAIN %s
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
//
// NOTE: step-counter.c:33:{{.*}}note: unrolling budget (--max-unroll=4096) hit: loop keyed on the loop-carried values that took few values (its state), the ones that kept changing (counters) widened
// NOTE: step-counter.c:68:{{.*}}note: unrolling budget (--max-unroll=4096) hit: loop kept residual
// EXPLAIN: {{^ *}}36 S | {{ *}}switch (state) {
// EXPLAIN: loops keyed on their program counter: 1
#include <respec/respec.h>

int ab_star(const unsigned char *p, const unsigned char *end);
unsigned long inner_moves_on(unsigned long seed);

#ifndef MAIN
static int run(const unsigned char *p, const unsigned char *end) {
  unsigned long calls = 0;
  int state = 0;
  for (;;) {
    if (calls++ >= 100000)
      return -1;
    switch (state) {
    case 0:
      if (p < end && *p == 'a') {
        p++;
        state = 1;
      } else
        return 0;
      break;
    case 1:
      if (p < end && *p == 'b') {
        p++;
        state = 2;
      } else
        return 1;
      break;
    case 2:
      if (p < end && *p == 'c')
        p++;
      state = 0;
      break;
    }
  }
}

RESPEC_SPECIALIZE int ab_star(const unsigned char *p, const unsigned char *end) {
  return run(p, end);
}

// The inner loop's header sees i take one value after another, never again.
RESPEC_SPECIALIZE unsigned long inner_moves_on(unsigned long seed) {
  unsigned long s = seed;
  for (unsigned i = 0; i < 8; i++)
    for (unsigned j = 0; j < 5000; j++)
      s = s * 31 + (i ^ j);
  return s;
}
#else
#include <stdio.h>
int main(void) {
  unsigned char text[400];
  unsigned x = 7;
  unsigned long digest = 0;
  for (int round = 0; round < 20000; round++) {
    unsigned n = round % 397;
    for (unsigned i = 0; i < n; i++) {
      x = x * 1103515245u + 12345u;
      // Mostly well-formed "abc" runs, sometimes broken.
      text[i] = (x >> 24) % 16 == 0 ? 'x' : "abc"[i % 3];
    }
    digest = digest * 131 + (unsigned)(ab_star(text, text + n) + 2);
  }
  printf("ab_star %lu\n", digest);
  printf("inner_moves_on %lu\n", inner_moves_on(42));
  return 0;
}
#endif
