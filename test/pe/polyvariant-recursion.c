// Polyvariant recursion (pe/UnfoldCalls.cpp, RecursionVariants): a recursive
// call whose static arguments repeat an enclosing activation's calls a
// function specialized for those static arguments, not the generic function.
// A glob matcher over a static pattern keeps no pattern interpretation; a tree
// walk with a static visitor calls the visitor inline at every level.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O1 --emit-llvm -o %t/spec.ll -q
// RUN: %FileCheck %s < %t/spec.ll
// RUN: %respec explain %s --function glob | %FileCheck --check-prefix=EXPLAIN %s
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %FileCheck --check-prefix=RUNS %s < %t/specialized.out
#include <respec/respec.h>
#include <stddef.h>

struct node { int value; struct node *left, *right; };

int glob(const char *s);
int either(const char *s);
int declared(const char *s);
long sum_odd(const struct node *t);

#ifdef MAIN
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  static const char alphabet[] = "abcx";
  char s[12];
  unsigned x = 7, counts[3] = {0, 0, 0};
  for (int round = 0; round < 200000; round++) {
    x = x * 1103515245u + 12345u;
    size_t n = (x >> 16) % 11;
    for (size_t i = 0; i < n; i++) {
      x = x * 1103515245u + 12345u;
      s[i] = alphabet[(x >> 16) % 4];
    }
    s[n] = 0;
    counts[0] += glob(s);
    counts[1] += either(s);
    counts[2] += declared(s);
  }
  // RUNS: glob 1 0 1 0
  printf("glob %d %d %d %d\n", glob("ab?c"), glob("abc"), glob("aXXbcc"), glob(""));
  // RUNS: counts
  printf("counts %u %u %u\n", counts[0], counts[1], counts[2]);
  struct node nodes[64];
  for (int i = 0; i < 64; i++) {
    x = x * 1103515245u + 12345u;
    nodes[i].value = (int)(x >> 8) - (1 << 22);
    nodes[i].left = 2 * i + 1 < 64 ? &nodes[2 * i + 1] : NULL;
    nodes[i].right = 2 * i + 2 < 64 ? &nodes[2 * i + 2] : NULL;
  }
  printf("sum_odd %ld %ld\n", sum_odd(nodes), sum_odd(&nodes[5]));
  return 0;
}
#else

// '*' any run, '?' one character, others themselves.
static int match(const char *p, const char *s) {
  if (*p == 0)
    return *s == 0;
  if (*p == '*')
    return match(p + 1, s) || (*s && match(p, s + 1));
  if (*s && (*p == '?' || *p == *s))
    return match(p + 1, s + 1);
  return 0;
}

// The variants compare with the pattern's characters as immediates: no load of
// the pattern, no comparison with '*' or '?'.
// CHECK-LABEL: define {{.*}} @glob(
// CHECK-NOT: @.str
// CHECK: call {{.*}} @match.respec.recursion(
// EXPLAIN: functions specialized for a recursive call: 1
RESPEC_SPECIALIZE int glob(const char *s) { return match("a*b?c", s); }

// Two '*': two variants, each recursing into itself or the other.
RESPEC_SPECIALIZE int either(const char *s) { return match("*a*c*", s); }

// A pattern in writable memory the spec declares fixed: the variants read it
// as static memory too (they run within the spec).
char pattern[] = "?b*a";
// CHECK-LABEL: define {{.*}} @declared(
// CHECK-NOT: @pattern
// CHECK: call {{.*}} @match.respec.recursion
RESPEC_SPECIALIZE int declared(const char *s) {
  respec_static_memory(pattern, sizeof pattern);
  return match(pattern, s);
}

typedef long visit_fn(const struct node *);
static long walk(const struct node *t, visit_fn *visit) {
  if (!t)
    return 0;
  return visit(t) + walk(t->left, visit) + walk(t->right, visit);
}
static long odd_value(const struct node *t) { return t->value & 1 ? t->value : 0; }

// The visitor is called directly (inlined) in the variant, not through a pointer.
// CHECK-LABEL: define {{.*}} @sum_odd(
// CHECK: call {{.*}} @walk.respec.recursion(
RESPEC_SPECIALIZE long sum_odd(const struct node *t) { return walk(t, odd_value); }

// The variants, after the spec functions:
// CHECK-LABEL: define internal {{.*}} @match.respec.recursion(
// CHECK-NOT: @.str
// CHECK-NOT: i8 42
// CHECK-NOT: i8 63
// CHECK: {{^}$}}
// CHECK-NOT: @pattern
// CHECK-LABEL: define internal {{.*}} @walk.respec.recursion(
// CHECK-NOT: call {{.*}} %visit
// CHECK-NOT: @odd_value
// CHECK: {{^}$}}
#endif
