/*
 * bench_core.c — the core benchmark: respec's two built-in examples, each variant
 * linked side by side (see examples/RespecVariants.cmake), timed by the harness.
 *
 *   interp        one call of run_fixed_program: the checksum bytecode over 32 input
 *                 words. The calls cycle through INTERP_INPUTS different inputs so
 *                 that the program's data-dependent branches are not one fixed
 *                 pattern the branch predictor memorizes.
 *   interp-bounded  one call of run_bounded_program: the same loop body over
 *                 input[1..input[0]-1], whose trip count is run-time data (32 to 64
 *                 iterations, varying over the cycled inputs).
 *   marshal-1000  one call of encode_ints1000: a 1000-int array into its 4004-byte
 *                 message (the classic XDR marshaling microbenchmark; divide by 1000
 *                 for ns per int). Its variants are built twice, for the baseline
 *                 x86-64 and for x86-64-v3 (generic-v3, respec-v3, clang-lto-v3,
 *                 hand-v3: the same with -march=x86-64-v3); the harness leaves out the
 *                 v3 ones on a CPU that cannot run them, and reports each variant's
 *                 time over its own target's hand variant (time/hand).
 */
#include "harness.h"
#include "interp_spec.h"
#include "marshal_spec.h"

#include <stdio.h>
#include <stdlib.h>

INTERP_SPEC_DECLARE(generic_)
INTERP_SPEC_DECLARE(clang_lto_)
#ifdef HAVE_INTERP_RESPEC
INTERP_SPEC_DECLARE(respec_)
#endif

MARSHAL_SPEC_DECLARE(generic_)
MARSHAL_SPEC_DECLARE(clang_lto_)
MARSHAL_SPEC_DECLARE(hand_)
#ifdef HAVE_MARSHAL_RESPEC
MARSHAL_SPEC_DECLARE(respec_)
#endif
#ifdef HAVE_MARSHAL_GENERIC_V3
MARSHAL_SPEC_DECLARE(generic_v3_)
#endif
#ifdef HAVE_MARSHAL_CLANG_LTO_V3
MARSHAL_SPEC_DECLARE(clang_lto_v3_)
#endif
#ifdef HAVE_MARSHAL_HAND_V3
MARSHAL_SPEC_DECLARE(hand_v3_)
#endif
#ifdef HAVE_MARSHAL_RESPEC_V3
MARSHAL_SPEC_DECLARE(respec_v3_)
#endif

enum { INTERP_INPUTS = 128, BOUNDED_WORDS = 65 };

/* Deterministic pseudo-random words, the same for every variant and run. */
static uint32_t next_word(uint64_t *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*state >> 32);
}

static int32_t interp_inputs[INTERP_INPUTS][INTERP_PROGRAM_WORDS];
static int32_t bounded_inputs[INTERP_INPUTS][BOUNDED_WORDS];
static int marshal_input[MARSHAL_INTS_MAX];

struct interp_ctx {
	int32_t (*run_program)(const int32_t *input, size_t n);
	const int32_t *inputs; /* INTERP_INPUTS rows of `words` words */
	size_t words;
	int32_t results[INTERP_INPUTS];
};

static void interp_run(void *opaque, uint64_t iterations)
{
	struct interp_ctx *ctx = opaque;
	for (uint64_t i = 0; i < iterations; i++) {
		size_t which = i % INTERP_INPUTS;
		ctx->results[which] =
			ctx->run_program(ctx->inputs + which * ctx->words, ctx->words);
	}
}

static uint64_t interp_digest(void *opaque)
{
	struct interp_ctx *ctx = opaque;
	return bench_digest_bytes(BENCH_DIGEST_INIT, ctx->results, sizeof ctx->results);
}

struct marshal_ctx {
	int (*encode_ints1000)(char *buf, const int *a);
	int result;
	char message[MARSHAL_INTS1000_SIZE];
};

static void marshal_run(void *opaque, uint64_t iterations)
{
	struct marshal_ctx *ctx = opaque;
	for (uint64_t i = 0; i < iterations; i++)
		ctx->result = ctx->encode_ints1000(ctx->message, marshal_input);
}

static uint64_t marshal_digest(void *opaque)
{
	struct marshal_ctx *ctx = opaque;
	uint64_t digest = bench_digest_bytes(BENCH_DIGEST_INIT, &ctx->result, sizeof ctx->result);
	return bench_digest_bytes(digest, ctx->message, sizeof ctx->message);
}

