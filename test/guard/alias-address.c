// Taking a term's address, explicitly or by an array term decaying to a
// pointer, is an alias warning; indexing an array term and passing a term to a
// memory function (a write, reported as such) are not.
// RUN: %respec guard %s --term 'struct peer::addr' --term 'struct peer::name' \
// RUN:   --term counter | %FileCheck %s
#include <string.h>
struct sockaddr_ { int family; };
struct peer { struct sockaddr_ addr; char name[8]; };
int counter;
int sendto_(const struct sockaddr_ *to);
void show(const char *s);

void send(struct peer *p)
{
	// CHECK: alias-address.c:[[@LINE+1]]:10: alias-address: struct peer::addr: address of the term taken: '&p->addr'
	sendto_(&p->addr);
	// CHECK: alias-address.c:[[@LINE+1]]:7: alias-address: struct peer::name: the array term decays to a pointer: 'p->name'
	show(p->name);
	// CHECK: alias-address.c:[[@LINE+1]]:15: alias-address: counter: address of the term taken: '&counter'
	int *where = &counter;
	(void)where;
	char c = p->name[0];
	(void)c;
	// CHECK: alias-address.c:[[@LINE+1]]:2: memory: struct peer::name
	memset(p->name, 0, sizeof p->name);
}
// CHECK-NOT: alias-address.c
// CHECK: by kind:{{.*}} alias-address 3,
