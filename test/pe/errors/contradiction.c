// Two predicates that cannot both hold: a contradiction, reported where.
//
// RUN: %not %respec specialize %s -o %t.o 2>&1 | %FileCheck %s
// CHECK: contradiction.c:[[@LINE+7]]:{{[0-9]+}}: error: contradiction: this respec_assume() predicate is always false here
#include <respec/respec.h>
struct s {
  int mode;
};
RESPEC_SPECIALIZE int f(struct s *p) {
  respec_assume(p->mode == 1);
  respec_assume(p->mode == 2);
  return p->mode;
}
