// --fix rewrites each direct write that is a statement of its own into
// RESPEC_GUARDED_STORE, adds the SPID member to the struct (before its first
// term) and a SPID variable beside a global, includes <respec/runtime.h>, and the
// result compiles. Writes it cannot rewrite are reported with the reason.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/fix.c
// RUN: %respec guard %t/fix.c --term 'struct conn::state' --term 'struct conn::timeout' \
// RUN:   --term generation --fix | %FileCheck --check-prefix=REPORT %s
// RUN: %FileCheck --check-prefix=FIXED %s < %t/fix.c
// RUN: %clang -fsyntax-only -Werror -I%inc %t/fix.c
#include <stddef.h>
struct conn {
	int fd;
	int state;
	long timeout;
};
int generation;

#define SET_STATE(c, v) ((c)->state = (v))

int update(struct conn *c, struct conn *all, int i, long t)
{
	c->state = 1;
	c->timeout += t;
	c->state++;
	generation++;
	if (t)
		all[i].state = 2;
	SET_STATE(c, 3);
	return c->state = 4;
}
// REPORT: fix.c:22:2: store: struct conn::state: 'c->state = 1' [rewritten]
// REPORT: fix.c:23:2: compound: struct conn::timeout: 'c->timeout += t' [rewritten]
// REPORT: fix.c:24:2: increment: struct conn::state: 'c->state++' [rewritten]
// REPORT: fix.c:25:2: increment: generation: 'generation++' [rewritten]
// REPORT: fix.c:27:3: store: struct conn::state: 'all[i].state = 2' [rewritten]
// REPORT: fix.c:28:2: store: struct conn::state: 'SET_STATE(c, 3)' [not rewritten: spelled in a macro]
// REPORT: fix.c:29:9: store: struct conn::state: 'c->state = 4' [not rewritten: its value is used by an enclosing expression]
// REPORT: rewritten: {{.*}}fix.c
// FIXED: #include <respec/runtime.h>
// FIXED-NEXT: #include <stddef.h>
// FIXED: int fd;
// FIXED-NEXT: respec_spid spid; /* respec guard --fix: armed while a predicate covers this object */
// FIXED-NEXT: int state;
// FIXED: int generation;
// FIXED-NEXT: respec_spid generation_spid;
// FIXED: RESPEC_GUARDED_STORE(c->spid, c->state, 1);
// FIXED-NEXT: RESPEC_GUARDED_STORE(c->spid, c->timeout, c->timeout + (t));
// FIXED-NEXT: RESPEC_GUARDED_STORE(c->spid, c->state, c->state + 1);
// FIXED-NEXT: RESPEC_GUARDED_STORE(generation_spid, generation, generation + 1);
// FIXED: RESPEC_GUARDED_STORE(all[i].spid, all[i].state, 2);
// FIXED-NEXT: SET_STATE(c, 3);
// FIXED-NEXT: return c->state = 4;
