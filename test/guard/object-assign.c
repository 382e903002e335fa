// Assignments of a whole object that holds terms: the containing struct, a
// struct that holds one by value, an array element of it.
// RUN: %respec guard %s --term 'struct session::state' | %FileCheck %s
struct session { int state; int id; };
struct server { struct session current; int port; };

void reset(struct session *s, struct server *srv, struct session table[], const struct session *from)
{
	// CHECK: object-assign.c:[[@LINE+1]]:2: object: struct session: assignment of a whole 'struct session': '*s = *from'
	*s = *from;
	// CHECK: object-assign.c:[[@LINE+1]]:2: object: struct session: assignment of a whole 'struct server': '*srv = (struct server){0}'
	*srv = (struct server){0};
	// CHECK: object-assign.c:[[@LINE+1]]:2: object: struct session: assignment of a whole 'struct session': 'srv->current = *from'
	srv->current = *from;
	// CHECK: object-assign.c:[[@LINE+1]]:2: object: struct session: assignment of a whole 'struct session': 'table[2] = *s'
	table[2] = *s;
	srv->port = 80;
}
// CHECK-NOT: object-assign.c
// CHECK: by kind: store 0, compound 0, increment 0, object 4,
