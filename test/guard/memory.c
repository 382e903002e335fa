// Memory functions over a term or over an object holding terms, with clang's
// builtin spellings and bcopy's reversed arguments; reading functions and
// writes elsewhere are not reported.
// RUN: %respec guard %s --term 'struct peer::addr' --term 'struct peer::key' | %FileCheck %s
#include <string.h>
#include <strings.h>
struct peer { char addr[16]; unsigned char key[8]; int other; };

void update(struct peer *p, const struct peer *q, const char *a)
{
	// CHECK: memory.c:[[@LINE+1]]:2: memory: struct peer::addr: memory written by 'memcpy(p->addr, a, 16)'
	memcpy(p->addr, a, 16);
	// CHECK: memory.c:[[@LINE+1]]:2: memory: struct peer::key: memory written by 'memset(&p->key, 0, sizeof p->key)'
	memset(&p->key, 0, sizeof p->key);
	// CHECK: memory.c:[[@LINE+1]]:2: memory: struct peer: memory written by 'memmove(p, q, sizeof *p)'
	memmove(p, q, sizeof *p);
	// CHECK: memory.c:[[@LINE+1]]:2: memory: struct peer: memory written by 'bzero((char *)p, sizeof *p)'
	bzero((char *)p, sizeof *p);
	// CHECK: memory.c:[[@LINE+1]]:2: memory: struct peer: memory written by 'bcopy(q, p, sizeof *p)'
	bcopy(q, p, sizeof *p);
	// CHECK: memory.c:[[@LINE+1]]:2: memory: struct peer::addr: memory written by '__builtin_memcpy(p->addr, a, 4)'
	__builtin_memcpy(p->addr, a, 4);
	memset(&p->other, 0, sizeof p->other);
	(void)memcmp(p->addr, q->addr, 16);
}
// CHECK-NOT: memory.c
// CHECK: by kind: store 0, compound 0, increment 0, object 0, memory 6,
