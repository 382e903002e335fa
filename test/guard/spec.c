// --spec reads the terms from a spec's respec_assume facts: every field and
// global the fact's lvalue reads (here struct xdr_ops::x_putlong and XDR::x_ops
// from one fact, struct stream::op from the other, mode from the third).
// RUN: %respec guard --spec %inputs/spec_facts.c %inputs/stream.c -I%inc -I%inputs \
// RUN:   | %FileCheck %s
// CHECK: stream.c:{{[0-9]+}}:{{[0-9]+}}: store: XDR::x_ops: 'x->x_ops = ops'
// CHECK: stream.c:{{[0-9]+}}:{{[0-9]+}}: store: struct xdr_ops::x_putlong: 'ops->x_putlong = put'
// CHECK: stream.c:{{[0-9]+}}:{{[0-9]+}}: store: struct stream::op: 's->op = op'
// CHECK: stream.c:{{[0-9]+}}:{{[0-9]+}}: store: mode: 'mode = m'
// CHECK: struct xdr_ops::x_putlong
// CHECK-NEXT: XDR::x_ops
// CHECK-NEXT: struct stream::op
// CHECK-NEXT: mode
