// Compound assignments to a term, of every operator family.
// RUN: %respec guard %s --term 'struct counter::hits' --term 'struct counter::mask' \
// RUN:   | %FileCheck %s
struct counter { unsigned long hits; unsigned mask; unsigned other; };

void count(struct counter *c, unsigned long n, unsigned bit)
{
	// CHECK: compound.c:[[@LINE+1]]:2: compound: struct counter::hits: 'c->hits += n'
	c->hits += n;
	// CHECK: compound.c:[[@LINE+1]]:2: compound: struct counter::hits: 'c->hits *= 2'
	c->hits *= 2;
	// CHECK: compound.c:[[@LINE+1]]:2: compound: struct counter::mask: 'c->mask |= bit'
	c->mask |= bit;
	// CHECK: compound.c:[[@LINE+1]]:2: compound: struct counter::mask: 'c->mask <<= 1'
	c->mask <<= 1;
	c->other += 1;
}
// CHECK-NOT: compound.c
// CHECK: by kind: store 0, compound 4, increment 0,
