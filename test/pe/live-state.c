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
// NOTE: live-state.c:{{[0-9]+}}:{{.*}}note: work budget (--max-work=100000) hit: loop keyed on the state its iterations read
// EXPLAIN: {{^ *}}[[#]] M |   if (calls++ >= 1000)
// EXPLAIN: {{^ *}}[[#]] S |     switch (pc[0]) {
// EXPLAIN: loops kept residual: 0
// EXPLAIN: loops keyed on the state their iterations read: 1
// LOST: live-state.c:[[#LOOP:]]:{{.*}}hit: loop keyed on the state its iterations read
// LOST-NEXT: live-state.c:[[#LOOP]]:{{.*}}work budget (--max-work=25000) hit: loop kept residual
// LOST-NOT: every loop and call kept residual
#include <respec/respec.h>

long match_groups(const char *s, long n);

#ifndef MAIN
enum { OP_CHAR, OP_ALT, OP_GOTO, OP_END };

// "(ab|ac)(d|e|f)(gh|g)(i|j)k": each ALT's operand is the offset of the other alternative, each GOTO's the offset past its group.
static const unsigned char pattern[] = {
    OP_ALT, 8,  OP_CHAR, 'a', OP_CHAR, 'b', OP_GOTO, 6,  OP_CHAR, 'a', OP_CHAR, 'c',
    OP_ALT, 6,  OP_CHAR, 'd', OP_GOTO, 10, OP_ALT,   6,  OP_CHAR, 'e', OP_GOTO, 4, OP_CHAR, 'f',
    OP_ALT, 8,  OP_CHAR, 'g', OP_CHAR, 'h', OP_GOTO, 4,  OP_CHAR, 'g',
    OP_ALT, 6,  OP_CHAR, 'i', OP_GOTO, 4, OP_CHAR, 'j',
    OP_CHAR, 'k', OP_END};

struct frame {
  const unsigned char *pc; // the instruction this frame is at
  long pos;                // the subject position it is at
  int caller;              // where its result goes back to (0: run's caller)
};

// Recursion without the C stack, as PCRE2's match() does it: an alternative
// is tried in a new frame pushed above the current one, and its result comes
// back through the frame's caller id; the frames above the top keep the values
// they had (stale, never read again before being written).
static long run(const unsigned char *prog, const char *s, long n) {
  struct frame frames[16];
  struct frame *F = frames;
  long result;
  unsigned long calls = 0;
  F->pc = prog;
  F->pos = 0;
  F->caller = 0;
start_frame:
  if (calls++ >= 1000)
    return -2;
  for (;;) {
    const unsigned char *pc = F->pc;
    switch (pc[0]) {
    case OP_CHAR:
      if (F->pos < n && s[F->pos] == pc[1]) {
        F->pos++;
        F->pc = pc + 2;
        continue;
      }
      result = -1;
      goto return_frame;
    case OP_ALT:
      F[1].pc = pc + 2;
      F[1].pos = F->pos;
      F[1].caller = 1;
      F++;
      goto start_frame;
    case OP_GOTO:
      F->pc = pc + pc[1];
      continue;
    case OP_END:
      result = F->pos;
      goto return_frame;
    }
  alternative_returned:
    if (result >= 0)
      goto return_frame;
    F->pc += F->pc[1];
  }
return_frame:
  if (F->caller == 0)
    return result;
  F--;
  switch (F[1].caller) {
  case 1:
    goto alternative_returned;
  }
  return result;
}

RESPEC_SPECIALIZE long match_groups(const char *s, long n) { return run(pattern, s, n); }
#else
#include <stdio.h>
#include <string.h>
static unsigned x = 7;
static unsigned next(unsigned n) {
  x = x * 1103515245u + 12345u;
  return (x >> 16) % n;
}
int main(void) {
  static const char *const groups[][3] = {
      {"ab", "ac"}, {"d", "e", "f"}, {"gh", "g"}, {"i", "j"}, {"k"}};
  static const unsigned choices[] = {2, 3, 2, 2, 1};
  char text[24];
  unsigned long digest = 0, matched = 0;
  for (int round = 0; round < 20000; round++) {
    long n = 0;
    if (round % 2) { // a word of the pattern's language, maybe mutated or cut
      for (unsigned g = 0; g < 5; g++) {
        const char *piece = groups[g][next(choices[g])];
        memcpy(text + n, piece, strlen(piece));
        n += strlen(piece);
      }
      if (next(3) == 0)
        text[next(n)] = "abcdefghijk"[next(11)];
      if (next(4) == 0)
        n = next(n + 1);
    } else {
      n = next(12);
      for (long i = 0; i < n; i++)
        text[i] = "abcdefghijk"[next(11)];
    }
    long r = match_groups(text, n);
    matched += r >= 0;
    digest = digest * 131 + (unsigned long)(r + 2);
  }
  printf("match_groups %lu (%lu matched)\n", digest, matched);
  return 0;
}
#endif
