// A variable assigned only on some paths of one interpreted instruction (Lua's
// `lua_Number n1; ... tonumberns(v1, n1) && ...`) is carried around the
// interpreter's loop in SSA form, undefined until the first time that
// instruction assigns it. An undefined value does not tell loop iterations apart
// and meets as any other value (iterationKey and meetValues,
// pe/Generalization.cpp), so the interpreter unrolls exactly as if the variable
// were initialized where it is declared — not once per combination of which
// instructions have run (98 iterations instead of 21, before).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec explain %s --function transform | grep -E "loop iterations unrolled|branches folded" > %t/undefined
// RUN: %respec explain %s --function transform -DINITIALIZED | grep -E "loop iterations unrolled|branches folded" > %t/initialized
// RUN: diff %t/undefined %t/initialized
// RUN: %FileCheck %s < %t/undefined
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
//
// CHECK: branches folded: {{[1-9][0-9]*}}
// CHECK: loop iterations unrolled: {{[1-9][0-9]?$}}
#include <respec/respec.h>
#include <stdint.h>

#ifdef INITIALIZED
#define TEMPORARY(n) double n = 0
#else
#define TEMPORARY(n) double n
#endif

struct reg {
  int isfloat;
  double f;
  long i;
};

double transform(struct reg *regs);

#ifndef MAIN
enum op { JZ, ADDF, MULF, SUBF, JNZ, RET };
struct insn {
  unsigned char op, a;
  signed char target;
};

/* Lua's tonumberns, reduced: assigns n only for a float. */
#define TONUM(r, n) ((r)->isfloat ? ((n) = (r)->f, 1) : 0)

static double run(struct reg *regs, const struct insn *prog) {
  for (const struct insn *pc = prog;; pc++) {
    const struct insn i = *pc;
    switch (i.op) {
    case JZ:
      if (regs[i.a].i == 0)
        pc = prog + i.target - 1;
      break;
    case ADDF: {
      TEMPORARY(n1);
      if (TONUM(&regs[i.a], n1))
        regs[i.a].f = n1 + 1.0;
      break;
    }
    case MULF: {
      TEMPORARY(n2);
      if (TONUM(&regs[i.a], n2))
        regs[i.a].f = n2 * 2.0;
      break;
    }
    case SUBF: {
      TEMPORARY(n3);
      if (TONUM(&regs[i.a], n3))
        regs[i.a].f = n3 - 3.0;
      break;
    }
    case JNZ: /* the interpreted loop: a run-time trip count */
      if (regs[i.a].i-- > 0)
        pc = prog + i.target - 1;
      break;
    case RET:
      return regs[i.a].f;
    }
  }
}

/* r1 is transformed by ADDF, MULF and SUBF, each skipped when its flag register
 * (r0, r2, r3) is zero, r4 times. */
static const struct insn program[] = {
    {JZ, 0, 2}, {ADDF, 1, 0}, {JZ, 2, 4}, {MULF, 1, 0},
    {JZ, 3, 6}, {SUBF, 1, 0}, {JNZ, 4, 0}, {RET, 1, 0},
};

RESPEC_SPECIALIZE double transform(struct reg *regs) { return run(regs, program); }
#else
#include <stdio.h>
#include <string.h>
int main(void) {
  uint32_t x = 88172645u, digest = 0;
  for (int round = 0; round < 20000; round++) {
    struct reg regs[5];
    for (int r = 0; r < 5; r++) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      regs[r].isfloat = (x & 3) != 0;
      regs[r].f = (double)(int)(x % 2001 - 1000) / 8;
      regs[r].i = r == 4 ? (long)(x >> 20) % 12 - 2 : (long)(x >> 8) % 3;
    }
    double result = transform(regs);
    uint64_t bits;
    memcpy(&bits, &result, sizeof bits);
    digest = digest * 31 + (uint32_t)(bits ^ bits >> 32);
    for (int r = 0; r < 5; r++) {
      memcpy(&bits, &regs[r].f, sizeof bits);
      digest = digest * 31 + (uint32_t)(bits ^ bits >> 32) + (uint32_t)regs[r].i;
    }
  }
  printf("digest %08x\n", digest);
  return 0;
}
#endif
