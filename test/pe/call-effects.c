// Call effects (pe/CallEffects.h): a call kept residual forgets what the
// callee may write from this call site, found by following its pointers —
// through the stream's ops table and the procedure it is passed, which the
// caller knows. A stream's operation (an enum: C's "omnipotent char" type, so
// no type-based rule could keep it) and ops table stay static across a
// recursive walk that writes through both. Writes the analysis finds through a
// pointer the callee saved, through a pointer stored in the caller's object, or
// by a memcpy, are forgotten; a call through a pointer the caller does not know
// falls back to the type-based write summary. A completion stored through a
// pointer the analysis does not follow, into a request it let out there, is
// found when the request's completion is called.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O1 --emit-llvm -o %t/spec.ll -q
// RUN: %FileCheck %s < %t/spec.ll
// RUN: %respec explain %s --function put_list | %FileCheck --check-prefix=EXPLAIN %s
// RUN: %respec specialize %s --max-call-effects 0 -O1 --emit-llvm -o %t/off.ll -q
// RUN: %FileCheck --check-prefix=OFF %s < %t/off.ll
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

#include "Inputs/mem-stream.h"

typedef int (*visit_fn)(struct stream *, const struct node *);

int put_list(int *buf, int n, const struct node *list);
int put_saving(int *buf, int n, const struct node *list);
int put_counting(int *buf, int n, const struct node *list);
int put_copying(int *buf, int n, const struct node *list);
int put_unknown(int *buf, int n, const struct node *list, visit_fn visit);
int put_request(int *buf, int n, const struct node *list);
int put_staged(int *buf, int n, const struct node *list);
struct context;
int put_armed(int *buf, int n, const struct node *list, struct context *c);

struct context {
  struct request *pending;
};

#ifdef MAIN
#include <stdlib.h>
static struct context *context_new(void) { return calloc(1, sizeof(struct context)); }
static int visit_decode(struct stream *s, const struct node *n) {
  s->op = n ? DECODE : ENCODE;
  return 1;
}
static int calls(int *buf, int n, const struct node *list, int *results) {
  results[0] = put_list(buf, n, list);
  results[1] = put_saving(buf + 1, n, list);
  results[2] = put_counting(buf + 2, n, list);
  results[3] = put_copying(buf + 3, n, list);
  results[4] = put_unknown(buf + 4, n, list, visit_decode);
  results[5] = put_request(buf + 5, n, list);
  results[7] = put_staged(buf + 7, n, list);
  struct context *c = context_new();
  results[6] = put_armed(buf + 6, n, list, c);
  free(c);
  return 8;
}
// RUNS: digest
int main(void) { return run_lists(calls); }
#else

// Writes each value through the ops table, then recurses with the procedure
// it was given: on dynamic data, a residual call.
static int put_each(struct stream *s, const struct node *n, visit_fn next) {
  if (!n)
    return 1;
  if (!s->ops->put(s, n->value))
    return 0;
  return next(s, n->next);
}
static int put_all(struct stream *s, const struct node *n) { return put_each(s, n, put_all); }

// The same, keeping the stream in a global and writing its operation there.
static struct stream *saved;
static int put_all_saving(struct stream *s, const struct node *n) {
  saved = s;
  if (!n) {
    saved->op = DECODE;
    return 1;
  }
  return put_each(s, n, put_all_saving);
}

// Counts the calls through a pointer the stream holds.
static int put_all_counting(struct stream *s, const struct node *n) {
  ++*s->count;
  return put_each(s, n, put_all_counting);
}

// Moves the stream through an untyped copy.
static int put_all_copying(struct stream *s, const struct node *n) {
  struct stream moved = *s;
  if (n && moved.left > 0) {
    moved.cursor++;
    moved.left--;
  }
  memcpy(s, &moved, sizeof moved);
  return n ? put_all_copying(s, n->next) : 1;
}

// Keeps its completion in a request on its own stack, beside a length as wide
// as a pointer, which could be an address: the callee's stack is tracked by
// offset, so the call through the completion is still found.
struct request {
  int (*done)(struct stream *, const struct request *);
  size_t len;
};
static int request_done(struct stream *s, const struct request *r) {
  return s->left >= 0 && r->len > 0;
}
static int put_all_request(struct stream *s, const struct node *n) {
  struct request r;
  r.done = request_done;
  r.len = (size_t)1 << 16;
  if (!n)
    return r.done(s, &r);
  if (!s->ops->put(s, n->value))
    return 0;
  return put_all_request(s, n->next);
}

// Every level but the first makes a request with the plain completion, hands
// it to a context the caller does not know, and calls what the context's code
// left there: the decoding completion, stored through a pointer that points to
// no memory the analysis knows. Its write to the stream's operation is found
// only because what is stored through such pointers can be read back from
// memory they may reach.
static int request_decode(struct stream *s, const struct request *r) {
  s->op = DECODE;
  return r->len > 0;
}
static void arm(struct context *c) { c->pending->done = request_decode; }
static int armed;
static int put_all_armed(struct stream *s, const struct node *n, struct context *c) {
  if (s->count) {
    struct request r;
    r.done = request_done;
    r.len = 1;
    c->pending = &r;
    arm(c);
    int done = r.done(s, &r);
    c->pending = NULL;
    if (!done)
      return 0;
  }
  s->count = &armed;
  if (!n)
    return 1;
  if (!s->ops->put(s, n->value))
    return 0;
  return put_all_armed(s, n->next, c);
}

