// A pointer into an object at a run-time offset keeps the lowest offset it
// may have, so a write through it forgets only the cells from there on. A
// stream whose cursor and bytes share one allocation with its header (an XDR
// stream's x_op beside x_private, a buffer behind its struct) keeps its
// header static through a residual loop that writes the bytes; the cursor
// itself, met from different places, is still a pointer into the object,
// in an SSA value or in the header's cell. A cursor moving backwards, a
// signed index or a write that starts below the header forget the header.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O1 --emit-llvm -o - -q | %FileCheck %s
// RUN: %respec specialize %s -O0 --emit-llvm -o - -q | %FileCheck --check-prefix=RAW %s
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
#include <respec/respec.h>
#include <string.h>

enum op { ENCODE, DECODE, FREE };
struct stream { enum op op; unsigned room; unsigned char *pos; };
struct client { struct stream out; unsigned char buffer[64]; };

int encode(const int *values, unsigned n);
int fill(unsigned n, unsigned char byte);
int fill_backwards(unsigned n);
int store_at(unsigned index, int signed_index);
int clear(unsigned n);
int back(unsigned n, int skip);

#ifdef MAIN
#include <stdio.h>
int main(void) {
  int values[20];
  for (int i = 0; i < 20; i++)
    values[i] = i * 2654435761u;
  for (unsigned n = 0; n <= 20; n++)
    printf("%u: %d %d %d\n", n, encode(values, n), fill(n * 3, (unsigned char)n),
           fill_backwards(n * 2));
  for (unsigned i = 0; i < 40; i++)
    printf("%u: %d %d %d %d %d\n", i, store_at(i, 0), store_at(i, (int)i - 20), clear(i * 7),
           back(i * 1000, 0), back(i, 1));
  return 0;
}
#else
static unsigned checksum(const unsigned char *bytes, unsigned n) {
  unsigned sum = 0;
  for (unsigned i = 0; i < n; i++)
    sum = sum * 31 + bytes[i];
  return sum;
}

static int put(struct stream *s, const int *v) {
  switch (s->op) {
  case ENCODE:
    if (s->room < 4)
      return 0;
    s->room -= 4;
    memcpy(s->pos, v, 4);
    s->pos += 4;
    return 1;
  case DECODE:
    if (s->room < 4)
      return 0;
    s->room -= 4;
    memcpy((void *)v, s->pos, 4);
    s->pos += 4;
    return 1;
  case FREE:
    return 1;
  }
  return 0;
}

// The loop stays residual (n is dynamic), the operation does not: no switch
// on it, and no decoding path.
// CHECK-LABEL: define {{.*}} @encode(
// CHECK-NOT: switch
// CHECK: ret i32
RESPEC_SPECIALIZE int encode(const int *values, unsigned n) {
  struct client c;
  c.out.op = ENCODE;
  c.out.room = sizeof c.buffer;
  c.out.pos = c.buffer;
  for (unsigned i = 0; i < n; i++)
    if (!put(&c.out, &values[i]))
      return -1;
  unsigned used = sizeof c.buffer - c.out.room;
  return c.out.op == ENCODE ? (int)checksum(c.buffer, used) : -2;
}

// A cursor in an SSA value, bounded by the buffer's size: the room stays
// static and so does the operation after the loop.
// CHECK-LABEL: define {{.*}} @fill(
// CHECK-NOT: load i32, ptr %c
// CHECK: ret i32
RESPEC_SPECIALIZE int fill(unsigned n, unsigned char byte) {
  struct client c;
  c.out.op = DECODE;
  c.out.room = 7;
  unsigned char *p = c.buffer;
  for (unsigned i = 0; i < n && i < sizeof c.buffer; i++)
    *p++ = byte;
  return (int)(c.out.op * 1000 + c.out.room) + (n ? c.buffer[0] : 0);
}

// Moving backwards from inside the buffer, the cursor reaches the header
// (in the object: a char walk over the struct): the operation is read back.
// CHECK-LABEL: define {{.*}} @fill_backwards(
// CHECK: [[OP:%.*]] = load i32, ptr %c
// CHECK-NEXT: ret i32 [[OP]]
RESPEC_SPECIALIZE int fill_backwards(unsigned n) {
  struct client c;
  c.out.op = FREE;
  c.out.room = 0;
  unsigned char *p = (unsigned char *)&c + 20;
  for (unsigned i = 0; i < n && i < 20; i++)
    *--p = 1;
  return (int)c.out.op;
}

// An unsigned index writes at the buffer or above: the room stays static.
// A signed one may write below the buffer: the room is read back.
// CHECK-LABEL: define {{.*}} @store_at(
// CHECK: [[ROOM:%.*]] = load i32
// CHECK: phi i32 [ 5, %{{.*}} ], [ [[ROOM]], %{{.*}} ]
RESPEC_SPECIALIZE int store_at(unsigned index, int signed_index) {
  struct client c;
  c.out.op = ENCODE;
  c.out.room = 5;
  if (signed_index == 0) {
    c.buffer[index % sizeof c.buffer] = 9;
    return (int)c.out.room;
  }
  if (signed_index >= -(int)sizeof c.out && signed_index < 0)
    c.buffer[signed_index] = 0;
  return (int)c.out.room;
}

// A copy of run-time length writes from its destination on: the header and
// the byte before the destination stay static.
// (LLVM's cleanup would fold it too: the raw residual code shows respec's.)
// RAW-LABEL: define {{.*}} @clear(
// RAW: call void @llvm.memset
// RAW: add nsw i32 3000,
RESPEC_SPECIALIZE int clear(unsigned n) {
  struct client c;
  c.out.room = 3;
  memset(c.buffer, 7, sizeof c.buffer);
  memset(c.buffer + 1, 0, n % (sizeof c.buffer - 1));
  return (int)c.out.room * 1000 + c.buffer[0] + c.buffer[n % sizeof c.buffer];
}

// A cursor moving backwards in a loop with two entries, which has no natural
// header: the meet that closes the cycle widens there too, or each round of
// the generalization would lower the bound by one byte of the megabyte.
// CHECK-LABEL: define {{.*}} @back(
// CHECK: store i8 1
static char ring[1 << 20];
RESPEC_SPECIALIZE int back(unsigned n, int skip) {
  char *p = ring + sizeof ring;
  if (skip)
    goto check;
top:
  *--p = 1;
check:
  if (n-- > 0 && p != ring)
    goto top;
  return (int)(p - ring);
}
#endif
