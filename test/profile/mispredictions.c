// A filter interpreter running one constant program over packets: the facts
// (the program) fold the dispatch, and the tests of the packets' bytes stay.
// Over random packets those tests go either way unpredictably; the branch
// records count each way, and the predicted speedup charges the misses to
// both sides (ProfileReport.h). Over packets that all pass, the same branches
// always go one way: no miss is charged.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c '%clang -O2 $(%respec profile --cflags) %s $(%respec profile --ldflags) -o %t/filter'
// RUN: env RESPEC_PROFILE_OUT=%t/random.txt %t/filter random 4000
// RUN: env RESPEC_PROFILE_OUT=%t/passing.txt %t/filter passing 4000
// RUN: %respec profile report %t/random.txt --top 1 | FileCheck %s --check-prefix=RANDOM
// RUN: %respec profile report %t/passing.txt --top 1 | FileCheck %s --check-prefix=PASSING
// RUN: FileCheck %s --check-prefix=RAW < %t/random.txt
// RUN: %respec profile report %t/random.txt --top 1 --mispredict-cost 0 | FileCheck %s --check-prefix=FREE
//
// RANDOM: 1. match: memory behind 'pc' (const struct insn *) is constant
// Half the packets fail the first test, half of the others the second: the
// test's branch goes its rarer way 0.73 times a packet (the profile's count),
// 30 instructions each. LLVM 16's cleanup makes one of the two specialized
// tests a select (the last, whose ways return 1 and 0), so half of that is
// charged (about 11); what is checked is that some is:
// RANDOM: predicted speedup {{[0-9.]+}}x: {{[0-9.]+}} IR instructions per call without the facts, {{[0-9.]+}} with them (10 of them the call, {{[1-9][0-9]*\.[0-9]}} the mispredictions of the branches they leave)
// PASSING: 1. match: memory behind 'pc' (const struct insn *) is constant
// PASSING: predicted speedup {{[0-9.]+}}x: {{.*}} (10 of them the call, 0.0 the mispredictions of the branches they leave)
// FREE: (10 of them the call, 0.0 the mispredictions of the branches they leave)
//
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LOAD, JUMP_IF_EQUAL, RETURN };
struct insn {
  uint8_t code, jump_true, jump_false;
  uint32_t k;
};

/* Accept packets whose byte 0 is 0x45 and byte 9 is 6. */
static const struct insn program[] = {
    {LOAD, 0, 0, 0},          {JUMP_IF_EQUAL, 0, 3, 0x45}, {LOAD, 0, 0, 9},
    {JUMP_IF_EQUAL, 0, 1, 6}, {RETURN, 0, 0, 1},           {RETURN, 0, 0, 0},
};

__attribute__((noinline)) uint32_t match(const struct insn *pc, const uint8_t *packet) {
  uint32_t a = 0;
  for (;; pc++) {
    switch (pc->code) {
    case LOAD: a = packet[pc->k]; break;
    case JUMP_IF_EQUAL:
      if (a == pc->k) pc += pc->jump_true; else pc += pc->jump_false;
      // The comparison's branch: its executions (about 6,000: every packet's first
      // test, and the second for the half that pass it) and those whose condition
      // held (about 3,000).
      // RAW: branch match {{.*}}mispredictions.c:[[#@LINE-4]] {{.*}}mispredictions.c [[#@LINE-4]] {{[56][0-9][0-9][0-9]}} {{[23][0-9][0-9][0-9]}}
      break;
    case RETURN: return pc->k;
    }
  }
}

int main(int argc, char **argv) {
  int random_packets = argc > 1 && strcmp(argv[1], "random") == 0;
  int n = argc > 2 ? atoi(argv[2]) : 1000;
  uint8_t packet[16] = {0};
  uint32_t accepted = 0;
  srand(1);
  for (int i = 0; i < n; i++) {
    int pass_first = random_packets ? rand() % 2 : 1, pass_second = random_packets ? rand() % 2 : 1;
    packet[0] = pass_first ? 0x45 : 0x60;
    packet[9] = pass_second ? 6 : 17;
    accepted += match(program, packet);
  }
  printf("%u accepted\n", accepted);
  return 0;
}
