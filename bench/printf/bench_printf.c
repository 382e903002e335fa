/*
 * bench_printf.c — the printf benchmark: one snprintf call with a static format and
 * dynamic arguments, per format of examples/printf, in every variant of dietlibc's
 * snprintf linked side by side (generic, clang-lto, respec) and glibc's snprintf on the
 * same calls (the peer: the C library these programs otherwise run on).
 *
 * Each case cycles through INPUTS argument tuples (random numbers, INT_MIN among them,
 * and names of 0 to 12 characters) so that no single branch pattern is memorized, into
 * a buffer of BUFFER bytes. The "truncated" case gives every call 8 bytes, so output
 * is cut short and only the return value says how long it would have been. Every
 * variant's outputs and return values are compared with generic's before timing
 * (harness.h), glibc's included: for these conversions dietlibc and glibc agree.
 */
#include "harness.h"
#include "printf_spec.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

PRINTF_SPEC_DECLARE(generic_)
#ifdef HAVE_PRINTF_CLANG_LTO
PRINTF_SPEC_DECLARE(clang_lto_)
#endif
#ifdef HAVE_PRINTF_RESPEC
PRINTF_SPEC_DECLARE(respec_)
#endif

/* The peer: the same formats on glibc's snprintf. */
static int glibc_format_point(char *buf, size_t size, int x, int y)
{
	return snprintf(buf, size, "(%d, %d)", x, y);
}
static int glibc_format_tagged(char *buf, size_t size, unsigned id, const char *name, char tag)
{
	return snprintf(buf, size, "%08x:%-6s|%c", id, name, tag);
}
static int glibc_format_ratio(char *buf, size_t size, unsigned done, unsigned total,
			      const char *unit)
{
	return snprintf(buf, size, "%5u/%u %s", done, total, unit);
}

enum { INPUTS = 256, BUFFER = 64, TRUNCATED = 8 };

struct args {
	int x, y;
	unsigned id, done, total;
	char tag;
	char name[16];
};
static struct args inputs[INPUTS];

static uint32_t next_word(uint64_t *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*state >> 32);
}

static void make_inputs(void)
{
	static const int edges[] = { INT_MIN, INT_MAX, 0, -1, 7, -42, 100000 };
	uint64_t state = 42;
	for (int i = 0; i < INPUTS; i++) {
		struct args *a = &inputs[i];
		uint32_t shape = next_word(&state);
		/* Mostly small numbers, as printed in logs; some full-range and edge values. */
		a->x = shape % 4 == 0 ? (int)next_word(&state) : (int)(next_word(&state) % 2000) - 1000;
		a->y = shape % 8 == 1 ? edges[next_word(&state) % 7] : (int)(next_word(&state) % 100000);
		a->id = next_word(&state);
		a->done = next_word(&state) % 100000;
		a->total = shape % 3 ? a->done + next_word(&state) % 1000 : next_word(&state);
		a->tag = (char)('A' + next_word(&state) % 26);
		size_t length = next_word(&state) % 13;
		for (size_t k = 0; k < length; k++)
			a->name[k] = (char)('a' + next_word(&state) % 26);
		a->name[length] = 0;
	}
}

enum format { POINT, TAGGED, RATIO };

struct variant {
	const char *name;
	int (*format_point)(char *, size_t, int, int);
	int (*format_tagged)(char *, size_t, unsigned, const char *, char);
	int (*format_ratio)(char *, size_t, unsigned, unsigned, const char *);
};

static const struct variant variants[] = {
	{ "generic", generic_format_point, generic_format_tagged, generic_format_ratio },
#ifdef HAVE_PRINTF_RESPEC
	{ "respec", respec_format_point, respec_format_tagged, respec_format_ratio },
#endif
#ifdef HAVE_PRINTF_CLANG_LTO
	{ "clang-lto", clang_lto_format_point, clang_lto_format_tagged, clang_lto_format_ratio },
#endif
	{ "glibc", glibc_format_point, glibc_format_tagged, glibc_format_ratio },
};
enum { VARIANTS = sizeof variants / sizeof variants[0] };

/* One variant on one case: every input's output and return value, kept for the digest. */
struct ctx {
	const struct variant *variant;
	enum format format;
	size_t size;
	int results[INPUTS];
	char out[INPUTS][BUFFER];
};

static void run(void *opaque, uint64_t iterations)
{
	struct ctx *ctx = opaque;
	const struct variant *v = ctx->variant;
	for (uint64_t i = 0; i < iterations; i++) {
		size_t which = i % INPUTS;
		const struct args *a = &inputs[which];
		char *out = ctx->out[which];
		switch (ctx->format) {
		case POINT:
			ctx->results[which] = v->format_point(out, ctx->size, a->x, a->y);
			break;
		case TAGGED:
			ctx->results[which] = v->format_tagged(out, ctx->size, a->id, a->name, a->tag);
			break;
		case RATIO:
			ctx->results[which] =
				v->format_ratio(out, ctx->size, a->done, a->total, a->name);
			break;
		}
	}
}

static uint64_t digest(void *opaque)
{
	struct ctx *ctx = opaque;
	uint64_t d = bench_digest_bytes(BENCH_DIGEST_INIT, ctx->results, sizeof ctx->results);
	return bench_digest_bytes(d, ctx->out, sizeof ctx->out);
}

int main(int argc, char **argv)
{
	struct bench *bench = bench_create("printf", argc, argv);
	bench_use_thread_cpu_time(bench);
	make_inputs();
	static const struct {
		const char *name;
		enum format format;
		size_t size;
	} cases[] = {
		{ "(%d, %d)", POINT, BUFFER },
		{ "%08x:%-6s|%c", TAGGED, BUFFER },
		{ "%5u/%u %s", RATIO, BUFFER },
		{ "(%d, %d) truncated to 8 bytes", POINT, TRUNCATED },
	};
	static struct ctx contexts[sizeof cases / sizeof cases[0]][VARIANTS];
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct bench_case *bc = bench_add_case(bench, cases[c].name);
		bench_case_check_iterations(bc, INPUTS);
		for (size_t v = 0; v < VARIANTS; v++) {
			struct ctx *ctx = &contexts[c][v];
			ctx->variant = &variants[v];
			ctx->format = cases[c].format;
			ctx->size = cases[c].size;
			/* Bytes past the terminator stay as they start: the same for all. */
			memset(ctx->out, 0x5a, sizeof ctx->out);
			bench_add_variant(bc, variants[v].name, run, digest, ctx);
		}
	}
	return bench_run(bench);
}
