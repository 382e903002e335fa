// A union that overlays an object holding terms, and a term that is itself a
// union member, are alias warnings at the union.
// RUN: %respec guard %s --term 'struct conn::state' --term 'union value::as_int' \
// RUN:   | %FileCheck %s
struct conn { int state; };
// CHECK: alias-union.c:[[@LINE+1]]:1: alias-union: struct conn: union member 'c' holds 'struct conn'
union message {
	struct conn c;
	char raw[16];
};
union value {
	double as_double;
	// CHECK: alias-union.c:[[@LINE+1]]:2: alias-union: union value::as_int: the term is a union member
	long as_int;
};
union unrelated { int a; float b; };
// CHECK-NOT: alias-union.c
// CHECK: by kind:{{.*}} alias-union 2,
