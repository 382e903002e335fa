// respec_fact("NAME") is a fact about the client a library is linked into;
// `respec link` sets it (test/link). Anywhere else nothing is known about the
// client: respec specialize evaluates it to 0, statically, and so does the
// generic build, so the spec is the code for any client. A name that is not a
// string literal is refused at its file:line.
//
// RUN: %respec specialize %s -O1 --emit-llvm -o - -q | %FileCheck %s
// RUN: %clang -I%inc %s -DMAIN -o %t && %t | %FileCheck --check-prefix=GENERIC %s
// RUN: %not %respec specialize %s -DNOT_LITERAL -o %t.o 2>&1 | %FileCheck --check-prefix=LITERAL %s
#include <respec/respec.h>

int slow_path(int x) { return x * 3; }

// CHECK-LABEL: define {{.*}} @for_client(i32 {{.*}}%x, ptr {{.*}}%name)
// CHECK-NEXT: entry:
// CHECK-NEXT: mul {{.*}} %x, 3
// CHECK-NEXT: ret
RESPEC_SPECIALIZE int for_client(int x, const char *name) {
#ifdef NOT_LITERAL
  // LITERAL: link-fact.c:[[@LINE+1]]:{{.*}}error: respec_fact() needs a string literal
  if (respec_fact(name))
#else
  (void)name;
  if (respec_fact("single-threaded"))
#endif
    return x;
  return slow_path(x);
}

#ifdef MAIN
#include <stdio.h>
// GENERIC: 21
int main(void) { printf("%d\n", for_client(7, "x")); }
#endif
