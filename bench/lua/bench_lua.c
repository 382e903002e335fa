/*
 * bench_lua.c — the Lua benchmark: three fixed Lua programs (examples/lua/programs)
 * run by every build of Lua 5.4's luaV_execute, linked side by side, on the same
 * table in one Lua state; one operation is one call of the program from C
 * (lua_pcall of the ccall-like trampoline in lua_host.c, as a Lua caller pays it).
 *
 * Variants (names as in bench/README.md, with the dispatch configuration where two
 * exist):
 *   generic             lvm.c as Lua configures itself under clang and gcc:
 *                       dispatch through a table of label addresses (computed goto),
 *                       clang -O2 — Lua as its users run it;
 *   generic-switch      lvm.c with LUA_USE_JUMPTABLE=0 (its `switch` dispatch), the
 *                       configuration respec specializes, clang -O2;
 *   clang-lto, clang-lto-switch   the same two with the spec, clang -O3 -flto;
 *   respec              respec specialize of the spec on the unmodified lvm.c;
 *   respec-patched-lvm  respec specialize of the spec on a copy of lvm.c with two
 *                       lines changed (examples/lua/CMakeLists.txt): a diagnosis of
 *                       what respec would produce without the two constructs that
 *                       stop it (examples/lua/README.md), not a result on the
 *                       unmodified interpreter.
 * Lua 5.4 has no JIT or other fast path of its own.
 *
 * Every variant's result is compared with generic's before and after timing
 * (harness.h). The extra object holds the build time of the respec variant (the
 * wall time of `respec specialize` for the spec's six functions, next to clang -O2
 * compiling the same files) and the code sizes of the variants.
 */
#define _GNU_SOURCE
#include "harness.h"
#include "lua_code_sizes.h"
#include "lua_host.h"
#include "lua_spec.h"

#include "lauxlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

LUA_SPEC_DECLARE(generic_lua_)
LUA_SPEC_DECLARE(generic_luajt_)
#ifdef HAVE_LUA_CLANG_LTO
LUA_SPEC_DECLARE(clang_lto_lua_)
#endif
#ifdef HAVE_LUAJT_CLANG_LTO
LUA_SPEC_DECLARE(clang_lto_luajt_)
#endif
#ifdef HAVE_LUA_RESPEC
LUA_SPEC_DECLARE(respec_lua_)
#endif
#ifdef HAVE_LUAPATCHED_RESPEC
LUA_SPEC_DECLARE(respec_luapatched_)
#endif

enum program { CHECKSUM, COLLATZ, MOMENTS, PROGRAMS };

struct variant {
	const char *name;
	struct lua_host_program programs[PROGRAMS];
};

