// A predicate respec cannot turn into static knowledge is an error, not
// silently ignored.
//
// RUN: %not %respec specialize %s -o %t.o 2>&1 | %FileCheck %s
// CHECK: unusable-predicate.c:[[@LINE+6]]:{{[0-9]+}}: error: respec_assume() cannot use this predicate
#include <respec/respec.h>
struct s {
  int mode;
};
RESPEC_SPECIALIZE int f(struct s *p) {
  respec_assume(p->mode > 1);
  return p->mode;
}
