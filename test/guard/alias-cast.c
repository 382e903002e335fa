// Casts to or from a pointer to an object holding terms: the void * / char *
// round trip of a C handle (caddr_t), integer casts, and a cast between two
// record types. Not warned: an allocator's result, a deallocator's or memory
// function's argument, a null pointer, a cast that only adds a qualifier.
// RUN: %respec guard %s --term 'struct priv::timeout' | %FileCheck %s
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
struct priv { long timeout; };
struct other { long x; };
typedef char *caddr_t;
struct handle { caddr_t private_; };

long get(struct handle *h)
{
	// CHECK: alias-cast.c:[[@LINE+1]]:19: alias-cast: struct priv: cast from 'caddr_t' to 'struct priv *'
	struct priv *p = (struct priv *)h->private_;
	return p->timeout;
}

void put(struct handle *h, struct priv *p)
{
	// CHECK: alias-cast.c:[[@LINE+1]]:16: alias-cast: struct priv: cast from 'struct priv *' to 'caddr_t'
	h->private_ = (caddr_t)p;
}

uintptr_t as_int(struct priv *p, void *v)
{
	// CHECK: alias-cast.c:[[@LINE+1]]:19: alias-cast: struct priv: cast from 'void *' to 'struct priv *'
	struct priv *q = v;
	(void)q;
	// CHECK: alias-cast.c:[[@LINE+1]]:19: alias-cast: struct priv: cast from 'struct other *' to 'struct priv *'
	struct priv *r = (struct priv *)(struct other *)v;
	(void)r;
	// CHECK: alias-cast.c:[[@LINE+1]]:9: alias-cast: struct priv: cast from 'struct priv *' to 'uintptr_t'
	return (uintptr_t)p;
}

void not_aliases(struct priv *p)
{
	struct priv *fresh = (struct priv *)malloc(sizeof *fresh);
	const struct priv *view = p;
	(void)view;
	if (p == (struct priv *)NULL)
		return;
	memset((char *)p, 0, sizeof *p);
	free((void *)fresh);
}
// CHECK-NOT: alias-cast.c:{{.*}}alias-cast
// CHECK: by kind:{{.*}} alias-cast 5,
