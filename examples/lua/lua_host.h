/*
 * lua_host.h — calling one build of a fixed Lua program from C, as Lua itself
 * calls a Lua function: lua_pcall of a C function that does what ldo.c's ccall
 * does (luaD_precall, mark the frame fresh, run it), except that the build's
 * NAME_execute runs the frame instead of luaV_execute. Shared by the
 * differential test and the benchmark; the rest of Lua (state, tables, the
 * collector, errors) is the one Lua library the program links.
 */
#ifndef LUA_HOST_H
#define LUA_HOST_H

#include "lua.h"

struct CallInfo;

/* One build of one program: its NAME_push and NAME_execute (lua_spec.h). */
struct lua_host_program {
	void (*push)(lua_State *L);
	void (*execute)(lua_State *L, struct CallInfo *ci);
};

/* A state with the standard libraries, for the programs (which use none). */
lua_State *lua_host_new_state(void);

/*
 * Calls the program with the value at stack index `table` and the number on top
 * of the stack (popped) as its two arguments, in protected mode. Returns
 * lua_pcall's status; on top of the stack is the program's result (LUA_OK) or
 * the error message.
 */
int lua_host_call(lua_State *L, const struct lua_host_program *program, int table);

#endif /* LUA_HOST_H */
