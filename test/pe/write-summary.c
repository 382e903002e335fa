// Write summaries (pe/WriteSummary.h): a call respec keeps residual but can
// see forgets only what the callee may write, by C's type rules (clang's TBAA
// tags), when its call site is not analyzed (--max-call-effects 0; see
// call-effects.c). A stream's operation and ops table stay static across a recursive
// call that only moves its cursor, so the dispatch after it folds; a callee
// that writes through an untyped copy forgets everything.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s --max-call-effects 0 -O1 --emit-llvm -o %t/spec.ll -q
// RUN: %FileCheck %s < %t/spec.ll
// RUN: %respec specialize %s --max-call-effects 0 -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %FileCheck --check-prefix=RUNS %s < %t/specialized.out
#include <respec/respec.h>
#include <stddef.h>
#include <string.h>

#include "Inputs/mem-stream.h"

int put_list(int *buf, int n, const struct node *list);
int put_list_copying(int *buf, int n, const struct node *list);

#ifdef MAIN
static int calls(int *buf, int n, const struct node *list, int *results) {
  results[0] = put_list(buf, n, list);
  results[1] = put_list_copying(buf + 1, n, list);
  return 2;
}
// RUNS: digest
int main(void) { return run_lists(calls); }
#else

// Moves the cursor past the list (recursion on dynamic data: a residual call).
static int skip(struct stream *s, const struct node *n) {
  if (!n)
    return 1;
  if (s->left < 1)
    return 0;
  s->cursor++;
  s->left--;
  return skip(s, n->next);
}

// The same, but writing the stream back through an untyped copy.
static int skip_copying(struct stream *s, const struct node *n) {
  if (!n)
    return 1;
  struct stream moved = *s;
  if (moved.left < 1)
    return 0;
  moved.cursor++;
  moved.left--;
  memcpy(s, &moved, sizeof moved);
  return skip_copying(s, n->next);
}

static int put_after(struct stream *s, const struct node *list, int (*move)(struct stream *, const struct node *)) {
  if (!move(s, list))
    return -1;
  // After the call: the operation and the ops table are what they were.
  if (s->op == ENCODE)
    return s->ops->put(s, 42);
  int v;
  return s->ops->get(s, &v) ? v : -2;
}

// CHECK-LABEL: define {{.*}} @put_list(
// CHECK: call {{.*}} @skip(
// CHECK-NOT: @mem_ops
// CHECK-NOT: call {{.*}} %
// CHECK: store i32 42
// CHECK: ret i32
RESPEC_SPECIALIZE int put_list(int *buf, int n, const struct node *list) {
  struct stream s = {ENCODE, &mem_ops, buf, n};
  return put_after(&s, list, skip);
}

// CHECK-LABEL: define {{.*}} @put_list_copying(
// CHECK: call {{.*}} @skip_copying(
// CHECK: load ptr, ptr %{{.*}}, !tbaa
// CHECK: call i32 %{{.*}}(ptr {{.*}}%s, i32 noundef 42)
// CHECK: ret i32
RESPEC_SPECIALIZE int put_list_copying(int *buf, int n, const struct node *list) {
  struct stream s = {ENCODE, &mem_ops, buf, n};
  return put_after(&s, list, skip_copying);
}
#endif
