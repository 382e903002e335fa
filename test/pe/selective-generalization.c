// Selective generalization (pe/Generalization.cpp): when an interpreter's loop
// runs a program that itself loops under dynamic control, only the values
// that keep changing widen; the program counter stays the loop's key, so the
// residual code has one block per program point and loops where the
// interpreted program loops. The decision is per call context.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O1 --emit-llvm -o %t/spec.ll 2>%t/notes
// RUN: %FileCheck %s < %t/spec.ll
// RUN: %FileCheck --check-prefix=NOTE %s < %t/notes
// RUN: %respec explain %s | %FileCheck --check-prefix=EXPLAIN %s
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %FileCheck --check-prefix=RUNS %s < %t/specialized.out
#include <respec/respec.h>
#include <stdint.h>

int32_t sum_products(const int32_t *in, unsigned n);
int32_t count_nested(const int32_t *in, unsigned n);
int32_t four_steps(const int32_t *in, unsigned n);
int two_contexts(int limit);

#ifdef MAIN
#include <stdio.h>
int main(void) {
  // A deterministic pseudo-random walk over inputs, bounds and lengths.
  uint32_t x = 12345, digest[4] = {0};
  int32_t in[16];
  for (int round = 0; round < 20000; round++) {
    for (int i = 0; i < 16; i++) {
      x = x * 1103515245u + 12345u;
      in[i] = (int32_t)(x >> 8) % 7 - 2;
    }
    unsigned n = round % 17;
    digest[0] = digest[0] * 31 + (uint32_t)sum_products(in, n);
    digest[1] = digest[1] * 31 + (uint32_t)count_nested(in, n);
    digest[2] = digest[2] * 31 + (uint32_t)four_steps(in, n);
    digest[3] = digest[3] * 31 + (uint32_t)two_contexts(round % 5 - 1);
  }
  // RUNS: sum_products 5 6 -1
  printf("sum_products %d %d %d\n", sum_products((int32_t[]){3, 1, 2}, 3),
         sum_products((int32_t[]){4, 1, 1, 1}, 4), sum_products((int32_t[]){4, 1, 1, 1}, 3));
  // RUNS: digest
  printf("digest %08x %08x %08x %08x\n", digest[0], digest[1], digest[2], digest[3]);
  return 0;
}
#else
enum op { LOADI, LOADIN, ADD, ADDI, MUL, JLT, JMP, RET };
struct insn { uint8_t op, a, b; int32_t imm; };
struct machine { uint32_t r[8]; const int32_t *in; unsigned n; };

// A register machine like examples/interp: registers in memory, a pointer pc.
static int32_t run(struct machine *m, const struct insn *prog) {
  // NOTE-DAG: selective-generalization.c:[[@LINE+2]]:{{.*}}note: the interpreted program loops under dynamic control: loop keyed on its program counter
  // NOTE-DAG: selective-generalization.c:[[@LINE+1]]:{{.*}}note: unrolling budget (--max-unroll=4096) hit: loop keyed on its program counter
  for (const struct insn *pc = prog;; pc++) {
    switch (pc->op) {
    case LOADI: m->r[pc->a % 8] = pc->imm; break;
    case LOADIN: {
      uint32_t i = m->r[pc->b % 8] + pc->imm;
      if (i >= m->n)
        return -1;
      m->r[pc->a % 8] = m->in[i];
      break;
    }
    case ADD: m->r[pc->a % 8] += m->r[pc->b % 8]; break;
    case ADDI: m->r[pc->a % 8] += pc->imm; break;
    case MUL: m->r[pc->a % 8] *= m->r[pc->b % 8]; break;
    case JLT:
      if ((int32_t)m->r[pc->a % 8] < (int32_t)m->r[pc->b % 8])
        pc = prog + pc->imm - 1;
      break;
    case JMP: pc = prog + pc->imm - 1; break;
    case RET: return (int32_t)m->r[pc->a % 8];
    }
  }
}

// s = sum of in[i] * i for i < in[0]: the bound is run-time data.
static const struct insn dynamic_bound[] = {
  {LOADI, 0, 0, 1},  // i = 1
  {LOADIN, 1, 3, 0}, // bound = in[0] (r3 = 0)
  {LOADI, 2, 0, 0},  // s = 0
  {LOADIN, 3, 0, 0}, // 3: t = in[i]
  {MUL, 3, 0, 0},    // t *= i
  {ADD, 2, 3, 0},    // s += t
  {LOADI, 3, 0, 0},  // r3 = 0 again
  {ADDI, 0, 0, 1},   // i++
  {JLT, 0, 1, 3},    // if i < bound goto 3
  {RET, 2, 0, 0},
};

