// A counted loop that a run-time check may also leave (PCRE2's exact repeats:
// `for (i = 1; i <= Lmin; i++) { if (Feptr >= mb->end_subject) RRETURN(...); ... }`)
// has two loop tests: the counter against its static bound, and the check on
// run-time data. The static one may end the loop soon, so the loop unrolls while
// it is short (--max-unroll-dynamic-exit N; off by default) before it counts as under
// run-time control (default 0: at once; 16 here): \d{4} becomes four straight checks, a thousand digits stay a
// loop, and neither is a budget hit.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O0 --emit-llvm --max-unroll-dynamic-exit 16 -o %t/spec.ll 2>%t/notes
// RUN: %FileCheck %s < %t/spec.ll
// RUN: %FileCheck --check-prefix=NOTE %s < %t/notes
// RUN: %respec specialize %s -O0 --emit-llvm --max-unroll-dynamic-exit 0 -o - -q \
// RUN:   | %FileCheck --check-prefix=NEVER %s
// RUN: %respec specialize %s --max-unroll-dynamic-exit 16 -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
#include <respec/respec.h>

int four_digits(const unsigned char *p, const unsigned char *end);
int many_digits(const unsigned char *p, const unsigned char *end);

#ifndef MAIN
static int digits(const unsigned char *p, const unsigned char *end, unsigned n) {
  for (unsigned i = 1; i <= n; i++) {
    if (p >= end)
      return 0;
    if (*p < '0' || *p > '9')
      return 0;
    p++;
  }
  return 1;
}

// The four iterations are straight code (raw residual code, -O0: LLVM's own
// unroller would unroll a loop of four): four bounds checks, no counter.
// CHECK-LABEL: define {{.*}} @four_digits(
// CHECK-NOT: icmp ule i32
// CHECK-COUNT-4: icmp uge ptr {{.*}}, %end
// CHECK-NOT: icmp ule i32
// CHECK: ret i32
// NEVER-LABEL: define {{.*}} @four_digits(
// NEVER: icmp ule i32 %i{{.*}}, 4
RESPEC_SPECIALIZE int four_digits(const unsigned char *p, const unsigned char *end) {
  return digits(p, end, 4);
}

// CHECK-LABEL: define {{.*}} @many_digits(
// CHECK: icmp ule i32 %i{{.*}}, 1000
// NOTE-NOT: budget
// NOTE: counted-loop-dynamic-exit.c:{{[0-9]+}}:3: note: loop under dynamic control
// NOTE-NOT: budget
RESPEC_SPECIALIZE int many_digits(const unsigned char *p, const unsigned char *end) {
  return digits(p, end, 1000);
}
#else
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  static unsigned char subject[1200];
  unsigned seed = 12345;
  for (int run = 0; run < 20000; run++) {
    seed = seed * 1103515245u + 12345u;
    unsigned length = (seed >> 8) % 1100;
    unsigned bad = (seed >> 4) % 1300; // where a non-digit goes, if in range
    for (unsigned i = 0; i < length; i++)
      subject[i] = (unsigned char)('0' + (seed + i * 7) % 10);
    if (bad < length)
      subject[bad] = (unsigned char)((seed & 1) ? '/' : ':');
    unsigned start = run % 7 == 0 ? length : (seed >> 12) % 8;
    const unsigned char *p = subject + (start < length ? start : length);
    printf("%d %d\n", four_digits(p, subject + length), many_digits(p, subject + length));
  }
  return 0;
}
#endif
