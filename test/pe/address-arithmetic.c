// Addresses as integers (pe/EvaluateValues.cpp, addressArithmetic): the
// distance between two pointers into one object is static, and so is the
// pointer made again from an address moved by a constant. PCRE2's match()
// remembers a group's frame as its byte offset in the frames vector
// (`(char *)F - (char *)frames`) and finds the frame again from it; when the
// offset was dynamic, the frame found was at an unknown place, and a write
// through it forgot every frame (the opcode dispatch of a backtracking
// pattern stayed residual). An address that leaves as an integer escapes: the
// external function below writes through it, and the specialized code reads
// what it wrote; so does one of two addresses chosen at run time, passed
// through a function declared pure and made a pointer again. Addresses compare
// statically only inside their objects: an address moved below its array by
// integer arithmetic is not above the array's end, and the end of one array
// may be the start of another (the stack's layout decides: not a differential
// output). An address passed as an integer to a recursive function is an
// integer argument, and one in another address space is left to run time.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O1 --emit-llvm -o - -q | %FileCheck %s
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
#include <respec/respec.h>
#include <stdint.h>

struct frame {
  const unsigned char *pc;
  long group_offset; // where the frame of the enclosing group is
  int value;
};

static const unsigned char program[] = {3, 5, 7};

int group_frame(int dynamic);
int moved_address(int dynamic);
int leaked_address(int dynamic);
int chosen_address(int dynamic);
int count_backwards(int dynamic);
int adjacent(int dynamic);
int sum_table(int n);
int segment_index(int dynamic);
const int *table(void);
void write_through(uintptr_t address, int value);
uintptr_t same_address(uintptr_t address);

#ifdef MAIN
#include <stdio.h>
void write_through(uintptr_t address, int value) { *(int *)address = value; }
uintptr_t same_address(uintptr_t address) { return address; }
static const int contents[4] = {1, 2, 3, 4};
const int *table(void) { return contents; }
int main(void) {
  for (int d = -3; d <= 3; d++)
    printf("%d %d %d %d %d %d\n", group_frame(d), moved_address(d), leaked_address(d),
           chosen_address(d), count_backwards(d), sum_table(d));
  return 0;
}
#else
RESPEC_PURE(same_address);
RESPEC_STABLE(table, 4 * sizeof(int));

// The frame found again from its offset is the tracked frame: its program
// counter folds, and a write through it forgets nothing else.
// CHECK-LABEL: define {{.*}} @group_frame(
// CHECK-NOT: load
// CHECK-NOT: ptrtoint
// CHECK: ret i32
RESPEC_SPECIALIZE int group_frame(int dynamic) {
  struct frame frames[4];
  frames[1].pc = program + 1;
  frames[1].value = dynamic;
  struct frame *F = &frames[3];
  F->pc = program;
  F->group_offset = (char *)&frames[1] - (char *)frames;
  struct frame *group = (struct frame *)((char *)frames + F->group_offset);
  group->value += 1; // a write through the frame found again
  return *group->pc + *F->pc + group->value;
}

// The same through uintptr_t: an address moved by a constant, back to a pointer.
// CHECK-LABEL: define {{.*}} @moved_address(
// CHECK-NOT: load
// CHECK-NOT: ptrtoint
// CHECK: ret i32
RESPEC_SPECIALIZE int moved_address(int dynamic) {
  int cells[3] = {dynamic, 10, 20};
  uintptr_t address = (uintptr_t)cells;
  int *second = (int *)(address + sizeof(int));
  uintptr_t back = (uintptr_t)second - sizeof(int);
  return *second + *(int *)back;
}

// The address leaves as an integer: the cell is written behind respec's back
// and read again after the call.
// CHECK-LABEL: define {{.*}} @leaked_address(
// CHECK: ptrtoint
// CHECK: call void @write_through(
// CHECK: load i32
RESPEC_SPECIALIZE int leaked_address(int dynamic) {
  int cells[2] = {1, 2};
  write_through((uintptr_t)&cells[1] - sizeof(int), dynamic);
  return cells[0] * 3 + cells[1];
}

// Two addresses into one object meet at the join into one known only at run
// time; written through, the cells are read again.
// CHECK-LABEL: define {{.*}} @chosen_address(
// CHECK: call {{.*}} @same_address(
// CHECK: store i32 7
// CHECK: load i32
// CHECK: ret i32
RESPEC_SPECIALIZE int chosen_address(int dynamic) {
  int cells[2] = {1, 2};
  uintptr_t address;
  if (dynamic > 0) {
    address = (uintptr_t)&cells[0];
    write_through((uintptr_t)&dynamic, dynamic + 1);
  } else {
    address = (uintptr_t)&cells[1];
  }
  *(int *)same_address(address) = 7;
  return cells[0] * 3 + cells[1];
}
// CHECK-LABEL: define {{.*}} @count_backwards(
// CHECK-NOT: ret i32 10
// CHECK: ret i32
RESPEC_SPECIALIZE int count_backwards(int dynamic) {
  int cells[4] = {dynamic, 1, 2, 3};
  int n = 0;
  for (uintptr_t a = (uintptr_t)&cells[3]; a >= (uintptr_t)cells && n < 10; a -= sizeof(int))
    n += *(int *)a > 0;
  return n;
}

// CHECK-LABEL: define {{.*}} @adjacent(
// CHECK: icmp eq
// CHECK: icmp eq
RESPEC_SPECIALIZE int adjacent(int dynamic) {
  char a[16], b[16];
  a[0] = b[0] = (char)dynamic;
  uintptr_t end_a = (uintptr_t)a + sizeof a, end_b = (uintptr_t)b + sizeof b;
  return (end_a == (uintptr_t)b) + 2 * (end_b == (uintptr_t)a) + a[0] - b[0];
}

static int sum_from(uintptr_t address, int n) {
  return n <= 0 ? 0 : *(const int *)address + sum_from(address + sizeof(int), n - 1);
}
// CHECK-LABEL: define {{.*}} @sum_table(
RESPEC_SPECIALIZE int sum_table(int n) {
  return sum_from((uintptr_t)table(), n < 4 ? n : 4);
}

// CHECK-LABEL: define {{.*}} @segment_index(
// CHECK: addrspace(256)
RESPEC_SPECIALIZE int segment_index(int dynamic) {
  int cells[2] = {dynamic, 7};
  return ((int __seg_gs *)(uintptr_t)cells)[dynamic & 1];
}
#endif
