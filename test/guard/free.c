// Freeing or reallocating an object that holds terms ends its predicates: a
// guard is needed. Freeing anything else is not reported. --deallocator names
// a project's own.
// RUN: %respec guard %s --term 'struct buf::len' --deallocator buf_release | %FileCheck %s
#include <stdlib.h>
struct buf { size_t len; char *data; };
void buf_release(void *p);

struct buf *shrink(struct buf *b, struct buf *c, struct buf *d)
{
	free(b->data);
	// CHECK: free.c:[[@LINE+1]]:2: free: struct buf: the object dies with its terms: 'free(b)'
	free(b);
	// CHECK: free.c:[[@LINE+1]]:2: free: struct buf: the object dies with its terms: 'buf_release(c)'
	buf_release(c);
	// CHECK: free.c:[[@LINE+1]]:9: free: struct buf: reallocation (the object may move; its terms die with it): 'realloc(d, 2 * sizeof *d)'
	return realloc(d, 2 * sizeof *d);
}
// CHECK-NOT: free.c
// CHECK: summary: 0 writes and 3 frees need a guard
