// A call through an alias is a call to the aliasee, unfolded like it: dietlibc
// defines isspace as a weak alias of __isspace_ascii, and strtoul's loop over a
// static string folds only if the call does.
//
// RUN: %respec specialize %s -O1 --emit-llvm -o - -q | %FileCheck %s
#include <respec/respec.h>

int space_ascii(int ch);
int space_ascii(int ch) { return (unsigned)(ch - 9) < 5u || ch == ' '; }
int is_space(int ch) __attribute__((weak, alias("space_ascii")));

static int skip(const char *s) {
  int n = 0;
  while (is_space(s[n]))
    n++;
  return n;
}

// CHECK-LABEL: define {{.*}} @leading_spaces(
// CHECK-NEXT: entry:
// CHECK-NEXT: ret i32 3
RESPEC_SPECIALIZE int leading_spaces(void) { return skip(" \t x"); }
