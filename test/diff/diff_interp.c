/*
 * diff_interp.c — differential test of the interpreter example: run_fixed_program of
 * a chosen variant against the generic interpreter, on random inputs of every length
 * around the program's INTERP_PROGRAM_WORDS (shorter ones must fault the same way),
 * and run_bounded_program on inputs whose first word, the trip count, ranges from
 * negative through every in-range bound to past the input's end.
 *
 * The "selftest" variant is deliberately wrong on inputs with a negative first word
 * (run_fixed_program) and when the bound is exactly the input's length
 * (run_bounded_program), which the test suite runs to show the mismatch is caught.
 */
#include "diffcheck.h"
#include "interp_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

INTERP_SPEC_DECLARE(generic_)
#ifdef HAVE_INTERP_CLANG_LTO
INTERP_SPEC_DECLARE(clang_lto_)
#endif
#ifdef HAVE_INTERP_RESPEC
INTERP_SPEC_DECLARE(respec_)
#endif

struct interp_variant {
	const char *name;
	int32_t (*run_fixed_program)(const int32_t *input, size_t n);
	int32_t (*run_bounded_program)(const int32_t *input, size_t n);
};

static int32_t selftest_run_fixed_program(const int32_t *input, size_t n)
{
	int32_t result = generic_run_fixed_program(input, n);
	return n > 0 && input[0] < 0 ? result ^ 1 : result;
}

static int32_t selftest_run_bounded_program(const int32_t *input, size_t n)
{
	int32_t result = generic_run_bounded_program(input, n);
	return n > 0 && (size_t)input[0] == n ? result + 1 : result;
}

/* Longest input of run_bounded_program: long enough that unrolling would show. */
enum { BOUNDED_LONGEST = 300 };

static const struct interp_variant variants[] = {
#ifdef HAVE_INTERP_CLANG_LTO
	{ "clang-lto", clang_lto_run_fixed_program, clang_lto_run_bounded_program },
#endif
#ifdef HAVE_INTERP_RESPEC
	{ "respec", respec_run_fixed_program, respec_run_bounded_program },
#endif
	{ "generic", generic_run_fixed_program, generic_run_bounded_program },
	{ "selftest", selftest_run_fixed_program, selftest_run_bounded_program },
};

/* Words with a shape: both branches of the program depend on sign and parity. */
static int32_t program_word(struct diff_rng *rng, uint64_t shape)
{
	int32_t word = diff_rng_int32(rng);
	switch (shape) {
	case 0: /* all non-negative */
		return word == INT32_MIN ? 0 : (word < 0 ? -word : word);
	case 1: /* all negative */
		return word >= 0 ? -1 - word : word;
	case 2: /* all even */
		return (int32_t)((uint32_t)word & ~1u);
	default:
		return word;
	}
}

typedef int32_t program_fn(const int32_t *input, size_t n);

/* The words of one input: how many, and any constraint on them. */
typedef size_t input_fn(struct diff_rng *rng, struct diff_input *input, int32_t **words);

static size_t fixed_program_input(struct diff_rng *rng, struct diff_input *input, int32_t **words)
{
	enum { LONGEST = INTERP_PROGRAM_WORDS + 8 };
	/* Mostly enough words; sometimes too few, down to none. */
	size_t n = diff_rng_one_in(rng, 4) ? (size_t)diff_rng_below(rng, INTERP_PROGRAM_WORDS)
					   : INTERP_PROGRAM_WORDS +
						     (size_t)diff_rng_below(rng, LONGEST - INTERP_PROGRAM_WORDS + 1);
	*words = diff_input_place(input, n * sizeof(int32_t));
	uint64_t shape = diff_rng_below(rng, 6);
	for (size_t i = 0; i < n; i++)
		(*words)[i] = program_word(rng, shape);
	return n;
}

static size_t bounded_program_input(struct diff_rng *rng, struct diff_input *input,
				    int32_t **words)
{
	size_t n = (size_t)diff_rng_below(rng, BOUNDED_LONGEST + 1);
	*words = diff_input_place(input, n * sizeof(int32_t));
	uint64_t shape = diff_rng_below(rng, 6);
	for (size_t i = 0; i < n; i++)
		(*words)[i] = program_word(rng, shape);
	/* The bound: mostly within the input (so the loop runs to it), else any
	 * word: negative, zero, or past the end (a fault at input[n]). */
	if (n > 0 && !diff_rng_one_in(rng, 5))
		(*words)[0] = (int32_t)diff_rng_below(rng, n + 1);
	return n;
}

static void check_program(struct diff_run *run, const char *function, program_fn *generic,
			  program_fn *variant, input_fn *make_input, struct diff_input *input)
{
	struct diff_rng rng;
	while (diff_next(run, function, &rng)) {
		int32_t *words;
		size_t n = make_input(&rng, input, &words);
		diff_input_seal(input);

		int32_t expected = generic(words, n);
		diff_expect_input_unchanged(run, "input after generic", input);
		int32_t actual = variant(words, n);
		diff_expect_input_unchanged(run, "input after the variant", input);
		diff_expect_equal_int(run, "return value", expected, actual);
		diff_count_outcome(run, expected != VM_FAULT);
	}
	diff_function_done(run, function);
}

int main(int argc, char **argv)
{
	struct diff_run run;
	diff_begin(&run, argc, argv, 20000);
	const struct interp_variant *v = DIFF_FIND_VARIANT(run.variant, variants);

	struct diff_input input;
	diff_input_init(&input, (INTERP_PROGRAM_WORDS + BOUNDED_LONGEST + 8) * sizeof(int32_t));
	check_program(&run, "run_fixed_program", generic_run_fixed_program, v->run_fixed_program,
		      fixed_program_input, &input);
	check_program(&run, "run_bounded_program", generic_run_bounded_program,
		      v->run_bounded_program, bounded_program_input, &input);
	diff_input_destroy(&input);
	printf("%s: run_fixed_program and run_bounded_program agree with generic\n", run.variant);
	return 0;
}
