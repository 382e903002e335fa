// respec_static_variable() names a variable of the generic code by its name,
// file-static ones too ("file.c:name"), and declares its contents static: at
// build time, its initializer. The table-driven loop is evaluated away, and the
// residual code does not use the variable (so no copy of it is made). A name
// two files use is refused at the declaration's file:line, as is one no file
// defines; nothing is written then.
//
// RUN: %respec specialize %s %S/Inputs/table-vm.c %S/Inputs/table-other.c -O1 --emit-llvm -o - -q | %FileCheck %s
// RUN: %not %respec specialize %s %S/Inputs/table-vm.c %S/Inputs/table-other.c -DAMBIGUOUS -o %t.o 2>&1 | %FileCheck --check-prefix=AMBIGUOUS %s
// RUN: test ! -e %t.o
// RUN: %not %respec specialize %s %S/Inputs/table-vm.c %S/Inputs/table-other.c -DUNKNOWN -o %t.o 2>&1 | %FileCheck --check-prefix=UNKNOWN %s
#include <respec/respec.h>

int run_table(int x);

// CHECK-LABEL: define {{.*}} @run_known(i32 {{.*}}%x)
// CHECK-NOT: load
// CHECK-NOT: @table
// CHECK: mul i32 %x, 35
// CHECK-NEXT: add i32 {{.*}}, 6
// CHECK-NEXT: ret
RESPEC_SPECIALIZE int run_known(int x) {
#if defined(AMBIGUOUS)
  // AMBIGUOUS: static-variable.c:[[@LINE+1]]:{{.*}}error: respec_static_variable("table"): 2 variables have that name; say whose file ("file.c:table")
  respec_static_variable("table");
#elif defined(UNKNOWN)
  // UNKNOWN: static-variable.c:[[@LINE+1]]:{{.*}}error: respec_static_variable("table-vm.c:tables"): the generic code has no such variable
  respec_static_variable("table-vm.c:tables");
#else
  respec_static_variable("table-vm.c:table");
#endif
  return run_table(x);
}
