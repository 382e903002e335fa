// Rerolling (pe/Reroll.h): a long loop with a static trip count is unrolled by
// the specializer (its checks fold), then the straight-line residual code that
// repeats with constants moving by a fixed step becomes a counted loop again.
// A window that differs splits the run; --reroll 0 keeps the straight code.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O2 --emit-llvm -o %t/spec.ll -q
// RUN: %FileCheck %s < %t/spec.ll
// RUN: %respec specialize %s -O2 --reroll 0 --emit-llvm -o - -q | %FileCheck --check-prefix=STRAIGHT %s
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

int encode_300(uint32_t *out, const uint32_t *in);
int encode_with_marker(uint32_t *out, const uint32_t *in);
int encode_separated(uint32_t *out, const uint32_t *in);

#ifdef MAIN
#include <stdio.h>
int main(void) {
  uint32_t in[400], out[400];
  unsigned long digest = 0;
  for (int round = 0; round < 50; round++) {
    for (int i = 0; i < 400; i++)
      in[i] = (uint32_t)(i * 2654435761u + round), out[i] = 0;
    digest = digest * 31 + (unsigned)encode_300(out, in);
    digest = digest * 31 + (unsigned)encode_with_marker(out + 1, in);
    digest = digest * 31 + (unsigned)encode_separated(out + 2, in);
    for (int i = 0; i < 400; i++)
      digest = digest * 31 + out[i];
  }
  // RUNS: digest
  printf("digest %lx\n", digest);
  return 0;
}
#else

// A cursor-and-remaining-space stream, as in a marshaling library.
struct sink { uint32_t *pos; int left; };
static int put(struct sink *s, uint32_t v) {
  if (s->left < 4)
    return 0;
  *s->pos++ = __builtin_bswap32(v);
  s->left -= 4;
  return 1;
}
static int put_all(struct sink *s, const uint32_t *v, int n, int marker_at) {
  for (int i = 0; i < n; i++)
    if (!put(s, i == marker_at ? 0xffffffffu : v[i]))
      return -1;
  return 1200 - s->left;
}

// The last element's window leaves out the next element's addresses: the
// loop runs 300 times and computes them unused, no element is left after it.
// CHECK-LABEL: define {{.*}} @encode_300(
// CHECK: respec.reroll:
// CHECK: %respec.k = phi i64
// CHECK: call i32 @llvm.bswap.i32
// CHECK: br i1 %{{.*}}, label %respec.reroll.exit, label %respec.reroll
// CHECK-NOT: respec.reroll{{[0-9]*}}:
// CHECK: respec.reroll.exit:
// CHECK-NEXT: ret i32 1200
// STRAIGHT-LABEL: define {{.*}} @encode_300(
// STRAIGHT-NOT: phi
// STRAIGHT-COUNT-300: call i32 @llvm.bswap.i32
RESPEC_SPECIALIZE int encode_300(uint32_t *out, const uint32_t *in) {
  struct sink s = {out, 1200};
  return put_all(&s, in, 300, -1);
}

// The marker's window differs: one loop before it, one after.
// CHECK-LABEL: define {{.*}} @encode_with_marker(
// CHECK: respec.reroll:
// CHECK: respec.reroll.exit:
// CHECK: respec.reroll{{[0-9]+}}:
// CHECK: ret i32 1200
RESPEC_SPECIALIZE int encode_with_marker(uint32_t *out, const uint32_t *in) {
  struct sink s = {out, 1200};
  return put_all(&s, in, 300, 150);
}

// Here the last element's window leaves out a store (the separator after it),
// which the loop must not run: that element stays after the loop.
// CHECK-LABEL: define {{.*}} @encode_separated(
// CHECK: respec.reroll:
// CHECK: respec.reroll.exit:
// CHECK-NOT: store i32 741092396
// CHECK: call i32 @llvm.bswap.i32
// CHECK-NEXT: store i32
// CHECK-NEXT: ret i32 1196
static int put_separated(struct sink *s, const uint32_t *v, int n) {
  for (int i = 0; i < n; i++) {
    if (!put(s, v[i]))
      return -1;
    if (i + 1 < n && !put(s, 0x2c2c2c2cu))
      return -1;
  }
  return 1200 - s->left;
}

RESPEC_SPECIALIZE int encode_separated(uint32_t *out, const uint32_t *in) {
  struct sink s = {out, 1200};
  return put_separated(&s, in, 150);
}
#endif
