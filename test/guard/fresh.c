// Fresh objects: the allocation, and the writes and frees through the pointer
// that holds it until the pointer escapes, need no guard. Stored into another
// fresh object, a pointer escapes when that object does. Null on some paths is
// still fresh (it points to nothing). After an escape, writes need guards. A
// local struct is fresh until its address is taken.
// RUN: %respec guard %s --term 'struct conn::state' --term 'struct pool::active' \
// RUN:   --allocator pool_alloc | %FileCheck %s
#include <stdlib.h>
struct conn { int state; int fd; };
struct pool { struct conn *active; char *cookie; };
void publish(struct conn *c);
void *pool_alloc(size_t n);

struct pool *make(int fd)
{
	struct conn *c = NULL;
	// CHECK: fresh.c:[[@LINE+1]]:19: allocation: struct pool: allocation of a fresh 'struct pool': 'pool_alloc(sizeof *p)'
	struct pool *p = pool_alloc(sizeof *p);
	if (!p)
		goto fail;
	// CHECK: fresh.c:[[@LINE+1]]:6: allocation: struct conn: allocation of a fresh 'struct conn': 'malloc(sizeof *c)'
	c = malloc(sizeof *c);
	if (c == NULL)
		goto fail;
	// CHECK: fresh.c:[[@LINE+1]]:2: fresh-write: struct conn::state: 'c->state = 0' (fresh object: c)
	c->state = 0;
	// CHECK: fresh.c:[[@LINE+1]]:2: fresh-write: struct pool::active: 'p->active = c' (fresh object: p)
	p->active = c;
	// c is held by p, which is still fresh: so is c.
	// CHECK: fresh.c:[[@LINE+1]]:2: fresh-write: struct conn::state: 'c->state = 1' (fresh object: c)
	c->state = 1;
	return p;
fail:
	// CHECK: fresh.c:[[@LINE+1]]:2: fresh-free: struct conn: the object dies with its terms: 'free(c)' (fresh object: c)
	free(c);
	// CHECK: fresh.c:[[@LINE+1]]:2: fresh-free: struct pool: the object dies with its terms: 'free(p)' (fresh object: p)
	free(p);
	return NULL;
}

void escapes(void)
{
	// CHECK: fresh.c:[[@LINE+1]]:19: allocation: struct conn: allocation of a fresh 'struct conn': 'calloc(1, sizeof *c)'
	struct conn *c = calloc(1, sizeof *c);
	if (!c)
		return;
	// CHECK: fresh.c:[[@LINE+1]]:2: fresh-write: struct conn::state: 'c->state = 2' (fresh object: c)
	c->state = 2;
	// CHECK: fresh.c:[[@LINE+1]]:10: alias-external: struct conn: the object is passed to 'publish'
	publish(c);
	// Anyone may have established a predicate on it by now.
	// CHECK: fresh.c:[[@LINE+1]]:2: store: struct conn::state: 'c->state = 3'
	c->state = 3;
	// CHECK: fresh.c:[[@LINE+1]]:2: free: struct conn: the object dies with its terms: 'free(c)'
	free(c);
}

void on_one_path(int flag)
{
	struct conn *c = malloc(sizeof *c);
	if (!c)
		return;
	if (flag)
		publish(c);
	// Escaped on one path: not fresh.
	// CHECK: fresh.c:[[@LINE+1]]:2: store: struct conn::state: 'c->state = 4'
	c->state = 4;
}

void local_object(void)
{
	struct conn local;
	// CHECK: fresh.c:[[@LINE+1]]:2: fresh-write: struct conn::state: 'local.state = 5' (fresh object: local)
	local.state = 5;
	// CHECK: fresh.c:[[@LINE+1]]:10: alias-external: struct conn: the object is passed to 'publish'
	publish(&local);
	// CHECK: fresh.c:[[@LINE+1]]:2: store: struct conn::state: 'local.state = 6'
	local.state = 6;
}

void parameter(struct conn *c)
{
	// A parameter's object was made elsewhere.
	// CHECK: fresh.c:[[@LINE+1]]:2: store: struct conn::state: 'c->state = 7'
	c->state = 7;
}
