// A test on program data bounds a loop only while the loop walks on through
// that data (pe/Generalization.cpp, walksOn). Here an interpreter's dispatch
// reads its opcode from a constant program, and one opcode leaves the loop: a
// test on program data in every iteration, as in a walk over a static table
// (test/pe/static-table-search.c). But the interpreted program loops (`a*`
// comes back to its own instruction) while a step counter, checked against a
// run-time limit, keeps changing: the loop is under dynamic control and is
// keyed on its program counter. Without the distinction the loop unrolled
// until a budget ran out (PCRE2's match(): `switch (Fop)` over the pattern,
// its match_call_count against the caller's match limit).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -o %t/spec.o 2>%t/notes
// RUN: %FileCheck --check-prefix=NOTE %s < %t/notes
// RUN: %respec explain %s --function match_ab | %FileCheck --check-prefix=EXPLAIN %s
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
//
// NOTE-NOT: budget
// NOTE: program-data-loop-test.c:43:{{.*}}note: loop under dynamic control{{.*}}: loop keyed on its program counter
// NOTE-NOT: budget
// EXPLAIN: {{^ *}}46 S | {{ *}}switch (pc->op) {
// EXPLAIN: loops keyed on their program counter: 1
#include <respec/respec.h>

int match_ab(const unsigned char *p, const unsigned char *end, unsigned long limit);

#ifndef MAIN
enum opcode { CHAR, STAR, END };
struct instruction {
  unsigned char op, ch;
};
// a*b*c
static const struct instruction program[] = {{STAR, 'a'}, {STAR, 'b'}, {CHAR, 'c'}, {END, 0}};

static int run(const struct instruction *pc, const unsigned char *p, const unsigned char *end,
               unsigned long limit) {
  unsigned long steps = 0;
  for (;;) {
    if (steps++ >= limit)
      return -2;
    switch (pc->op) {
    case CHAR:
      if (p == end || *p != pc->ch)
        return -1;
      p++;
      pc++;
      break;
    case STAR:
      if (p < end && *p == pc->ch)
        p++;
      else
        pc++;
      break;
    case END:
      return (int)steps;
    }
  }
}

RESPEC_SPECIALIZE int match_ab(const unsigned char *p, const unsigned char *end,
                               unsigned long limit) {
  respec_static_memory(program, sizeof program);
  return run(program, p, end, limit);
}
#else
#include <stdio.h>
int main(void) {
  unsigned char text[64];
  unsigned x = 11;
  unsigned long digest = 0;
  for (int round = 0; round < 20000; round++) {
    unsigned n = round % 61;
    for (unsigned i = 0; i < n; i++) {
      x = x * 1103515245u + 12345u;
      // Runs of a, then b, then c, sometimes broken by another letter.
      unsigned third = i * 3 / (n ? n : 1);
      text[i] = (x >> 24) % 19 == 0 ? 'x' : "abc"[third];
    }
    unsigned long limit = (x >> 8) % 4 == 0 ? (x >> 12) % 40 : 1000;
    digest = digest * 131 + (unsigned)(match_ab(text, text + n, limit) + 3);
  }
  printf("match_ab %lu\n", digest);
  return 0;
}
#endif
