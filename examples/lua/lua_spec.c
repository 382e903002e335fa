/*
 * lua_spec.c — spec of the Lua case study: Lua 5.4's interpreter, luaV_execute
 * from the unmodified lvm.c of Debian's lua5.4 source package, running one fixed
 * Lua function whose bytecode is static, on a dynamic table and length.
 *
 * The programs (programs/NAME.lua) are compiled at build time by Lua's own
 * compiler; gen_lua_proto writes each one's Proto and instructions as const C
 * data (luaprog_NAME, luaprog_NAME_code in the generated lua_programs.c), which
 * this spec and every build of it link. Everything else — the Lua state, its
 * stack (the interpreted program's registers), the table of input words, the
 * call frame — is the running program's, hence dynamic.
 *
 * NAME_push makes the closure the harness calls; its Proto is this build's own
 * copy of the static one, which is what NAME_execute's assumptions name.
 *
 * NAME_execute replaces ccall's call of luaV_execute (ldo.c): the harness calls
 * luaD_precall, marks the frame fresh, and calls it. What it states about the
 * frame holds for every fresh call of the closure NAME_push makes:
 *   - no debug hook is set (L->hookmask == 0);
 *   - the frame's function is a closure of this Proto;
 *   - the frame starts at the Proto's first instruction (luaD_precall's savedpc).
 * From these luaV_execute's locals `cl`, `k` and `pc` are static: the dispatch
 * on each instruction's opcode, the decoding of its operands and the reads of the
 * constant table could be evaluated away. (Whether they are is what the example
 * measures; README.md.) The hook assumption comes first: L->hookmask is
 * volatile, and respec forgets every fact at a volatile load (README.md,
 * "Diagnosis"), so stated last it would erase the other two.
 *
 * Compiled without respec this file is the generic build: each assumption is a
 * check that aborts if a caller breaks it.
 */
#include "lua_spec.h"

#include <respec/respec.h>

#include "lua.h"
#include "lfunc.h"
#include "lobject.h"
#include "lstate.h"
#include "lvm.h"

#ifndef LUA_SPEC_PREFIX
#define LUA_SPEC_PREFIX lua_
#endif
#define LUA_SPEC_CAT2_(a, b) a##b
#define LUA_SPEC_CAT_(a, b) LUA_SPEC_CAT2_(a, b)
#define SPEC(name) LUA_SPEC_CAT_(LUA_SPEC_PREFIX, name)

/* The bytecode, from the generated lua_programs.c. */
extern const Proto luaprog_checksum, luaprog_collatz, luaprog_moments;
extern const Instruction luaprog_checksum_code[], luaprog_collatz_code[],
	luaprog_moments_code[];

/* A closure of p with no upvalues, pushed as lua_pushcclosure pushes one. */
static void push_program(lua_State *L, const Proto *p)
{
	LClosure *cl = luaF_newLclosure(L, 0);
	cl->p = (Proto *)p; /* never written: see gen_lua_proto.c */
	setclLvalue2s(L, L->top, cl);
	L->top++;
}

RESPEC_SPECIALIZE void SPEC(checksum_push)(lua_State *L)
{
	push_program(L, &luaprog_checksum);
}

RESPEC_SPECIALIZE void SPEC(checksum_execute)(lua_State *L, CallInfo *ci)
{
	respec_assume(L->hookmask == 0);
	respec_assume(clLvalue(s2v(ci->func))->p == &luaprog_checksum);
	respec_assume(ci->u.l.savedpc == luaprog_checksum_code);
	luaV_execute(L, ci);
}

RESPEC_SPECIALIZE void SPEC(collatz_push)(lua_State *L)
{
	push_program(L, &luaprog_collatz);
}

RESPEC_SPECIALIZE void SPEC(collatz_execute)(lua_State *L, CallInfo *ci)
{
	respec_assume(L->hookmask == 0);
	respec_assume(clLvalue(s2v(ci->func))->p == &luaprog_collatz);
	respec_assume(ci->u.l.savedpc == luaprog_collatz_code);
	luaV_execute(L, ci);
}

RESPEC_SPECIALIZE void SPEC(moments_push)(lua_State *L)
{
	push_program(L, &luaprog_moments);
}

RESPEC_SPECIALIZE void SPEC(moments_execute)(lua_State *L, CallInfo *ci)
{
	respec_assume(L->hookmask == 0);
	respec_assume(clLvalue(s2v(ci->func))->p == &luaprog_moments);
	respec_assume(ci->u.l.savedpc == luaprog_moments_code);
	luaV_execute(L, ci);
}
