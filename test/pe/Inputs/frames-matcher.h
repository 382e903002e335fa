// A backtracking matcher with the frame discipline of PCRE2's match(), for the
// tests of loops keyed on their live state (test/pe/live-state*.c): each
// test's spec function runs it on a static pattern; under -DMAIN, the subjects
// every build of a test is checked on.
//
// A pattern is a sequence of groups of alternatives: OP_ALT k tries the
// instructions after it and, if they fail, the ones k bytes ahead; OP_GOTO k
// jumps k bytes ahead (past the group's other alternatives).
#ifndef MAIN
enum { OP_CHAR, OP_ALT, OP_GOTO, OP_END };

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
#else
#include <stdio.h>
#include <string.h>

static unsigned next_random(unsigned n) {
  static unsigned x = 7;
  x = x * 1103515245u + 12345u;
  return (x >> 16) % n;
}

// Prints a digest of match's results on 20,000 subjects: words of the language
// of Groups ("ab|ac" per group), some mutated or cut, and random strings.
static void check_subjects(const char *name, long (*match)(const char *, long),
                           const char *const *groups, unsigned count) {
  char text[64];
  unsigned long digest = 0, matched = 0;
  for (int round = 0; round < 20000; round++) {
    long n = 0;
    if (round % 2) {
      for (unsigned g = 0; g < count; g++) {
        unsigned alternatives = 1;
        for (const char *c = groups[g]; *c; c++)
          alternatives += *c == '|';
        const char *piece = groups[g];
        for (unsigned pick = next_random(alternatives); pick; pick--)
          piece = strchr(piece, '|') + 1;
        size_t length = strcspn(piece, "|");
        memcpy(text + n, piece, length);
        n += length;
      }
      if (next_random(3) == 0)
        text[next_random(n)] = "abcdefghijklmnopqrstuvwxyz"[next_random(26)];
      if (next_random(4) == 0)
        n = next_random(n + 1);
    } else {
      n = next_random(3 * count);
      for (long i = 0; i < n; i++)
        text[i] = "abcdefghijklmnopqrstuvwxyz"[next_random(26)];
    }
    long r = match(text, n);
    matched += r >= 0;
    digest = digest * 131 + (unsigned long)(r + 2);
  }
  printf("%s %lu (%lu matched)\n", name, digest, matched);
}
#endif
