// A test on program data bounds a loop only while the loop walks through that
// data (pe/Generalization.cpp, walksOn). This scan reads its pattern through a
// pointer that stays put while the subject pointer moves, like PCRE2's
// pcre2_match() looping over start positions with the compiled pattern: its
// test on the pattern (`anchored`) is a test on program data, but the scan
// walks nowhere through the pattern, so it is a loop under dynamic control like
// any other (its end is a run-time test). Before, the first iteration counted
// as a walk (its program counter had not been seen yet): that iteration was
// unrolled and the next one looped, a copy of the whole body that in PCRE2 was
// a second copy of match() and took the caller's-match-data functions over the
// work budget.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O0 --emit-llvm -o %t/spec.ll 2>%t/notes
// RUN: %FileCheck --check-prefix=NOTE %s < %t/notes
// RUN: %FileCheck %s < %t/spec.ll
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
//
// NOTE: program-data-stays-put.c:50:{{.*}}note: loop under dynamic control{{.*}}: loop keyed on its program counter
// NOTE-NOT: budget
//
// One residual loop; the pattern's character is a constant in it.
// CHECK-LABEL: define {{.*}} @find_x(
// CHECK-COUNT-1: icmp eq i32 {{.*}}, 120
// CHECK-NOT: icmp eq i32 {{.*}}, 120
// CHECK: ret i32
#include <respec/respec.h>

int find_x(const unsigned char *s, const unsigned char *end);

#ifndef MAIN
struct pattern {
  unsigned char first, anchored;
};
static const struct pattern pattern = {'x', 0};
struct matcher {
  const struct pattern *code;
  const unsigned char *subject, *end;
};

static int scan(const struct matcher *m) {
  const unsigned char *p = m->subject;
  int moved = 0;
  for (;;) {
    if (p >= m->end)
      return -1;
    if (*p == m->code->first)
      return moved ? (int)(p - m->subject) : 0;
    if (m->code->anchored)
      return -2;
    moved = 1;
    p++;
  }
}

RESPEC_SPECIALIZE int find_x(const unsigned char *s, const unsigned char *end) {
  respec_static_memory(&pattern, sizeof pattern);
  struct matcher m = {&pattern, s, end};
  return scan(&m);
}
#else
#include <stdio.h>
int main(void) {
  unsigned char text[64];
  unsigned x = 7;
  unsigned long digest = 0;
  for (int round = 0; round < 20000; round++) {
    unsigned n = round % 61;
    for (unsigned i = 0; i < n; i++) {
      x = x * 1103515245u + 12345u;
      text[i] = (x >> 24) % 23 == 0 ? 'x' : 'a' + (x >> 16) % 26;
    }
    digest = digest * 131 + (unsigned)(find_x(text, text + n) + 3);
  }
  printf("find_x %lu\n", digest);
  return 0;
}
#endif