static void add_interp_variant(struct bench_case *c, const char *name,
			       int32_t (*run_program)(const int32_t *, size_t),
			       const int32_t *inputs, size_t words)
{
	struct interp_ctx *ctx = calloc(1, sizeof *ctx);
	if (ctx == NULL) {
		perror("bench-core");
		exit(1);
	}
	ctx->run_program = run_program;
	ctx->inputs = inputs;
	ctx->words = words;
	bench_add_variant(c, name, interp_run, interp_digest, ctx);
}

static void add_marshal_variant(struct bench_case *c, const char *name,
				int (*encode_ints1000)(char *, const int *))
{
	struct marshal_ctx *ctx = calloc(1, sizeof *ctx);
	if (ctx == NULL) {
		perror("bench-core");
		exit(1);
	}
	ctx->encode_ints1000 = encode_ints1000;
	bench_add_variant(c, name, marshal_run, marshal_digest, ctx);
}

int main(int argc, char **argv)
{
	struct bench *bench = bench_create("core", argc, argv);
	/* Both cases are single-threaded computation: count only the time we ran. */
	bench_use_thread_cpu_time(bench);

	uint64_t state = 0x5eed;
	for (int i = 0; i < INTERP_INPUTS; i++)
		for (int w = 0; w < INTERP_PROGRAM_WORDS; w++)
			interp_inputs[i][w] = (int32_t)next_word(&state);
	for (int i = 0; i < INTERP_INPUTS; i++) {
		for (int w = 0; w < BOUNDED_WORDS; w++)
			bounded_inputs[i][w] = (int32_t)next_word(&state);
		bounded_inputs[i][0] = 33 + (int32_t)(next_word(&state) % 32);
	}
	for (int i = 0; i < MARSHAL_INTS_MAX; i++)
		marshal_input[i] = (int)next_word(&state);

	struct bench_case *interp = bench_add_case(bench, "interp");
	bench_case_check_iterations(interp, INTERP_INPUTS);
	const int32_t *fixed = &interp_inputs[0][0], *bounded = &bounded_inputs[0][0];
	add_interp_variant(interp, "generic", generic_run_fixed_program, fixed,
			   INTERP_PROGRAM_WORDS);
#ifdef HAVE_INTERP_RESPEC
	add_interp_variant(interp, "respec", respec_run_fixed_program, fixed,
			   INTERP_PROGRAM_WORDS);
#endif
	add_interp_variant(interp, "clang-lto", clang_lto_run_fixed_program, fixed,
			   INTERP_PROGRAM_WORDS);

	struct bench_case *interp_bounded = bench_add_case(bench, "interp-bounded");
	bench_case_check_iterations(interp_bounded, INTERP_INPUTS);
	add_interp_variant(interp_bounded, "generic", generic_run_bounded_program, bounded,
			   BOUNDED_WORDS);
#ifdef HAVE_INTERP_RESPEC
	add_interp_variant(interp_bounded, "respec", respec_run_bounded_program, bounded,
			   BOUNDED_WORDS);
#endif
	add_interp_variant(interp_bounded, "clang-lto", clang_lto_run_bounded_program, bounded,
			   BOUNDED_WORDS);

	struct bench_case *marshal = bench_add_case(bench, "marshal-1000");
	add_marshal_variant(marshal, "generic", generic_encode_ints1000);
#ifdef HAVE_MARSHAL_RESPEC
	add_marshal_variant(marshal, "respec", respec_encode_ints1000);
#endif
	add_marshal_variant(marshal, "clang-lto", clang_lto_encode_ints1000);
	add_marshal_variant(marshal, "hand", hand_encode_ints1000);
#ifdef HAVE_MARSHAL_GENERIC_V3
	add_marshal_variant(marshal, "generic-v3", generic_v3_encode_ints1000);
#endif
#ifdef HAVE_MARSHAL_RESPEC_V3
	add_marshal_variant(marshal, "respec-v3", respec_v3_encode_ints1000);
#endif
#ifdef HAVE_MARSHAL_CLANG_LTO_V3
	add_marshal_variant(marshal, "clang-lto-v3", clang_lto_v3_encode_ints1000);
#endif
#ifdef HAVE_MARSHAL_HAND_V3
	add_marshal_variant(marshal, "hand-v3", hand_v3_encode_ints1000);
#endif

	bench_extra_string(bench, "interp op",
			   "run_fixed_program: checksum bytecode over 32 words, 128 inputs cycled");
	bench_extra_string(bench, "interp-bounded op",
			   "run_bounded_program: the checksum loop over input[1..input[0]-1], "
			   "input[0] in 33..64, 128 inputs cycled");
	bench_extra_string(bench, "marshal-1000 op",
			   "encode_ints1000: 1000 ints into a 4004-byte message");
#ifndef HAVE_MARSHAL_RESPEC
	bench_extra_string(bench, "note", "respec variant not built (no respec tool target)");
#endif
	return bench_run(bench);
}
