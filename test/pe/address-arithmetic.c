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
// through a function declared pure and made a pointer again.
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
void write_through(uintptr_t address, int value);
uintptr_t same_address(uintptr_t address);

#ifdef MAIN
#include <stdio.h>
void write_through(uintptr_t address, int value) { *(int *)address = value; }
uintptr_t same_address(uintptr_t address) { return address; }
int main(void) {
  for (int d = -3; d <= 3; d++)
    printf("%d %d %d %d\n", group_frame(d), moved_address(d), leaked_address(d),
           chosen_address(d));
  return 0;
}
#else
RESPEC_PURE(same_address);

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
#endif
