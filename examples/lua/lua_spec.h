/*
 * lua_spec.h — the entry points of the Lua case study (lua_spec.c).
 *
 * For each fixed Lua program NAME (programs/NAME.lua) a spec defines two functions:
 *
 *   NAME_push(L)         pushes a Lua closure of the program onto L's stack;
 *   NAME_execute(L, ci)  runs a call of that closure which luaD_precall has set up
 *                        (the job of luaV_execute, which ldo.c's ccall calls).
 *
 * Every build of the spec (the variants of examples/RespecVariants.cmake, and the
 * builds of examples/lua/CMakeLists.txt) names them LUA_SPEC_PREFIX NAME_push, ...;
 * LUA_SPEC_DECLARE(prefix) declares one such set. lua_host.h calls them.
 */
#ifndef LUA_SPEC_H
#define LUA_SPEC_H

typedef struct lua_State lua_State;
struct CallInfo;

/* The programs, in the order the tests and benchmarks list them. */
#define LUA_PROGRAMS(X) X(checksum) X(collatz) X(moments)

#define LUA_SPEC_DECLARE_ONE_(prefix, name)                                     \
	void prefix##name##_push(lua_State *L);                                  \
	void prefix##name##_execute(lua_State *L, struct CallInfo *ci);
#define LUA_SPEC_DECLARE(prefix)                                                \
	LUA_SPEC_DECLARE_ONE_(prefix, checksum)                                 \
	LUA_SPEC_DECLARE_ONE_(prefix, collatz)                                  \
	LUA_SPEC_DECLARE_ONE_(prefix, moments)

#endif /* LUA_SPEC_H */