// Stages the values left in a buffer of its own with a walking pointer: the
// walk converges (past eight offsets into one block, a pointer points anywhere
// in it), so the call is still analyzed within its work budget.
static int put_all_staged(struct stream *s, const struct node *n) {
  int staged[16], *at = staged;
  for (const struct node *m = n; m && at < staged + 16; m = m->next)
    *at++ = m->value;
  if (!n)
    return 1;
  if (!s->ops->put(s, staged[0]))
    return 0;
  return put_all_staged(s, n->next);
}

static int finish(struct stream *s) {
  if (s->op == ENCODE)
    return s->ops->put(s, 42);
  int v;
  return s->ops->get(s, &v) ? v : -2;
}

// After the walk, the operation and the ops table are what they were: the
// dispatch folds and mem_put is unfolded.
// CHECK-LABEL: define {{.*}} @put_list(
// CHECK: call {{.*}} @put_all(
// CHECK-NOT: call {{.*}} %
// CHECK-NOT: load i32, ptr %s,
// CHECK: store i32 42
// CHECK: ret i32
// EXPLAIN: residual calls whose writes were found at the call site: 1
// OFF-LABEL: define {{.*}} @put_list(
// OFF: call {{.*}} @put_all(
// OFF: load i32, ptr %s,
RESPEC_SPECIALIZE int put_list(int *buf, int n, const struct node *list) {
  struct stream s = {ENCODE, &mem_ops, buf, n, NULL};
  if (!put_all(&s, list))
    return -1;
  return finish(&s);
}

// The stream escaped into `saved` and its operation was written through it.
// CHECK-LABEL: define {{.*}} @put_saving(
// CHECK: call {{.*}} @put_all_saving(
// CHECK: load i32, ptr %s,
// CHECK: ret i32
RESPEC_SPECIALIZE int put_saving(int *buf, int n, const struct node *list) {
  struct stream s = {ENCODE, &mem_ops, buf, n, NULL};
  if (!put_all_saving(&s, list))
    return -1;
  return finish(&s);
}

// The count, a local of the caller, was written through the stream; the
// stream's operation was not.
// CHECK-LABEL: define {{.*}} @put_counting(
// CHECK: call {{.*}} @put_all_counting(
// CHECK-NOT: load i32, ptr %s,
// CHECK: load i32, ptr %count
// CHECK: ret i32
RESPEC_SPECIALIZE int put_counting(int *buf, int n, const struct node *list) {
  int count = 0;
  struct stream s = {ENCODE, &mem_ops, buf, n, &count};
  if (!put_all_counting(&s, list))
    return -1;
  return finish(&s) * 100 + count;
}

// A memcpy over the stream writes all of it, untyped.
// CHECK-LABEL: define {{.*}} @put_copying(
// CHECK: call {{.*}} @put_all_copying(
// CHECK: load i32, ptr %s,
// CHECK: ret i32
RESPEC_SPECIALIZE int put_copying(int *buf, int n, const struct node *list) {
  struct stream s = {ENCODE, &mem_ops, buf, n, NULL};
  if (!put_all_copying(&s, list))
    return -1;
  return finish(&s);
}

// The procedure is a run-time argument: nothing says what it writes.
// CHECK-LABEL: define {{.*}} @put_unknown(
// CHECK: call i32 %visit(
// CHECK: load i32, ptr %s,
// CHECK: ret i32
RESPEC_SPECIALIZE int put_unknown(int *buf, int n, const struct node *list, visit_fn visit) {
  struct stream s = {ENCODE, &mem_ops, buf, n, NULL};
  if (!put_each(&s, list, visit))
    return -1;
  return finish(&s);
}
// A request with a long length on the callee's stack changes nothing.
// CHECK-LABEL: define {{.*}} @put_request(
// CHECK: call {{.*}} @put_all_request(
// CHECK-NOT: load i32, ptr %s,
// CHECK: ret i32
RESPEC_SPECIALIZE int put_request(int *buf, int n, const struct node *list) {
  struct stream s = {ENCODE, &mem_ops, buf, n, NULL};
  if (!put_all_request(&s, list))
    return -1;
  return finish(&s);
}
// The operation is read again after the walk.
// CHECK-LABEL: define {{.*}} @put_armed(
// CHECK: call {{.*}} @put_all_armed(
// CHECK: load i32, ptr %s,
// CHECK: ret i32
RESPEC_SPECIALIZE int put_armed(int *buf, int n, const struct node *list, struct context *c) {
  struct stream s = {ENCODE, &mem_ops, buf, n, NULL};
  if (!put_all_armed(&s, list, c))
    return -1;
  return finish(&s);
}
// CHECK-LABEL: define {{.*}} @put_staged(
// CHECK: call {{.*}} @put_all_staged(
// CHECK-NOT: load i32, ptr %s,
// CHECK: ret i32
RESPEC_SPECIALIZE int put_staged(int *buf, int n, const struct node *list) {
  struct stream s = {ENCODE, &mem_ops, buf, n, NULL};
  if (!put_all_staged(&s, list))
    return -1;
  return finish(&s);
}
#endif
