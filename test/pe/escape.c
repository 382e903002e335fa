// The escape rule (pe/MemoryState.h): a pointer to a local that leaves precise
// tracking makes the local's later writes visible to the specializer. Each spec
// below was miscompiled before the rule was kept in one place; the program runs
// the specialized and the generic build on the same inputs and compares.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %FileCheck %s < %t/specialized.out
#include <respec/respec.h>
#include <stdint.h>

struct ref { int *p; };
struct s { int op; int pad; };
struct big { int64_t a, b, c; int8_t f; }; // > 16 bytes: passed in memory (byval)

int into_array(unsigned i);
int join(int sel);
int copy_out(struct ref *out);
int fact_then_alias(struct s *p, struct s *q);
uint32_t by_value(void);
unsigned select_then_call(unsigned k);
void ext_nop(void);

#ifdef MAIN
#include <stdio.h>
void ext_nop(void) {}
int main(void) {
  struct ref r;
  struct s S = {1, 0};
  // CHECK: into_array 9 1 1 1
  printf("into_array %d %d %d %d\n", into_array(0), into_array(1), into_array(2), into_array(7));
  // CHECK-NEXT: join 44 43
  printf("join %d %d\n", join(1), join(0));
  // CHECK-NEXT: copy_out 42
  printf("copy_out %d\n", copy_out(&r));
  // CHECK-NEXT: fact_then_alias 2
  printf("fact_then_alias %d\n", fact_then_alias(&S, &S));
  S.op = 1;
  struct s T = {1, 0};
  // CHECK-NEXT: fact_then_alias (distinct) 1
  printf("fact_then_alias (distinct) %d\n", fact_then_alias(&S, &T));
  // CHECK-NEXT: by_value 3
  printf("by_value %u\n", by_value());
  // CHECK-NEXT: select_then_call 5 5
  printf("select_then_call %u %u\n", select_then_call(1), select_then_call(0));
  return 0;
}
#else
// A pointer from a dynamic index, kept in a local struct, written through.
RESPEC_SPECIALIZE int into_array(unsigned i) {
  int a[4] = {1, 2, 3, 4};
  struct ref r;
  r.p = &a[i & 3];
  *r.p = 9;
  return a[0];
}
// Two paths store different pointers into one field: the join escapes both.
RESPEC_SPECIALIZE int join(int sel) {
  int x = 1, y = 2;
  struct ref r;
  if (sel)
    r.p = &x;
  else
    r.p = &y;
  *r.p = 42;
  return x + y;
}
// A struct copy into the caller's memory carries the pointer out.
RESPEC_SPECIALIZE int copy_out(struct ref *out) {
  int x = 1;
  struct ref l = {&x};
  *out = l;
  *out->p = 42;
  return x;
}
// A stated fact ends at a store that may alias it (same type, another pointer).
RESPEC_SPECIALIZE int fact_then_alias(struct s *p, struct s *q) {
  respec_assume(p->op == 1);
  q->op = 2;
  return p->op;
}
// The callee writes its by-value copy, not the caller's object.
static struct big g = {1, 2, 3, 3};
static int set_flag(struct big p) {
  p.f = 1;
  return p.f;
}
RESPEC_SPECIALIZE uint32_t by_value(void) {
  g.f = 3;
  set_flag(g);
  return g.f;
}
// An address that flows only into a dynamic choice still escapes before a call.
RESPEC_SPECIALIZE unsigned select_then_call(unsigned k) {
  unsigned x = 0;
  unsigned *px = &x;
  unsigned **unused = k ? 0 : &px;
  (void)unused;
  ext_nop();
  *px = 5;
  return x;
}
#endif
