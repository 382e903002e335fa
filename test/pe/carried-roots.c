// What is known about memory behind a pointer that is not an argument of the
// spec function (a pointer loaded from memory, like Lua's `base = ci->func + 1`)
// survives block entries: the facts move to the SSA value that carries the
// pointer into the block, then to that value's entry phi (normalizeForEntry and
// adoptCarriedRoots, pe/Generalization.cpp). On every edge the carrier equals
// that edge's pointer, so the meet of the edges' facts holds behind the phi;
// pointers derived from the same root keep their offset. Before, only the spec
// function's arguments kept their facts across a branch or into an unfolded
// callee, and a type tag just stored was loaded and tested again.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O0 --emit-llvm -o %t/spec.ll -q
// RUN: %FileCheck %s < %t/spec.ll
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
//
// Into an unfolded callee (a block entry): the tag just stored is known.
// CHECK-LABEL: define {{.*}} @into_callee(
// CHECK-NOT: load i8
// CHECK: ret i32 1
//
// Across a dynamic branch that both ways store the same tag, and through a
// derived pointer (base + 2): known after the join.
// CHECK-LABEL: define {{.*}} @across_join(
// CHECK-NOT: load i8
// CHECK: ret i32
//
// Ways that store different tags: the meet keeps nothing; the tag is loaded.
// CHECK-LABEL: define {{.*}} @disagreeing_ways(
// CHECK: load i8
// CHECK: ret i32
//
// In recursion (a function unfolded within its own unfolding, its static
// depth changing), `base` lives in three activations at once. A generic value
// in several frames carries a root only in the innermost (its entry phi is the
// one the block names): the innermost activation's tag stays known across its
// dynamic branch, the outer two are loaded again. Before, a value living in
// several frames carried nothing, and all three were loaded.
// CHECK-LABEL: define {{.*}} @in_recursion(
// CHECK-COUNT-2: load i8
// CHECK-NOT: load i8
// CHECK: ret i32
//
// A write through another pointer of the same type may alias: forgotten.
// CHECK-LABEL: define {{.*}} @aliasing_write(
// CHECK: load i8
// CHECK: ret i32
#include <respec/respec.h>
#include <stdint.h>

struct tvalue {
  long value;
  unsigned char tag;
};

int into_callee(struct tvalue **func);
int across_join(struct tvalue **func, int c);
int disagreeing_ways(struct tvalue **func, int c);
int in_recursion(struct tvalue **func, int c);
int aliasing_write(struct tvalue **func, struct tvalue *other, int c);

#ifndef MAIN
static int is_integer(const struct tvalue *o) { return o->tag == 3; }

RESPEC_SPECIALIZE int into_callee(struct tvalue **func) {
  struct tvalue *base = *func + 1;
  base[2].tag = 3;
  return is_integer(&base[2]);
}

RESPEC_SPECIALIZE int across_join(struct tvalue **func, int c) {
  struct tvalue *base = *func + 1;
  if (c) {
    base[2].value = c;
    base[2].tag = 3;
  } else {
    base[2].value = 7;
    base[2].tag = 3;
  }
  struct tvalue *r = base + 2;
  return is_integer(r) ? (int)r->value : -1;
}

RESPEC_SPECIALIZE int disagreeing_ways(struct tvalue **func, int c) {
  struct tvalue *base = *func + 1;
  if (c)
    base[1].tag = 3;
  else
    base[1].tag = 19;
  return is_integer(&base[1]);
}

static int walk(struct tvalue **func, int depth, int c) {
  struct tvalue *base = *func + depth;
  base->tag = 3;
  if (c > depth)
    base->value += c;
  int inner = depth > 0 ? walk(func, depth - 1, c) : 0;
  return inner * 2 + is_integer(base);
}

RESPEC_SPECIALIZE int in_recursion(struct tvalue **func, int c) {
  return walk(func, 2, c);
}

RESPEC_SPECIALIZE int aliasing_write(struct tvalue **func, struct tvalue *other, int c) {
  struct tvalue *base = *func + 1;
  base[0].tag = 3;
  if (c)
    other->tag = 19; /* may be base[0] */
  return is_integer(&base[0]);
}
#else
#include <stdio.h>
int main(void) {
  uint32_t x = 1, digest = 0;
  struct tvalue stack[8];
  struct tvalue *func = stack;
  for (int round = 0; round < 20000; round++) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    for (int i = 0; i < 8; i++)
      stack[i].value = (long)(x >> i), stack[i].tag = (unsigned char)(x >> (i + 3));
    int c = (int)(x % 5) - 2;
    /* `other` is sometimes the very register aliasing_write tests */
    struct tvalue *other = (x >> 20) % 2 ? &stack[1] : &stack[(x >> 21) % 8];
    digest = digest * 31 + (uint32_t)into_callee(&func);
    digest = digest * 31 + (uint32_t)across_join(&func, c);
    digest = digest * 31 + (uint32_t)disagreeing_ways(&func, c);
    digest = digest * 31 + (uint32_t)in_recursion(&func, c);
    digest = digest * 31 + (uint32_t)aliasing_write(&func, other, c);
    for (int i = 0; i < 8; i++)
      digest = digest * 31 + (uint32_t)stack[i].value + stack[i].tag;
  }
  printf("digest %08x\n", digest);
  return 0;
}
#endif
