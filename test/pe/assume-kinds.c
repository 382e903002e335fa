// respec_assume() takes effect on every kind of field C code reads: narrow
// integers (compared after promotion), bit-fields (some bits of a storage
// unit), volatile fields (the access stays, its value is the fact) and fields
// reached through a chain of pointers; one that decides nothing is a warning
// (an error with -Werror), and explain lists every assumption with its uses.
// Both builds run on the same inputs and agree.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O2 --emit-llvm -o %t/spec.ll 2>%t/warnings
// RUN: %FileCheck %s < %t/spec.ll
// RUN: %FileCheck --check-prefix=WARN %s < %t/warnings
// RUN: %not %respec specialize %s -Werror -o %t/werror.o 2>&1 | %FileCheck --check-prefix=WERROR %s
// RUN: not test -e %t/werror.o
// RUN: %respec explain %s | %FileCheck --check-prefix=EXPLAIN %s
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
#include <respec/respec.h>

struct flags {
  unsigned ready : 1;
  unsigned mode : 3;
  signed level : 4;
  char tag;
  short kind;
  volatile int state;
};
struct inner { int c; int d; };
struct outer { int pad; struct inner *b; };

int by_bitfields(struct flags *f);
int by_signed_bitfield(struct flags *f);
int by_char(struct flags *f);
int by_short(struct flags *f);
int by_volatile(struct flags *f);
int by_chain(struct outer *a);
int no_effect(struct flags *f, int x);

#ifdef MAIN
#include <stdio.h>
int main(void) {
  struct inner in = {7, 8};
  struct outer o = {0, &in};
  struct flags f = {1, 5, -3, 'x', 300, 2};
  printf("%d %d %d %d %d %d %d\n", by_bitfields(&f), by_signed_bitfield(&f), by_char(&f),
         by_short(&f), by_volatile(&f), by_chain(&o), no_effect(&f, 3));
  return 0;
}
#else
static int decode(struct flags *f) {
  switch (f->mode) {
  case 5: return f->ready ? 50 : 51;
  case 2: return 20;
  default: return -1;
  }
}
// CHECK-LABEL: define {{.*}} @by_bitfields(
// CHECK-NEXT: entry:
// CHECK-NEXT: ret i32 50
RESPEC_SPECIALIZE int by_bitfields(struct flags *f) {
  respec_assume(f->mode == 5);
  respec_assume(f->ready == 1);
  return decode(f);
}
// CHECK-LABEL: define {{.*}} @by_signed_bitfield(
// CHECK-NEXT: entry:
// CHECK-NEXT: ret i32 1
RESPEC_SPECIALIZE int by_signed_bitfield(struct flags *f) {
  respec_assume(f->level == -3);
  return f->level < 0 ? 1 : 2;
}
// CHECK-LABEL: define {{.*}} @by_char(
// CHECK-NEXT: entry:
// CHECK-NEXT: ret i32 10
RESPEC_SPECIALIZE int by_char(struct flags *f) {
  respec_assume(f->tag == 'x');
  return f->tag == 'x' ? 10 : 11;
}
// CHECK-LABEL: define {{.*}} @by_short(
// CHECK-NEXT: entry:
// CHECK-NEXT: ret i32 3
RESPEC_SPECIALIZE int by_short(struct flags *f) {
  respec_assume(f->kind == 300);
  switch (f->kind) {
  case 300: return 3;
  default: return 4;
  }
}
// CHECK-LABEL: define {{.*}} @by_volatile(
// CHECK: load volatile i32
// CHECK: load volatile i32
// CHECK-NEXT: ret i32 5
RESPEC_SPECIALIZE int by_volatile(struct flags *f) {
  respec_assume(f->state == 2);
  return f->state == 2 ? 5 : 6;
}
static int inner_c(struct outer *a) { return a->b->c == 7 ? 70 : 71; }
// CHECK-LABEL: define {{.*}} @by_chain(
// CHECK-NEXT: entry:
// CHECK-NEXT: ret i32 70
RESPEC_SPECIALIZE int by_chain(struct outer *a) {
  respec_assume(a->b->c == 7);
  return inner_c(a);
}
// WARN: assume-kinds.c:[[@LINE+3]]:{{[0-9]+}}: warning: assumption had no effect
// WERROR: assume-kinds.c:[[@LINE+2]]:{{[0-9]+}}: error: assumption had no effect
RESPEC_SPECIALIZE int no_effect(struct flags *f, int x) {
  respec_assume(x == 3);
  return f->kind;
}
// The mode fact (line 65) decided the switch in decode (line 55):
// EXPLAIN: assumption: {{.*}}assume-kinds.c:65:3: used at {{.*}}assume-kinds.c:55:
// EXPLAIN: assumption: {{.*}}assume-kinds.c:112:3: no effect
#endif