// Two nested loops, both bounded by run-time data: s counts the inner
// iterations, in[1] * in[2] when both are positive. Only s changes statically
// (no comparison decides on it), so the unrolling budget finds this one.
static const struct insn nested[] = {
  {LOADI, 2, 0, 0},  // s = 0
  {LOADI, 3, 0, 0},  // r3 = 0
  {LOADIN, 0, 3, 1}, // j = in[1]
  {JLT, 3, 0, 5},    // 3: if 0 < j goto 5
  {RET, 2, 0, 0},
  {LOADIN, 1, 3, 2}, // 5: k = in[2]
  {JLT, 3, 1, 9},    // 6: if 0 < k goto 9
  {ADDI, 0, 0, -1},  // j--
  {JMP, 0, 0, 3},
  {ADDI, 2, 0, 1},   // 9: s++
  {ADDI, 1, 0, -1},  // k--
  {JMP, 0, 0, 6},
};

// A static trip count (4): still unrolled, although each iteration compares a
// register that never changes with run-time data. s sums the non-negative words.
static const struct insn static_bound[] = {
  {LOADI, 0, 0, 0},  // i = 0
  {LOADI, 1, 0, 4},  // bound = 4
  {LOADI, 3, 0, 0},  // r3 = 0
  {LOADI, 4, 0, 0},  // s = 0
  {LOADIN, 2, 0, 0}, // 4: w = in[i]
  {JLT, 2, 3, 7},    // if w < 0 goto 7 (w dynamic, r3 static)
  {ADD, 4, 2, 0},    // s += w
  {ADDI, 0, 0, 1},   // 7: i++
  {JLT, 0, 1, 4},    // if i < bound goto 4
  {RET, 4, 0, 0},
};

// The trip count of this scan depends on its limit: with static arguments it is
// evaluated away; with a dynamic limit, in another call context, it stays a
// loop there only.
static int count_percent(const char *s, int limit) {
  int n = 0;
  // NOTE-DAG: selective-generalization.c:[[@LINE+1]]:{{.*}}note: loop under dynamic control{{.*}}: loop kept residual
  for (const char *p = s; *p && n < limit; p++)
    n += *p == '%';
  return n;
}


// The dispatch is gone (no switch, no load of a program) and the interpreted
// loop is a residual loop.
// CHECK-LABEL: define {{.*}} @sum_products(
// CHECK-NOT: {{^  switch }}
// CHECK-NOT: @dynamic_bound
// CHECK: phi
// CHECK: ret i32
RESPEC_SPECIALIZE int32_t sum_products(const int32_t *in, unsigned n) {
  struct machine m = {{0}, in, n};
  return run(&m, dynamic_bound);
}

// CHECK-LABEL: define {{.*}} @count_nested(
// CHECK-NOT: {{^  switch }}
// CHECK-NOT: @nested
// CHECK: ret i32
RESPEC_SPECIALIZE int32_t count_nested(const int32_t *in, unsigned n) {
  struct machine m = {{0}, in, n};
  return run(&m, nested);
}

// Unrolled: loads of the input at constant offsets, and no loop.
// CHECK-LABEL: define {{.*}} @four_steps(
// CHECK-NOT: {{^  switch }}
// CHECK: load i32, ptr %in,
// CHECK: getelementptr inbounds i32, ptr %in, i64 1
// CHECK: getelementptr inbounds i32, ptr %in, i64 2
// CHECK: getelementptr inbounds i32, ptr %in, i64 3
// CHECK-NOT: getelementptr inbounds i32, ptr %in, i64 {{[04-9]}}
// CHECK: ret i32
RESPEC_SPECIALIZE int32_t four_steps(const int32_t *in, unsigned n) {
  struct machine m = {{0}, in, n};
  return run(&m, static_bound);
}

// The first scan is folded to 2 (2000); the second stays a loop.
// CHECK-LABEL: define {{.*}} @two_contexts(
// CHECK: 2000
// CHECK: ret i32
RESPEC_SPECIALIZE int two_contexts(int limit) {
  return count_percent("a%b%c", 100) * 1000 + count_percent("x%%y%z", limit);
}

// EXPLAIN: loops keyed on their program counter: 1

#endif
