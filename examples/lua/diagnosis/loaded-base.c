/*
 * loaded-base.c — what respec knows about memory behind a pointer that is not an
 * argument of the spec function (a pointer loaded from memory, like Lua's
 * `base = ci->func + 1`) is forgotten at every block entry, including the entry
 * of each unfolded callee (normalizeForEntry, pe/Generalization.cpp: "Entry
 * states hold no residual values from other blocks"). Behind an argument it is
 * kept.
 *
 * In Lua this is every register's type tag: `LOADI` stores the tag of an integer,
 * and `FORPREP`'s `forprep()` (an unfolded callee) tests it again at run time
 * (`cmpb $0x3, 0x48(%r12)` in the patched build's code, examples/lua/README.md);
 * so does every `ttisinteger(rb)` of an instruction that reads the register the
 * previous instruction wrote, once any branch lies between them.
 *
 *   respec specialize loaded-base.c -I include -O0 --emit-llvm -o -
 *
 * shows `f` loading the tag it has just stored and comparing it with 3, and `g`
 * (the same with `base` an argument) returning 1. (At -O2, LLVM folds `f`'s reload
 * here; in luaV_execute, stores through other pointers between the two keep it.)
 */
#include <respec/respec.h>

struct tvalue {
	long value;
	unsigned char tag;
};

static int is_integer(const struct tvalue *o)
{
	return o->tag == 3;
}

/* Lua: base = ci->func + 1; setivalue(s2v(ra), ...); ... ttisinteger(s2v(ra)) */
RESPEC_SPECIALIZE int f(struct tvalue **func)
{
	struct tvalue *base = *func + 1;
	base[2].tag = 3;
	return is_integer(&base[2]);
}

RESPEC_SPECIALIZE int g(struct tvalue *base)
{
	base[2].tag = 3;
	return is_integer(&base[2]);
}
