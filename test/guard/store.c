// Direct stores to a term: the field itself, a part of it, through a typedef'd
// struct name, and a global term. Stores to other fields are not reported.
// RUN: %respec guard %s --term 'struct conn::timeout' --term 'handle::ops' \
// RUN:   --term limit | %FileCheck %s
struct timeval_ { long sec, usec; };
struct conn {
	int fd;
	struct timeval_ timeout;
};
typedef struct { const void *ops; int flags; } handle;
int limit;

void set_timeout(struct conn *c, struct timeval_ t)
{
	// CHECK: store.c:[[@LINE+1]]:2: store: struct conn::timeout: 'c->timeout = t'
	c->timeout = t;
	// CHECK: store.c:[[@LINE+1]]:2: store: struct conn::timeout: 'c->timeout.usec = 0'
	c->timeout.usec = 0;
	c->fd = 3;
}

void set_ops(handle *h, const void *ops)
{
	// CHECK: store.c:[[@LINE+1]]:2: store: handle::ops: 'h->ops = ops'
	h->ops = ops;
	h->flags = 1;
}

int set_limit(struct conn c)
{
	// CHECK: store.c:[[@LINE+1]]:2: store: limit: 'limit = 5'
	limit = 5;
	// A store whose value is used is a store all the same.
	// CHECK: store.c:[[@LINE+1]]:10: store: limit: 'limit = c.fd'
	return (limit = c.fd);
}
// CHECK-NOT: store.c
// CHECK: summary: 5 writes and 0 frees need a guard
