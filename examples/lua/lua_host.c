/*
 * lua_host.c — see lua_host.h.
 */
#include "lua_host.h"

#include "lauxlib.h"
#include "ldo.h"
#include "lstate.h"
#include "lualib.h"

#include <stdio.h>
#include <stdlib.h>

lua_State *lua_host_new_state(void)
{
	lua_State *L = luaL_newstate();
	if (!L) {
		fprintf(stderr, "lua_host: cannot create a Lua state\n");
		exit(1);
	}
	luaL_openlibs(L);
	return L;
}

/* The protected body: upvalue 1 is the program (light userdata); arguments are
 * the table and the length. Mirrors ccall (ldo.c) with luaD_callnoyield's
 * increment. */
static int run_program(lua_State *L)
{
	const struct lua_host_program *program = lua_touserdata(L, lua_upvalueindex(1));
	program->push(L);
	lua_pushvalue(L, 1);
	lua_pushvalue(L, 2);
	StkId func = L->top - 3;
	L->nCcalls += nyci;
	if (getCcalls(L) >= LUAI_MAXCCALLS)
		luaE_checkcstack(L);
	CallInfo *ci = luaD_precall(L, func, 1);
	if (ci != NULL) { /* a Lua function: always, here */
		ci->callstatus = CIST_FRESH;
		program->execute(L, ci);
	}
	L->nCcalls -= nyci;
	return 1;
}

int lua_host_call(lua_State *L, const struct lua_host_program *program, int table)
{
	table = lua_absindex(L, table);
	lua_pushlightuserdata(L, (void *)program);
	lua_pushcclosure(L, run_program, 1);
	lua_pushvalue(L, table);
	lua_rotate(L, -3, -1); /* n, function, table -> function, table, n */
	return lua_pcall(L, 2, 1, 0);
}
