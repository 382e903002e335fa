// Increments and decrements of a term, prefix and postfix, as statements and
// inside expressions; an array term's elements are parts of the term.
// RUN: %respec guard %s --term 'struct stats::calls' --term 'struct stats::hist' \
// RUN:   | %FileCheck %s
struct stats { long calls; int hist[4]; long other; };

long bump(struct stats *s, int i)
{
	// CHECK: increment.c:[[@LINE+1]]:2: increment: struct stats::calls: 's->calls++'
	s->calls++;
	// CHECK: increment.c:[[@LINE+1]]:2: increment: struct stats::calls: '--s->calls'
	--s->calls;
	// CHECK: increment.c:[[@LINE+1]]:2: increment: struct stats::hist: 's->hist[i]++'
	s->hist[i]++;
	s->other++;
	// CHECK: increment.c:[[@LINE+1]]:9: increment: struct stats::calls: '++s->calls'
	return ++s->calls;
}
// CHECK-NOT: increment.c
// CHECK: by kind: store 0, compound 0, increment 4,
