#include "vm.h"

/* An interpreter of a constant program: the profile should find the program. */
__attribute__((noinline)) int32_t run(const struct insn *pc, int32_t x) {
  int32_t acc = 0;
  for (;; pc++) {
    switch (pc->code) {
    case 0: return acc;
    case 1: acc += pc->k; break;
    case 2: acc *= x; break;
    case 3: acc ^= pc->k; break;
    }
  }
}
