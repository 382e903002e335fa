// Loops keyed on the state their iterations read (pe/Generalization.cpp,
// LoopMode::KeyedOnLiveState). A backtracking matcher that keeps its frames in
// a local array, as PCRE2's match() does: each frame's slots take few values,
// but the frames above the top keep stale ones, and their combinations are too
// many to unroll. Once the work budget runs out, the loop is keyed only on
// what its iterations read before writing (the current frame and the one
// below it, relative to F), the counter of started frames widens (it never
// comes back to a value), and the dispatch on the pattern stays static.
// Without the keying, the loop is kept residual and the dispatch is D.
//
// The key is a bet that few states are live. With a quarter of the budget it
// runs out again, under the keyed loop (the dispatch loop unrolls in each of
// its keys): the keyed loop is then kept residual, as it would have been
// without the key (Specializer::budgetSite), rather than the dispatch loop
// below it generalized until every loop and call is kept residual.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s --max-work 100000 -o %t/spec.o 2>%t/notes
// RUN: %FileCheck --check-prefix=NOTE %s < %t/notes
// RUN: %respec explain %s --function match_groups --max-work 100000 | %FileCheck --check-prefix=EXPLAIN %s
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %respec specialize %s --max-work 25000 -o %t/lost.o 2>%t/lost-notes
// RUN: %FileCheck --check-prefix=LOST %s < %t/lost-notes
// RUN: %clang -O2 -I%inc -DMAIN %s %t/lost.o -o %t/lost
// RUN: %t/lost > %t/lost.out
// RUN: diff %t/lost.out %t/generic.out
//
// NOTE: frames-matcher.h:{{[0-9]+}}:{{.*}}note: work budget (--max-work=100000) hit: loop keyed on the state its iterations read
// EXPLAIN: {{^ *}}[[#]] M |   if (calls++ >= 1000)
// EXPLAIN: {{^ *}}[[#]] S |     switch (pc[0]) {
// EXPLAIN: loops kept residual: 0
// EXPLAIN: loops keyed on the state their iterations read: 1
// LOST: frames-matcher.h:[[#LOOP:]]:{{.*}}hit: loop keyed on the state its iterations read
// LOST-NEXT: frames-matcher.h:[[#LOOP]]:{{.*}}work budget (--max-work=25000) hit: loop kept residual
// LOST-NOT: every loop and call kept residual
#include <respec/respec.h>

long match_groups(const char *s, long n);

#include "Inputs/frames-matcher.h"
#ifndef MAIN
// (ab|ac)(d|e|f)(gh|g)(i|j)k
static const unsigned char pattern[] = {
    OP_ALT, 8,  OP_CHAR, 'a', OP_CHAR, 'b', OP_GOTO, 6,  OP_CHAR, 'a', OP_CHAR, 'c',
    OP_ALT, 6,  OP_CHAR, 'd', OP_GOTO, 10, OP_ALT,   6,  OP_CHAR, 'e', OP_GOTO, 4, OP_CHAR, 'f',
    OP_ALT, 8,  OP_CHAR, 'g', OP_CHAR, 'h', OP_GOTO, 4,  OP_CHAR, 'g',
    OP_ALT, 6,  OP_CHAR, 'i', OP_GOTO, 4, OP_CHAR, 'j',
    OP_CHAR, 'k', OP_END};

RESPEC_SPECIALIZE long match_groups(const char *s, long n) { return run(pattern, s, n); }
#else
int main(void) {
  static const char *const groups[] = {"ab|ac", "d|e|f", "gh|g", "i|j", "k"};
  check_subjects("match_groups", match_groups, groups, 5);
  return 0;
}
#endif
