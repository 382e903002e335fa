/*
 * diff_shapes.c — differential test of the vtable program: every spec function of
 * the tested variant against generic, on 0 to 24 random dimension pairs (ending at a
 * guard page) with canaried result arrays, plus known answers for each class.
 */
#include "shapes_spec.h"

SHAPES_SPEC_FUNCTIONS(CORPUS_DECLARE_VARIANTS)

enum { MOST_SHAPES = 24 };

/* Small dimensions half the time, so that results are also checkable by eye. */
static int32_t random_dimension(struct diff_rng *rng)
{
	return diff_rng_one_in(rng, 2) ? (int32_t)diff_rng_below(rng, 200) - 20
				       : diff_rng_int32(rng);
}

static const int32_t *place_dims(struct diff_input *input, struct diff_rng *rng, size_t count)
{
	int32_t *dims = diff_input_place(input, count * sizeof(int32_t));
	for (size_t i = 0; i < count; i++)
		dims[i] = random_dimension(rng);
	diff_input_seal(input);
	return dims;
}

static void expect_known(const char *what, int64_t actual, int64_t expected)
{
	if (actual != expected) {
		fprintf(stderr, "FAIL: generic %s = %lld, expected %lld\n", what, (long long)actual,
			(long long)expected);
		exit(1);
	}
}

static void check_known_answers(void)
{
	const int32_t dims[] = { 3, 4, 5, 12, 8, 15 };
	int64_t out[MIXED_SHAPES];
	expect_known("rectangles_area2", GENERIC(rectangles_area2)(dims, 3), 2 * (12 + 60 + 120));
	expect_known("triangles_area2", GENERIC(triangles_area2)(dims, 3), 12 + 60 + 120);
	expect_known("squares_perimeters", GENERIC(squares_perimeters)(dims, 2, out), 12 + 16);
	/* Legs (3, 7): hypotenuse 7.6 rounds down to 7. */
	expect_known("triangles_perimeters", GENERIC(triangles_perimeters)(dims, 1, out), 3 + 7 + 7);
	expect_known("mixed_scaled_area2", GENERIC(mixed_scaled_area2)(dims, 2, out),
		     2 * 12 * 4 + 2 * 25 * 4 + 8 * 15 * 4);
}

int main(int argc, char **argv)
{
	struct diff_run run;
	corpus_begin(&run, argc, argv);
	check_known_answers();
	struct diff_input input;
	struct diff_buffer generic_out, tested_out;
	diff_input_init(&input, 2 * MOST_SHAPES * sizeof(int32_t));
	diff_buffer_init(&generic_out, MOST_SHAPES * sizeof(int64_t));
	diff_buffer_init(&tested_out, MOST_SHAPES * sizeof(int64_t));
	struct diff_rng rng;

	static const struct {
		const char *name;
		int64_t (*generic)(const int32_t *, size_t), (*tested)(const int32_t *, size_t);
	} sums[] = {
		{ "rectangles_area2", GENERIC(rectangles_area2), TESTED(rectangles_area2) },
		{ "triangles_area2", GENERIC(triangles_area2), TESTED(triangles_area2) },
	};
	for (size_t f = 0; f < sizeof sums / sizeof sums[0]; f++) {
		while (diff_next(&run, sums[f].name, &rng)) {
			size_t n = (size_t)diff_rng_below(&rng, MOST_SHAPES + 1);
			const int32_t *dims = place_dims(&input, &rng, 2 * n);
			int64_t expected = sums[f].generic(dims, n);
			diff_expect_input_unchanged(&run, "dims after generic", &input);
			int64_t actual = sums[f].tested(dims, n);
			diff_expect_input_unchanged(&run, "dims after the variant", &input);
			diff_expect_equal_int(&run, "sum", expected, actual);
		}
		diff_function_done(&run, sums[f].name);
	}

	static const struct {
		const char *name;
		int64_t (*generic)(const int32_t *, size_t, int64_t *),
			(*tested)(const int32_t *, size_t, int64_t *);
	} perimeters[] = {
		{ "squares_perimeters", GENERIC(squares_perimeters), TESTED(squares_perimeters) },
		{ "triangles_perimeters", GENERIC(triangles_perimeters),
		  TESTED(triangles_perimeters) },
	};
	for (size_t f = 0; f < sizeof perimeters / sizeof perimeters[0]; f++) {
		while (diff_next(&run, perimeters[f].name, &rng)) {
			size_t n = (size_t)diff_rng_below(&rng, MOST_SHAPES + 1);
			const int32_t *sides = place_dims(&input, &rng, n);
			diff_buffer_randomize(&generic_out, &rng);
			diff_buffer_copy(&tested_out, &generic_out);
			int64_t expected =
				perimeters[f].generic(sides, n, diff_buffer_data(&generic_out));
			diff_expect_input_unchanged(&run, "sides after generic", &input);
			int64_t actual = perimeters[f].tested(sides, n, diff_buffer_data(&tested_out));
			diff_expect_input_unchanged(&run, "sides after the variant", &input);
			diff_expect_equal_int(&run, "sum", expected, actual);
			diff_expect_equal_buffers(&run, "perimeters", &generic_out, &tested_out);
		}
		diff_function_done(&run, perimeters[f].name);
	}

	while (diff_next(&run, "mixed_scaled_area2", &rng)) {
		const int32_t *dims = place_dims(&input, &rng, 2 * MIXED_SHAPES);
		int32_t factor = random_dimension(&rng);
		diff_buffer_randomize(&generic_out, &rng);
		diff_buffer_copy(&tested_out, &generic_out);
		int64_t expected =
			GENERIC(mixed_scaled_area2)(dims, factor, diff_buffer_data(&generic_out));
		diff_expect_input_unchanged(&run, "dims after generic", &input);
		int64_t actual = TESTED(mixed_scaled_area2)(dims, factor, diff_buffer_data(&tested_out));
		diff_expect_input_unchanged(&run, "dims after the variant", &input);
		diff_expect_equal_int(&run, "sum", expected, actual);
		diff_expect_equal_buffers(&run, "area2", &generic_out, &tested_out);
	}
	diff_function_done(&run, "mixed_scaled_area2");

	diff_buffer_destroy(&generic_out);
	diff_buffer_destroy(&tested_out);
	diff_input_destroy(&input);
	printf("%s: all shape functions agree with generic\n", run.variant);
	return 0;
}
