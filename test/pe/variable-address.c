// respec_variable("file.c:name") is the address of a variable of the generic
// code, file-static ones too: the way a spec states that a pointer holds a
// table it cannot name (Sun RPC's xdrmem_ops). The stream's operations table
// is then known, its entry folds from the table's initializer, and the
// indirect call through it becomes the operation itself, unfolded.
//
// RUN: %respec specialize %s %S/Inputs/ops-stream.c -O1 --emit-llvm -o - -q | %FileCheck %s
//
// The generic build resolves the name in the running program's symbol tables
// (librespec): the predicate holds for a memory stream and is violated by a
// counting one, which the generic build's check catches.
// RUN: %clang -O1 -I%inc -DMAIN %s %S/Inputs/ops-stream.c %librespec -lpthread -o %t
// RUN: %t memory | %FileCheck --check-prefix=GENERIC %s
// RUN: %not --crash %t counting 2>&1 | %FileCheck --check-prefix=VIOLATED %s
// A name no variable has is refused, at the call's file:line (the
// partial evaluator) or when it runs (the generic build):
// RUN: %not %respec specialize %s %S/Inputs/ops-stream.c -DUNKNOWN -o %t.o 2>&1 | %FileCheck --check-prefix=UNKNOWN %s
// RUN: test ! -e %t.o
// RUN: %clang -O1 -I%inc -DMAIN -DUNKNOWN %s %S/Inputs/ops-stream.c %librespec -lpthread -o %t-unknown
// RUN: %not --crash %t-unknown memory 2>&1 | %FileCheck --check-prefix=UNKNOWN-GENERIC %s
#include "Inputs/ops-stream.h"
#include <respec/respec.h>

#ifdef UNKNOWN
#define TABLE "ops-stream.c:memory_opz"
#else
#define TABLE "ops-stream.c:memory_ops"
#endif

// CHECK-LABEL: define {{.*}} @put_pair_memory(
// CHECK-NOT: call
// CHECK-NOT: @memory_ops
// CHECK: store i32 %a
// CHECK: store i32 %b
// CHECK: ret
RESPEC_SPECIALIZE int put_pair_memory(struct stream *s, int a, int b) {
  // VIOLATED: variable-address.c:[[@LINE+2]]: respec predicate violated: s->ops == respec_variable(TABLE)
  // UNKNOWN: variable-address.c:[[@LINE+1]]:{{.*}}error: respec_variable("ops-stream.c:memory_opz"): the generic code has no such variable
  respec_assume(s->ops == respec_variable(TABLE));
  return put_pair(s, a, b);
}

#ifdef MAIN
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  int buffer[4];
  struct stream s;
  if (argc > 1 && strcmp(argv[1], "counting") == 0)
    stream_counting(&s);
  else
    stream_memory(&s, buffer, 4);
  int ok = put_pair_memory(&s, 7, 8);
  // GENERIC: 1 2 7 8
  printf("%d %d %d %d\n", ok, s.used, buffer[0], buffer[1]);
  return 0;
}
// UNKNOWN-GENERIC: respec_variable("ops-stream.c:memory_opz"): the program's symbol tables hold no such variable
#endif
