// Loops keyed on the state their iterations read, when one of their slots
// takes many values (pe/Generalization.cpp, hasRunawayCounter). With seven
// groups, the frames of the matcher of live-state.c hold more than
// FewSlotValues (16) pattern positions each over the unrolling, and come back
// to them: that is state, not a counter that ran away (the started-frames
// count is one), so the loop is keyed on its live state and the dispatch stays
// static. Taking the many-valued slot for a counter had keyed the loop on its
// other slots, stale frames included, and that ran out of the budget again:
// kept residual, dispatch D (PCRE2's HTTP request-line pattern, session 19).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s --max-work 1000000 -o %t/spec.o 2>%t/notes
// RUN: %FileCheck --check-prefix=NOTE %s < %t/notes
// RUN: %respec explain %s --function match_seven_groups --max-work 1000000 | %FileCheck --check-prefix=EXPLAIN %s
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
//
// NOTE: frames-matcher.h:{{[0-9]+}}:{{.*}}note: work budget (--max-work=1000000) hit: loop keyed on the state its iterations read
// NOTE-NOT: loop kept residual
// EXPLAIN: {{^ *}}[[#]] S |     switch (pc[0]) {
// EXPLAIN: loops kept residual: 0
// EXPLAIN: loops keyed on the state their iterations read: 1
#include <respec/respec.h>

long match_seven_groups(const char *s, long n);

#include "Inputs/frames-matcher.h"
#ifndef MAIN
// (ab|ac)(d|e)(gh|g)(i|j)(lm|l)(n|o)(pq|p)k
static const unsigned char pattern[] = {
    OP_ALT, 8, OP_CHAR, 'a', OP_CHAR, 'b', OP_GOTO, 6, OP_CHAR, 'a', OP_CHAR, 'c',
    OP_ALT, 6, OP_CHAR, 'd', OP_GOTO, 4, OP_CHAR, 'e', OP_ALT, 8, OP_CHAR, 'g', OP_CHAR,
    'h', OP_GOTO, 4, OP_CHAR, 'g', OP_ALT, 6, OP_CHAR, 'i', OP_GOTO, 4, OP_CHAR, 'j',
    OP_ALT, 8, OP_CHAR, 'l', OP_CHAR, 'm', OP_GOTO, 4, OP_CHAR, 'l', OP_ALT, 6, OP_CHAR,
    'n', OP_GOTO, 4, OP_CHAR, 'o', OP_ALT, 8, OP_CHAR, 'p', OP_CHAR, 'q', OP_GOTO, 4,
    OP_CHAR, 'p', OP_CHAR, 'k', OP_END};

RESPEC_SPECIALIZE long match_seven_groups(const char *s, long n) { return run(pattern, s, n); }
#else
int main(void) {
  static const char *const groups[] = {"ab|ac", "d|e", "gh|g", "i|j", "lm|l", "n|o", "pq|p", "k"};
  check_subjects("match_seven_groups", match_seven_groups, groups, 8);
  return 0;
}
#endif
