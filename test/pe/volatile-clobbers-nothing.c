// A volatile access stays, in order, but forgets nothing else (as in LLVM's
// alias analysis: C's volatile orders only volatile accesses). An atomic
// acquire load does forget: another thread's writes become visible.
// Found by Lua's luaV_execute, which reads `trap = L->hookmask` (volatile)
// before it reads its frame.
//
// RUN: %respec specialize %s -O1 --emit-llvm -o - -q 2>/dev/null | %FileCheck %s
#include <respec/respec.h>

struct frame {
  volatile int hookmask;
  const unsigned char *pc;
};
static const unsigned char program[] = {3, 1, 4, 1, 5};

static int run(struct frame *f) {
  int trap = f->hookmask;
  const unsigned char *pc = f->pc;
  return pc[0] + pc[2] + (trap ? 100 : 0);
}

// CHECK-LABEL: define {{.*}} @after_volatile(
// CHECK: load volatile i32
// CHECK-NOT: load ptr
// CHECK: select i1 %{{.*}}, i32 7, i32 107
RESPEC_SPECIALIZE int after_volatile(struct frame *f) {
  respec_assume(f->pc == program);
  return run(f);
}

// CHECK-LABEL: define {{.*}} @after_acquire(
// CHECK: load atomic i32, ptr {{.*}} acquire
// CHECK: load ptr
// CHECK: ret i32
RESPEC_SPECIALIZE int after_acquire(struct frame *f, int *flag) {
  respec_assume(f->pc == program);
  int ready = __atomic_load_n(flag, __ATOMIC_ACQUIRE);
  const unsigned char *pc = f->pc;
  return pc[0] + ready;
}
