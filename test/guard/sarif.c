// --format sarif writes a SARIF 2.1.0 log (checked by Inputs/check_sarif.py:
// version, $schema, the driver and its rules, each result's rule, message,
// file URI and line), written whole to -o.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec guard %s --term 'struct conn::state' --format sarif -o %t/guard.sarif
// RUN: %python %inputs/check_sarif.py %t/guard.sarif | %FileCheck %s
#include <stdlib.h>
struct conn { int state; };
void publish(struct conn *c);

void set(struct conn *c)
{
	// CHECK: store sarif.c [[@LINE+1]] warning
	c->state = 1;
	// CHECK: alias-address sarif.c [[@LINE+1]] warning
	int *s = &c->state;
	(void)s;
	// CHECK: free sarif.c [[@LINE+1]] warning
	free(c);
}

void make(void)
{
	// CHECK: allocation sarif.c [[@LINE+1]] note
	struct conn *c = malloc(sizeof *c);
	// CHECK: fresh-write sarif.c [[@LINE+1]] note
	c->state = 0;
	// CHECK: alias-external sarif.c [[@LINE+1]] warning
	publish(c);
}
// CHECK: sarif ok: 6 results, 13 rules
