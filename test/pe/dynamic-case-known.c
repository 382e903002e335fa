// "The Trick" on a residual branch (pe/Generalization.cpp, refineOnEdge): on
// the edge of a dynamic switch's case, or of `x == C` taken, the dynamic value
// is that constant. A message handler switches on its message's kind, read from
// run-time memory, and each case calls helpers that read the kind again and
// look it up in a table: in each case the kind is static, in its SSA value and
// in the field it was loaded from (nothing wrote there since), so the helpers'
// tests and the table lookups fold. The default case keeps the kind dynamic.
// The residual code is checked as respec emits it (-O0: LLVM's correlated
// value propagation would fold these small cases by itself; respec needs the
// values static where they decide unrolling, unfolding and devirtualization).
// Without the refinement it reloads the kind and indexes `weights` in every
// case.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O0 --emit-llvm -o %t/spec.ll -q
// RUN: %FileCheck %s < %t/spec.ll
// RUN: %respec explain %s --color=never > %t/explain.txt 2>&1
// RUN: %FileCheck --check-prefix=EXPLAIN %s < %t/explain.txt
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
//
// The table is read only in the default case (a kind the switch does not
// name), once; the named kinds multiply and add their weights as constants.
// CHECK-LABEL: define {{.*}} @handle(
// CHECK: switch i32
// CHECK-DAG: mul nsw i32 3, %
// CHECK-DAG: mul nsw i32 5, %
// CHECK-DAG: add nsw i32 7, %
// CHECK: @weights
// CHECK-NOT: @weights
// CHECK: {{^}}}
//
// `op == 2` taken: the scale is the table's third entry.
// CHECK-LABEL: define {{.*}} @scaled(
// CHECK-NOT: @weights
// CHECK: mul nsw i32 7, %x
// CHECK-NOT: @weights
// CHECK: ret i32
// CHECK-NEXT: }
//
// Each case's byte is its own: case 2 multiplies by 2 * 100 (a refinement
// made for case 1 once stayed in the state for the cases after it: 100, 1000).
// CHECK-LABEL: define {{.*}} @byte_case(
// CHECK: phi i32 [ -1, %{{.*}} ], [ 10, %{{.*}} ], [ 200, %{{.*}} ], [ 3000, %{{.*}} ]
//
// Two cases into one block keep the value dynamic there (both edges once
// brought the first case's 1 to the phi).
// CHECK-LABEL: define {{.*}} @shared_case(
// CHECK: phi i32 [ 0, %{{.*}} ], [ %x, %{{.*}} ]
//
// EXPLAIN: residual branch edges on which a dynamic value is known: {{[1-9]}}
#include <respec/respec.h>

struct message {
  int kind;
  int length;
  unsigned char payload[8];
};

int handle(const struct message *m);
int scaled(int op, int x);
int byte_case(const signed char *p);
int shared_case(int x);

#ifndef MAIN
static const int weights[5] = {3, 5, 7, 11, 13};

static int weight(const struct message *m) {
  return m->kind >= 0 && m->kind < 5 ? weights[m->kind] : 1;
}

RESPEC_SPECIALIZE int handle(const struct message *m) {
  switch (m->kind) {
  case 0:
    return weight(m) * m->length;
  case 1:
    return weight(m) * m->payload[m->length & 7];
  case 2:
    return weight(m) + m->payload[0];
  default:
    return weight(m) - m->length;
  }
}

RESPEC_SPECIALIZE int scaled(int op, int x) {
  if (op == 2)
    return weights[op] * x;
  return x - op;
}

RESPEC_SPECIALIZE int byte_case(const signed char *p) {
  switch (*p) {
  case 1:
    return *p * 10;
  case 2:
    return *p * 100;
  case 3:
    return *p * 1000;
  default:
    return -1;
  }
}

RESPEC_SPECIALIZE int shared_case(int x) {
  int y;
  switch (x) {
  case 1:
  case 2:
    y = x;
    break;
  default:
    y = 0;
  }
  return y * 7;
}
#else
#include <stdio.h>
int main(void) {
  unsigned x = 11;
  unsigned long digest = 0;
  for (int round = 0; round < 20000; round++) {
    struct message m;
    x = x * 1103515245u + 12345u;
    m.kind = (int)((x >> 16) % 9) - 2;
    x = x * 1103515245u + 12345u;
    m.length = (int)((x >> 8) % 1000);
    for (int i = 0; i < 8; i++)
      m.payload[i] = (unsigned char)(x >> (i * 3));
    digest = digest * 131 + (unsigned)handle(&m);
    digest = digest * 131 + (unsigned)scaled(m.kind + 2, m.length);
    signed char byte = (signed char)(m.kind + 1);
    digest = digest * 131 + (unsigned)byte_case(&byte);
    digest = digest * 131 + (unsigned)shared_case(m.kind + 1);
  }
  printf("%lx\n", digest);
  return 0;
}
#endif
