// An interpreter whose conditional jumps pick the next program counter with a
// dynamic condition, the way a packet-filter interpreter does:
//   pc += (A > pc->k) ? pc->jt : pc->jf;
// The two static program counters meet at the end of the ?: but are kept apart
// (variants of the join), so the interpreter still unrolls per program counter.
// Bounds checks that exit the loop on dynamic data do not stop the unrolling.
//
// RUN: %respec specialize %s -O1 --emit-llvm -o - -q | %FileCheck %s
#include <respec/respec.h>

enum { LD, JGT, RET_K, RET_A };
struct insn {
  unsigned short code;
  unsigned char jt, jf;
  unsigned k;
};

static unsigned filter(const struct insn *pc, const unsigned char *p, unsigned len) {
  unsigned A = 0;
  --pc;
  for (;;) {
    ++pc;
    switch (pc->code) {
    case LD:
      if (pc->k >= len)
        return 0;
      A = p[pc->k];
      continue;
    case JGT:
      pc += (A > pc->k) ? pc->jt : pc->jf;
      continue;
    case RET_K:
      return pc->k;
    case RET_A:
      return A;
    }
  }
}

static const struct insn program[] = {
    {LD, 0, 0, 3}, {JGT, 0, 2, 100}, {LD, 0, 0, 7}, {RET_A, 0, 0, 0}, {RET_K, 0, 0, 42},
};

// CHECK-LABEL: define {{.*}} @run(ptr {{.*}}%p, i32 {{.*}}%len)
// CHECK-NOT: switch
// CHECK-NOT: @program
// CHECK-NOT: phi ptr
// CHECK-DAG: icmp ult i32 %len, 4
// CHECK-DAG: icmp ugt i8 %{{.*}}, 100
// CHECK-DAG: icmp ult i32 %len, 8
// CHECK-DAG: [ 42,
// CHECK: ret i32
RESPEC_SPECIALIZE unsigned run(const unsigned char *p, unsigned len) {
  return filter(program, p, len);
}