#define VARIANT(name, prefix)                                                           \
	{                                                                               \
		name, {                                                                 \
			{ prefix##checksum_push, prefix##checksum_execute },            \
			{ prefix##collatz_push, prefix##collatz_execute },              \
			{ prefix##moments_push, prefix##moments_execute },              \
		}                                                                       \
	}

static const struct variant variants[] = {
	VARIANT("generic", generic_luajt_),
	VARIANT("generic-switch", generic_lua_),
#ifdef HAVE_LUAJT_CLANG_LTO
	VARIANT("clang-lto", clang_lto_luajt_),
#endif
#ifdef HAVE_LUA_CLANG_LTO
	VARIANT("clang-lto-switch", clang_lto_lua_),
#endif
#ifdef HAVE_LUA_RESPEC
	VARIANT("respec", respec_lua_),
#endif
#ifdef HAVE_LUAPATCHED_RESPEC
	VARIANT("respec-patched-lvm", respec_luapatched_),
#endif
};
enum { VARIANTS = sizeof variants / sizeof variants[0] };

static uint32_t next_word(uint64_t *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*state >> 32);
}

/* One variant on one case: the state and the table (at stack index 1 of L). */
struct ctx {
	lua_State *L;
	const struct lua_host_program *program;
	lua_Integer n;
	uint64_t result;
};

static void run(void *opaque, uint64_t iterations)
{
	struct ctx *ctx = opaque;
	lua_State *L = ctx->L;
	for (uint64_t i = 0; i < iterations; i++) {
		lua_pushinteger(L, ctx->n);
		if (lua_host_call(L, ctx->program, 1) != LUA_OK) {
			fprintf(stderr, "bench-lua: the program failed: %s\n", lua_tostring(L, -1));
			exit(1);
		}
		if (lua_isinteger(L, -1)) {
			ctx->result = (uint64_t)lua_tointeger(L, -1);
		} else {
			double f = lua_tonumber(L, -1);
			memcpy(&ctx->result, &f, sizeof f);
		}
		lua_pop(L, 1);
	}
}

static uint64_t digest(void *opaque)
{
	struct ctx *ctx = opaque;
	return bench_digest_bytes(BENCH_DIGEST_INIT, &ctx->result, sizeof ctx->result);
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The fastest of `runs` runs of a shell command in a scratch directory, in s. */
static double time_command(const char *command, const char *outputs, int runs)
{
	char dir[] = "/tmp/bench-lua-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("bench-lua: mkdtemp");
		exit(1);
	}
	char line[8192];
	snprintf(line, sizeof line, "cd %s && %s %s", dir, command, outputs);
	double best = 1e9;
	for (int i = 0; i < runs; i++) {
		double start = now_s();
		if (system(line) != 0) {
			fprintf(stderr, "bench-lua: failed: %s\n", line);
			exit(1);
		}
		double took = now_s() - start;
		best = took < best ? took : best;
	}
	snprintf(line, sizeof line, "rm -rf %s", dir);
	if (system(line) != 0)
		fprintf(stderr, "bench-lua: could not remove %s\n", dir);
	return best;
}

static void add_build_times(struct bench *bench)
{
	int runs = bench_quick(bench) ? 1 : 3;
	bench_extra_number(bench, "build_s: clang -O2 of spec, lvm.c, programs (generic)",
			   time_command(LUA_BENCH_CLANG_COMMAND, "", runs));
#ifdef HAVE_LUA_RESPEC
	bench_extra_number(bench, "build_s: respec specialize (respec, 6 functions)",
			   time_command(LUA_BENCH_RESPEC_COMMAND, "-o out.o", runs));
#endif
#ifdef HAVE_LUAPATCHED_RESPEC
	bench_extra_number(bench, "build_s: respec specialize (respec-patched-lvm, 6 functions)",
			   time_command(LUA_BENCH_RESPEC_PATCHED_COMMAND, "-o out.o", runs));
#endif
}

static void add_code_sizes(struct bench *bench)
{
	for (size_t i = 0; i < sizeof lua_code_sizes / sizeof lua_code_sizes[0]; i++) {
		char key[160];
		snprintf(key, sizeof key, "code bytes: %s %s", lua_code_sizes[i].variant,
			 lua_code_sizes[i].what);
		bench_extra_number(bench, key, lua_code_sizes[i].bytes);
	}
}

int main(int argc, char **argv)
{
	struct bench *bench = bench_create("lua", argc, argv);
	bench_use_thread_cpu_time(bench);
	lua_State *L = lua_host_new_state();

	static const struct {
		const char *name;
		enum program program;
		int words;
		uint32_t modulus; /* words are drawn below it, then shifted to be signed */
	} cases[] = {
		{ "checksum, 1000 words", CHECKSUM, 1000, 0 },
		{ "collatz, 100 words", COLLATZ, 100, 100000 },
		{ "moments, 1000 words", MOMENTS, 1000, 2000001 },
	};
	enum { CASES = sizeof cases / sizeof cases[0] };
	static struct ctx contexts[CASES][VARIANTS];
	/* Each case's table lives in its own thread's stack slot 1 (a coroutine per
	 * case keeps the tables apart without a registry lookup per call). */
	for (size_t c = 0; c < CASES; c++) {
		lua_State *thread = lua_newthread(L);
		luaL_ref(L, LUA_REGISTRYINDEX); /* keeps the thread alive */
		uint64_t state = 42 + c;
		lua_createtable(thread, cases[c].words, 0);
		for (int i = 1; i <= cases[c].words; i++) {
			uint32_t w = next_word(&state);
			lua_Integer word = cases[c].modulus
						   ? (lua_Integer)(w % cases[c].modulus) -
							     (lua_Integer)(cases[c].modulus / 2)
						   : (lua_Integer)(int32_t)w;
			lua_pushinteger(thread, word);
			lua_rawseti(thread, 1, i);
		}
		struct bench_case *bc = bench_add_case(bench, cases[c].name);
		for (size_t v = 0; v < VARIANTS; v++) {
			struct ctx *ctx = &contexts[c][v];
			ctx->L = thread;
			ctx->program = &variants[v].programs[cases[c].program];
			ctx->n = cases[c].words;
			bench_add_variant(bc, variants[v].name, run, digest, ctx);
		}
	}
	add_code_sizes(bench);
	add_build_times(bench);
	int status = bench_run(bench);
	lua_close(L);
	return status;
}
