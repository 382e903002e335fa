// specialize and explain report the same instruction count for the same input:
// both count after the cleanup pipeline and before code generation, which
// rewrites the IR it compiles (for this spec, one instruction more).
//
// RUN: %respec specialize %S/../../examples/marshal/marshal_spec.c %S/../../examples/marshal/marshal.c \
// RUN:   %S/../../examples/marshal/pair.c -I%S/../../examples/marshal --function decode_ints -o %t.o 2> %t.counts
// RUN: %respec explain %S/../../examples/marshal/marshal_spec.c %S/../../examples/marshal/marshal.c \
// RUN:   %S/../../examples/marshal/pair.c -I%S/../../examples/marshal --function decode_ints --color=never >> %t.counts
// RUN: %FileCheck %s < %t.counts
//
// CHECK: respec: decode_ints: [[BEFORE:[0-9]+]] generic instructions -> [[AFTER:[0-9]+]] specialized
// CHECK: generic instructions reached: [[BEFORE]]
// CHECK-NEXT: specialized instructions (after cleanup): [[AFTER]]
