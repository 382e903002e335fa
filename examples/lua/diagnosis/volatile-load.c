/*
 * volatile-load.c — respec forgets every respec_assume fact at a volatile load.
 *
 * Lua's luaV_execute starts with `trap = L->hookmask;`, a volatile load (hookmask
 * is `volatile sig_atomic_t`, so that a signal handler may set a hook), and only
 * then reads its frame: `cl = clLvalue(s2v(ci->func)); k = cl->p->k;
 * pc = ci->u.l.savedpc;`. The spec's facts about the frame are gone by then, so
 * pc, k and cl are dynamic and the whole dispatch stays residual.
 *
 *   respec specialize volatile-load.c -I include --emit-llvm -o -
 *
 * prints `warning: assumption had no effect` for the fact about f->pc, and the
 * residual code loads f->pc and both bytes of the program. With `int trap = 0;`
 * instead of the volatile read, the specialized function is `ret i32 7`.
 *
 * In the evaluator: evaluateLoad (pe/EvaluateMemory.cpp) ends with
 * `if (!I.isUnordered()) state.memory.writeUnknown(nullptr);` — a volatile load is
 * not "unordered" in LLVM's terms, so it is treated as an acquire that makes
 * every other thread's writes visible. C's volatile orders nothing but volatile
 * accesses themselves; and facts are stated to hold against other code anyway.
 */
#include <respec/respec.h>

struct frame {
	volatile int hookmask;
	const unsigned char *pc;
};

static const unsigned char program[] = { 3, 1, 4, 1, 5 };

static int run(struct frame *f)
{
	int trap = f->hookmask; /* Lua: trap = L->hookmask; */
	const unsigned char *pc = f->pc; /* Lua: pc = ci->u.l.savedpc; */
	return pc[0] + pc[2] + (trap ? 100 : 0);
}

RESPEC_SPECIALIZE int first_and_third(struct frame *f)
{
	respec_assume(f->pc == program);
	return run(f);
}
