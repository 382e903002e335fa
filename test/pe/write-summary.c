// Write summaries (pe/WriteSummary.h): a call respec keeps residual but can
// see forgets only what the callee may write, by C's type rules (clang's TBAA
// tags). A stream's operation and ops table stay static across a recursive
// call that only moves its cursor, so the dispatch after it folds; a callee
// that writes through an untyped copy forgets everything.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O1 --emit-llvm -o %t/spec.ll -q
// RUN: %FileCheck %s < %t/spec.ll
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
#include <string.h>

enum op { ENCODE, DECODE };
struct stream;
struct ops { int (*put)(struct stream *, int); int (*get)(struct stream *, int *); };
struct stream { enum op op; const struct ops *ops; int *cursor; int left; };
struct node { int value; struct node *next; };

int put_list(int *buf, int n, const struct node *list);
int put_list_copying(int *buf, int n, const struct node *list);

#ifdef MAIN
#include <stdio.h>
int main(void) {
  struct node nodes[8];
  int buf[16];
  unsigned long digest = 0;
  for (int len = 0; len <= 8; len++) {
    for (int i = 0; i < len; i++) {
      nodes[i].value = i * 7 - 3;
      nodes[i].next = i + 1 < len ? &nodes[i + 1] : NULL;
    }
    for (int n = 0; n <= 12; n++) {
      memset(buf, 0, sizeof buf);
      int r = put_list(buf, n, len ? nodes : NULL);
      int s = put_list_copying(buf + 1, n, len ? nodes : NULL);
      for (int i = 0; i < 16; i++)
        digest = digest * 31 + (unsigned)buf[i];
      digest = digest * 31 + (unsigned)r * 7 + (unsigned)s;
    }
  }
  // RUNS: digest
  printf("digest %lx\n", digest);
  return 0;
}
#else

static int mem_put(struct stream *s, int v) {
  if (s->left < 1)
    return 0;
  *s->cursor++ = v;
  s->left--;
  return 1;
}
static int mem_get(struct stream *s, int *v) {
  if (s->left < 1)
    return 0;
  *v = *s->cursor++;
  s->left--;
  return 1;
}
static const struct ops mem_ops = {mem_put, mem_get};

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
