/*
 * diff_lua.c — differential test of the Lua case study (examples/lua): each fixed
 * Lua program (checksum, collatz, moments) run by a chosen build of luaV_execute
 * against the generic build (lvm.c with its switch dispatch, clang -O2), on random
 * tables and lengths.
 *
 * Both builds run in one Lua state on the same table, one after the other. They
 * must agree on everything a Lua caller can observe: the pcall status; the
 * result's type and value (a float's bits); for an error, the message, which
 * names the source line of the instruction that failed (so the specialized code
 * must have saved the right program counter); the stack height after the call;
 * and the table, which no program writes.
 *
 * Inputs: tables of 0 to 300 words — integers of every magnitude (64-bit
 * extremes included), floats with and without an integer value, and, rarely, a
 * nil hole, a boolean, a numeric string (string arithmetic goes through the
 * string library's metamethods) or a non-number — and a length n that is
 * mostly the table's, sometimes shorter, longer (reading nil past the end) or
 * negative, and sometimes a float. Each program's error paths (comparing nil,
 * arithmetic on a boolean, a float with no integer representation in a bitwise
 * operation) are taken by a few percent of the inputs; diff_function_done
 * fails the test if either outcome is too rare.
 *
 * The "selftest" variant is the generic build with a planted bug (an integer
 * result that is 3 modulo 7 comes back one larger), which the test suite runs to
 * show the mismatch is caught.
 */
#include "diffcheck.h"
#include "lua_host.h"
#include "lua_spec.h"

#include "lauxlib.h"
#include "lobject.h"
#include "lstate.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LUA_SPEC_DECLARE(generic_lua_)
#ifdef HAVE_LUA_CLANG_LTO
LUA_SPEC_DECLARE(clang_lto_lua_)
#endif
#ifdef HAVE_LUA_RESPEC
LUA_SPEC_DECLARE(respec_lua_)
#endif
#ifdef HAVE_LUAJT_GENERIC
LUA_SPEC_DECLARE(generic_luajt_)
#endif
#ifdef HAVE_LUAJT_CLANG_LTO
LUA_SPEC_DECLARE(clang_lto_luajt_)
#endif
#ifdef HAVE_LUAPATCHED_RESPEC
LUA_SPEC_DECLARE(respec_luapatched_)
#endif

enum program { CHECKSUM, COLLATZ, MOMENTS, PROGRAMS };
static const char *const program_names[PROGRAMS] = { "checksum", "collatz", "moments" };

struct lua_variant {
	const char *name;
	struct lua_host_program programs[PROGRAMS];
};

