/*
 * diff_stackvm.c — differential test of the stack machine program: every spec
 * function of the tested variant against generic, on argument vectors of 0 to 4
 * values (too few must fail the same way) that end at a guard page, with the result
 * cell canaried.
 */
#include "stackvm_spec.h"

STACKVM_SPEC_FUNCTIONS(CORPUS_DECLARE_VARIANTS)

typedef int spec_function(const int32_t *args, size_t nargs, int32_t *result);

struct stackvm_case {
	const char *name;
	spec_function *generic, *tested;
	bool always_fails; /* the program is malformed: no outcome tally */
};

#define STACKVM_CASE(fn, always_fails) { #fn, GENERIC(fn), TESTED(fn), always_fails }

static const struct stackvm_case cases[] = {
	STACKVM_CASE(stackvm_poly, false),     STACKVM_CASE(stackvm_clamp, false),
	STACKVM_CASE(stackvm_power, false),    STACKVM_CASE(stackvm_popcount, false),
	STACKVM_CASE(stackvm_underflow, true),
};

enum { MOST_ARGS = 4 };

/* Values around the clamp bounds as often as anywhere else. */
static int32_t random_arg(struct diff_rng *rng)
{
	return diff_rng_one_in(rng, 2) ? (int32_t)diff_rng_below(rng, 140) - 20
				       : diff_rng_int32(rng);
}

static void test_case(struct diff_run *run, const struct stackvm_case *c)
{
	struct diff_input input;
	struct diff_buffer generic_out, tested_out;
	diff_input_init(&input, MOST_ARGS * sizeof(int32_t));
	diff_buffer_init(&generic_out, sizeof(int32_t));
	diff_buffer_init(&tested_out, sizeof(int32_t));
	struct diff_rng rng;
	while (diff_next(run, c->name, &rng)) {
		size_t nargs = (size_t)diff_rng_below(&rng, MOST_ARGS + 1);
		int32_t *args = diff_input_place(&input, nargs * sizeof(int32_t));
		for (size_t i = 0; i < nargs; i++)
			args[i] = random_arg(&rng);
		diff_input_seal(&input);
		diff_buffer_randomize(&generic_out, &rng);
		diff_buffer_copy(&tested_out, &generic_out);

		int expected = c->generic(args, nargs, diff_buffer_data(&generic_out));
		diff_expect_input_unchanged(run, "args after generic", &input);
		int actual = c->tested(args, nargs, diff_buffer_data(&tested_out));
		diff_expect_input_unchanged(run, "args after the variant", &input);
		diff_expect_equal_int(run, "status", expected, actual);
		diff_expect_equal_buffers(run, "result", &generic_out, &tested_out);
		if (!c->always_fails)
			diff_count_outcome(run, expected == SV_OK);
		else if (expected == SV_OK)
			diff_fail(run, "the malformed program ran to completion");
	}
	diff_function_done(run, c->name);
	diff_buffer_destroy(&generic_out);
	diff_buffer_destroy(&tested_out);
	diff_input_destroy(&input);
}

/* Known answers, so that a generic machine that is wrong everywhere also fails. */
static void check_known_answers(void)
{
	int32_t args[] = { 3, 7, 0 }, result = 0;
	struct {
		spec_function *fn;
		int32_t expected;
	} known[] = {
		{ GENERIC(stackvm_poly), (3 * 3 * 3 - 7 * 5) >> 3 & 0x1fffffff },
		{ GENERIC(stackvm_clamp), 3 },
		{ GENERIC(stackvm_power), 3 * 3 * 3 * 3 * 3 + 7 },
		{ GENERIC(stackvm_popcount), 2 },
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		if (known[i].fn(args, 3, &result) != SV_OK || result != known[i].expected) {
			fprintf(stderr, "FAIL: generic program %zu computes %d, not %d\n", i,
				(int)result, (int)known[i].expected);
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	struct diff_run run;
	corpus_begin(&run, argc, argv);
	check_known_answers();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		test_case(&run, &cases[i]);
	printf("%s: all stack machine programs agree with generic\n", run.variant);
	return 0;
}
