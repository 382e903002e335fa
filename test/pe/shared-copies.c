// A callee whose unfolded copies are mostly residual code (here every read of a
// stream known only at run time) is unfolded --max-copies times (8 by
// default); from then on its calls go to the generic function (or, with static
// arguments, to one function specialized for them). With --max-copies 0 all
// twelve reads are unfolded.
//
// RUN: %respec specialize %s -O0 --emit-llvm -o - -q | %FileCheck %s
// RUN: %respec specialize %s -O0 --emit-llvm -o - -q --max-copies 0 | %FileCheck --check-prefix=ALL %s
// RUN: %respec explain %s --color=never 2>&1 | %FileCheck --check-prefix=NOTE %s
//
// CHECK-LABEL: define {{.*}} @sum12(
// CHECK-COUNT-4: call i32 @get(
// CHECK-NOT: call i32 @get(
// CHECK: ret i32
// ALL-LABEL: define {{.*}} @sum12(
// ALL-NOT: call i32 @get(
// ALL: ret i32
// NOTE: note: {{.*}}shared-copies.c:50:12: call to 'get' kept residual: its unfolded copies were mostly residual code
#include <respec/respec.h>

struct stream {
  const unsigned char *next, *end;
  int (*refill)(struct stream *);
  int refills;
};

static int slow_get(struct stream *s) {
  while (s->next + 4 > s->end) {
    if (s->refills > 100 || !s->refill(s))
      return -1;
    s->refills++;
  }
  int v = s->next[0] | s->next[1] << 8 | s->next[2] << 16 | s->next[3] << 24;
  s->next += 4;
  return v;
}

static int get(struct stream *s) {
  if (s->next + 4 <= s->end) {
    int v = s->next[0] | s->next[1] << 8 | s->next[2] << 16 | s->next[3] << 24;
    s->next += 4;
    return v;
  }
  return slow_get(s);
}

RESPEC_SPECIALIZE int sum12(struct stream *s) {
  int sum = 0;
  for (int i = 0; i < 12; i++)
    sum += get(s);
  return sum;
}
