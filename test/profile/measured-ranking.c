// The ranking is Synthetix's estimate in ns, priced by what the partial
// evaluator measures, not by observations alone. `scaled` reads a flag four
// times as often as `power` reads its exponent, but folding the flag saves a
// test and a select per call, while folding the exponent unrolls a loop of 16
// iterations: measured, the exponent ranks first. Without measuring
// (--measure 0) every observation is worth 1 ns, and the flag leads.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c '%clang -O2 $(%respec profile --cflags) %s $(%respec profile --ldflags) -o %t/program'
// RUN: env RESPEC_PROFILE_OUT=%t/profile.txt %t/program 200
// RUN: %respec profile report %t/profile.txt --top 2 | FileCheck %s
// RUN: %respec profile report %t/profile.txt --top 2 --measure 0 | FileCheck %s --check-prefix=COUNTS
// RUN: %respec profile report %t/profile.txt --top 2 --instruction-ns 1 | FileCheck %s --check-prefix=SLOWER
// A measured function that does not make the list still shows its measure:
// RUN: %respec profile report %t/profile.txt --top 1 | FileCheck %s --check-prefix=TOP1
//
// CHECK: 1. power: n == 16
// CHECK-NEXT: param at
// CHECK-NEXT: benefit 200 (100.0% of 200) x [[RATE:[0-9.]+]] ns (measured on power) =
// CHECK-NEXT: measured by the partial evaluator: power specializes to
// CHECK-NEXT: predicted speedup
// CHECK-NEXT: Synthetix's estimate for the run: +
// CHECK: 2. scaled: c->verbose == 0
// CHECK-NEXT: field at
// CHECK-NEXT: benefit 800 (100.0% of 800) x {{0\.[0-9]}} ns (measured on scaled) =
//
// COUNTS: 1. scaled: c->verbose == 0
// COUNTS-NEXT: field at
// COUNTS-NEXT: benefit 800 (100.0% of 800) x 1.0 ns (none priced) = 800 ns; cost 1 writes to config+0 + 0 changes = 0 ns; score 800 ns
// COUNTS: 2. power: n == 16
//
// The price of an instruction (--instruction-ns) scales what a measured
// observation saves:
// SLOWER: 1. power: n == 16
// SLOWER-NEXT: param at
// SLOWER-NEXT: benefit 200 (100.0% of 200) x {{[1-9][0-9]+\.[0-9]}} ns (measured on power)
//
// TOP1: 1. power: n == 16
// TOP1-NOT: {{^}}2. 
// TOP1: Measured, not listed: scaled
// TOP1-NEXT: measured by the partial evaluator: scaled specializes to
#include <stdio.h>
#include <stdlib.h>

struct config { int verbose; };

__attribute__((noinline)) int scaled(const struct config *c, int v) { return c->verbose ? v * 3 : v; }

__attribute__((noinline)) long power(long x, int n) {
  long r = 1;
  for (int i = 0; i < n; i++)
    r *= x;
  return r;
}

int main(int argc, char **argv) {
  int calls = argc > 1 ? atoi(argv[1]) : 1000;
  struct config c;
  c.verbose = argc > 5;
  long total = 0;
  for (int i = 0; i < calls; i++) {
    for (int j = 0; j < 4; j++)
      total += scaled(&c, i + j);
    total += power(i & 7, 16 + (argc > 6));
  }
  printf("%ld\n", total);
  return 0;
}