#define LUA_VARIANT(name, prefix)                                                       \
	{                                                                               \
		name, {                                                                 \
			{ prefix##checksum_push, prefix##checksum_execute },            \
			{ prefix##collatz_push, prefix##collatz_execute },              \
			{ prefix##moments_push, prefix##moments_execute },              \
		}                                                                       \
	}

/* The planted bug: run generic, then corrupt some integer results. */
static void corrupt_result(lua_State *L)
{
	TValue *result = s2v(L->top - 1);
	if (ttisinteger(result) && ivalue(result) % 7 == 3)
		setivalue(result, ivalue(result) + 1);
}
static void selftest_checksum_execute(lua_State *L, struct CallInfo *ci)
{
	generic_lua_checksum_execute(L, ci);
	corrupt_result(L);
}
static void selftest_collatz_execute(lua_State *L, struct CallInfo *ci)
{
	generic_lua_collatz_execute(L, ci);
	corrupt_result(L);
}
static void selftest_moments_execute(lua_State *L, struct CallInfo *ci)
{
	generic_lua_moments_execute(L, ci);
	corrupt_result(L);
}

static const struct lua_variant variants[] = {
	LUA_VARIANT("generic", generic_lua_),
#ifdef HAVE_LUA_CLANG_LTO
	LUA_VARIANT("clang-lto", clang_lto_lua_),
#endif
#ifdef HAVE_LUA_RESPEC
	LUA_VARIANT("respec", respec_lua_),
#endif
#ifdef HAVE_LUAJT_GENERIC
	LUA_VARIANT("generic-jumptable", generic_luajt_),
#endif
#ifdef HAVE_LUAJT_CLANG_LTO
	LUA_VARIANT("clang-lto-jumptable", clang_lto_luajt_),
#endif
#ifdef HAVE_LUAPATCHED_RESPEC
	LUA_VARIANT("respec-patched-lvm", respec_luapatched_),
#endif
	{ "selftest",
	  {
		  { generic_lua_checksum_push, selftest_checksum_execute },
		  { generic_lua_collatz_push, selftest_collatz_execute },
		  { generic_lua_moments_push, selftest_moments_execute },
	  } },
};

enum { LONGEST = 300 };

/* One word of the table, as its kind and bits, to rebuild and to compare. */
enum word_kind { WORD_INT, WORD_FLOAT, WORD_NIL, WORD_BOOL, WORD_STRING };
struct word {
	enum word_kind kind;
	lua_Integer i;
	double f;
	char s[24];
};

static lua_Integer random_integer(struct diff_rng *rng)
{
	switch (diff_rng_below(rng, 8)) {
	case 0:
		return (lua_Integer)diff_rng_next(rng); /* full 64-bit range */
	case 1: {
		static const lua_Integer edges[] = { INT64_MIN, INT64_MAX, INT64_MIN + 1,
						     0xffffffff, 0x100000000, -0x80000000LL };
		return edges[diff_rng_below(rng, sizeof edges / sizeof edges[0])];
	}
	default:
		return diff_rng_int32(rng);
	}
}

/* A word that makes no program fail (collatz: no NaN or infinity, which it
 * would never finish with). */
static void good_word(struct diff_rng *rng, enum program program, uint64_t shape, struct word *w)
{
	if (shape == 0 || diff_rng_below(rng, 4) != 0) {
		w->kind = WORD_INT;
		w->i = random_integer(rng);
		return;
	}
	w->kind = WORD_FLOAT;
	switch (diff_rng_below(rng, program == MOMENTS ? 6 : 4)) {
	case 0:
		w->f = (double)diff_rng_int32(rng);
		break;
	case 1:
		w->f = (double)diff_rng_int32(rng) + 0.5;
		break;
	case 2:
		w->f = ldexp((double)diff_rng_int32(rng), (int)diff_rng_below(rng, 120) - 60);
		break;
	case 3:
		w->f = diff_rng_one_in(rng, 2) ? -0.0 : 1e300;
		break;
	case 4:
		w->f = diff_rng_one_in(rng, 2) ? INFINITY : -INFINITY;
		break;
	default:
		w->f = NAN;
		break;
	}
	/* checksum's `w & 1` needs an integer value: a float without one is an
	 * error there, one of the odd words below. */
	if (program == CHECKSUM && !(w->f == floor(w->f) && fabs(w->f) < 0x1p63))
		w->f = (double)diff_rng_int32(rng);
}

/* A word some programs fail on, or take a slower path for. */
static void odd_word(struct diff_rng *rng, struct word *w)
{
	switch (diff_rng_below(rng, 5)) {
	case 4: /* a float with no integer value (checksum fails on it) */
		w->kind = WORD_FLOAT;
		w->f = diff_rng_one_in(rng, 2) ? (double)diff_rng_int32(rng) + 0.5 : -1e300;
		break;
	case 0:
		w->kind = WORD_NIL;
		break;
	case 1:
		w->kind = WORD_BOOL;
		w->i = (lua_Integer)diff_rng_below(rng, 2);
		break;
	default:
		w->kind = WORD_STRING;
		snprintf(w->s, sizeof w->s, diff_rng_one_in(rng, 3) ? "%" PRId32 ".0" : " %" PRId32 " ",
			 diff_rng_int32(rng));
		break;
	}
}

static void push_word(lua_State *L, const struct word *w)
{
	switch (w->kind) {
	case WORD_INT:
		lua_pushinteger(L, w->i);
		break;
	case WORD_FLOAT:
		lua_pushnumber(L, w->f);
		break;
	case WORD_NIL:
		lua_pushnil(L);
		break;
	case WORD_BOOL:
		lua_pushboolean(L, (int)w->i);
		break;
	case WORD_STRING:
		lua_pushstring(L, w->s);
		break;
	}
}

/* The table at `table` still holds words[0..len-1] and nothing past them. */
static void expect_table_unchanged(const struct diff_run *run, lua_State *L, int table,
				   const struct word *words, size_t len, const char *after)
{
	for (size_t i = 0; i <= len + 1; i++) {
		lua_rawgeti(L, table, (lua_Integer)i + 1);
		bool same;
		if (i >= len || words[i].kind == WORD_NIL) {
			same = lua_isnil(L, -1);
		} else {
			push_word(L, &words[i]);
			same = lua_rawequal(L, -1, -2) ||
			       (words[i].kind == WORD_FLOAT && isnan(words[i].f) &&
				lua_type(L, -1) == LUA_TNUMBER && isnan(lua_tonumber(L, -2)));
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
		if (!same)
			diff_fail(run, "the table's word %zu changed after %s", i + 1, after);
	}
}

/* What a call left on the stack: status, result or message, stack height. */
struct outcome {
	int status;
	int type;
	lua_Integer i;
	uint64_t fbits;
	char message[256];
	int top;
};

static void call(lua_State *L, const struct lua_host_program *program, int table,
		 const struct word *n, struct outcome *out)
{
	push_word(L, n);
	out->status = lua_host_call(L, program, table);
	out->type = lua_type(L, -1);
	out->i = 0;
	out->fbits = 0;
	out->message[0] = '\0';
	if (out->status != LUA_OK || out->type == LUA_TSTRING) {
		snprintf(out->message, sizeof out->message, "%s", lua_tostring(L, -1));
	} else if (lua_isinteger(L, -1)) {
		out->i = lua_tointeger(L, -1);
	} else if (out->type == LUA_TNUMBER) {
		double f = lua_tonumber(L, -1);
		memcpy(&out->fbits, &f, sizeof f);
		out->type = -LUA_TNUMBER; /* a float, apart from an integer */
	}
	lua_pop(L, 1);
	out->top = lua_gettop(L);
}

static void check_program(struct diff_run *run, lua_State *L, const struct lua_variant *v,
			  enum program program)
{
	const struct lua_host_program *generic = &variants[0].programs[program];
	const struct lua_host_program *variant = &v->programs[program];
	static struct word words[LONGEST];
	struct diff_rng rng;
	while (diff_next(run, program_names[program], &rng)) {
		size_t len = diff_rng_one_in(&rng, 4) ? (size_t)diff_rng_below(&rng, 9)
						       : (size_t)diff_rng_below(&rng, LONGEST + 1);
		/* shape 0: integers only; 1: integers and floats; 2: one odd word. */
		uint64_t shape = diff_rng_below(&rng, 3);
		for (size_t i = 0; i < len; i++)
			good_word(&rng, program, shape, &words[i]);
		if (shape == 2 && len > 0 && diff_rng_one_in(&rng, 3))
			odd_word(&rng, &words[diff_rng_below(&rng, len)]);

		struct word n = { .kind = WORD_INT, .i = (lua_Integer)len };
		switch (diff_rng_below(&rng, 16)) {
		case 0: /* shorter, down to negative */
			n.i = (lua_Integer)diff_rng_below(&rng, len + 3) - 2;
			break;
		case 1: /* past the end: reads nil */
			n.i = (lua_Integer)(len + 1 + diff_rng_below(&rng, 2));
			break;
		case 2: /* a float bound */
			n.kind = WORD_FLOAT;
			n.f = (double)len + (diff_rng_one_in(&rng, 2) ? 0.0 : -0.5);
			break;
		default:
			break;
		}

		lua_settop(L, 0);
		lua_createtable(L, (int)len, 0);
		for (size_t i = 0; i < len; i++) {
			push_word(L, &words[i]);
			lua_rawseti(L, 1, (lua_Integer)i + 1);
		}

		struct outcome expected, actual;
		call(L, generic, 1, &n, &expected);
		expect_table_unchanged(run, L, 1, words, len, "generic");
		call(L, variant, 1, &n, &actual);
		expect_table_unchanged(run, L, 1, words, len, "the variant");

		diff_expect_equal_int(run, "pcall status", expected.status, actual.status);
		if (strcmp(expected.message, actual.message) != 0)
			diff_fail(run, "message differs: generic \"%s\", variant \"%s\"",
				  expected.message, actual.message);
		diff_expect_equal_int(run, "result type (-3: float)", expected.type, actual.type);
		diff_expect_equal_int(run, "integer result", expected.i, actual.i);
		diff_expect_equal_int(run, "float result bits", (long long)expected.fbits,
				      (long long)actual.fbits);
		diff_expect_equal_int(run, "stack height after the call", expected.top, actual.top);
		diff_count_outcome(run, expected.status == LUA_OK);
	}
	diff_function_done(run, program_names[program]);
}

int main(int argc, char **argv)
{
	struct diff_run run;
	diff_begin(&run, argc, argv, 12000);
	const struct lua_variant *v = DIFF_FIND_VARIANT(run.variant, variants);
	lua_State *L = lua_host_new_state();
	for (int program = 0; program < PROGRAMS; program++)
		check_program(&run, L, v, (enum program)program);
	lua_close(L);
	printf("%s: checksum, collatz and moments agree with generic\n", run.variant);
	return 0;
}
