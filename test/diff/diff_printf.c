/*
 * diff_printf.c — differential test of the printf case study: each format of a chosen
 * variant against the generic variant (dietlibc's snprintf compiled normally), on
 * random arguments (INT_MIN, INT_MAX, 0 and the full range favoured by
 * diff_rng_int32), random strings up to 300 bytes ending at a guard page, and buffer
 * sizes from 0 up past the longest output, so that truncation is hit at every
 * position; sometimes the buffer is NULL with size 0, as in a length query. The return
 * value and every byte of the canaried buffer must agree.
 *
 * The "selftest" variant is deliberately wrong when the output is truncated to an
 * empty string (size 1): the suite runs it to show such a case is reached and caught.
 */
#include "diffcheck.h"
#include "printf_spec.h"

#include <stdio.h>
#include <string.h>

PRINTF_SPEC_DECLARE(generic_)
#ifdef HAVE_PRINTF_CLANG_LTO
PRINTF_SPEC_DECLARE(clang_lto_)
#endif
#ifdef HAVE_PRINTF_RESPEC
PRINTF_SPEC_DECLARE(respec_)
#endif

static int selftest_format_point(char *buf, size_t size, int x, int y)
{
	int n = generic_format_point(buf, size, x, y);
	if (size == 1)
		buf[0] = '(';
	return n;
}

struct printf_variant {
	const char *name;
	int (*format_point)(char *, size_t, int, int);
	int (*format_tagged)(char *, size_t, unsigned, const char *, char);
	int (*format_ratio)(char *, size_t, unsigned, unsigned, const char *);
};

#define PRINTF_VARIANT(label, prefix) \
	{ label, prefix##format_point, prefix##format_tagged, prefix##format_ratio }

static const struct printf_variant variants[] = {
#ifdef HAVE_PRINTF_CLANG_LTO
	PRINTF_VARIANT("clang-lto", clang_lto_),
#endif
#ifdef HAVE_PRINTF_RESPEC
	PRINTF_VARIANT("respec", respec_),
#endif
	PRINTF_VARIANT("generic", generic_),
	{ "selftest", selftest_format_point, generic_format_tagged, generic_format_ratio },
};

enum { LONGEST_STRING = 300, CAPACITY = LONGEST_STRING + 64 };

/* A buffer size: mostly small (truncation everywhere), sometimes all of it. */
static size_t buffer_size(struct diff_rng *rng)
{
	if (diff_rng_one_in(rng, 8))
		return 0;
	if (diff_rng_one_in(rng, 4))
		return CAPACITY;
	return (size_t)diff_rng_below(rng, diff_rng_one_in(rng, 2) ? 40 : CAPACITY + 1);
}

/* A string placed in input (ending at its guard page): empty, short, or long. */
static const char *random_string(struct diff_rng *rng, struct diff_input *input)
{
	size_t length;
	switch (diff_rng_below(rng, 4)) {
	case 0: length = 0; break;
	case 1: length = (size_t)diff_rng_below(rng, 4); break;
	case 2: length = 4 + (size_t)diff_rng_below(rng, 8); break;
	default: length = (size_t)diff_rng_below(rng, LONGEST_STRING); break;
	}
	char *s = diff_input_place(input, length + 1);
	for (size_t i = 0; i < length; i++)
		s[i] = (char)(1 + diff_rng_below(rng, 255));
	s[length] = 0;
	diff_input_seal(input);
	return s;
}

/* Calls FORMAT (a member of struct printf_variant) with ARGS... on the generic and the
 * variant's buffer, NULL for both one time in 16 (then with size 0). */
#define CHECK_FORMAT(run, v, rng, inputs, ninputs, format, ...)                                \
	do {                                                                                   \
		size_t size = buffer_size(rng);                                                \
		bool null = diff_rng_one_in(rng, 16);                                          \
		if (null)                                                                      \
			size = 0;                                                              \
		diff_buffer_randomize(&generic_out, rng);                                      \
		diff_buffer_copy(&variant_out, &generic_out);                                  \
		int expected = generic_##format(null ? NULL : diff_buffer_data(&generic_out),  \
						size, __VA_ARGS__);                            \
		int actual = (v)->format(null ? NULL : diff_buffer_data(&variant_out), size,   \
					 __VA_ARGS__);                                         \
		for (int i = 0; i < (ninputs); i++)                                            \
			diff_expect_input_unchanged(run, "string argument", &(inputs)[i]);     \
		diff_expect_equal_int(run, "return value", expected, actual);                  \
		diff_expect_equal_buffers(run, "buf", &generic_out, &variant_out);             \
	} while (0)

int main(int argc, char **argv)
{
	struct diff_run run;
	diff_begin(&run, argc, argv, 20000);
	const struct printf_variant *v = DIFF_FIND_VARIANT(run.variant, variants);

	struct diff_buffer generic_out, variant_out;
	diff_buffer_init(&generic_out, CAPACITY);
	diff_buffer_init(&variant_out, CAPACITY);
	struct diff_input inputs[1];
	diff_input_init(&inputs[0], LONGEST_STRING + 1);
	struct diff_rng rng;

	while (diff_next(&run, "format_point", &rng)) {
		int x = diff_rng_int32(&rng), y = diff_rng_int32(&rng);
		CHECK_FORMAT(&run, v, &rng, inputs, 0, format_point, x, y);
	}
	diff_function_done(&run, "format_point");

	while (diff_next(&run, "format_tagged", &rng)) {
		unsigned id = (unsigned)diff_rng_int32(&rng);
		const char *name = random_string(&rng, &inputs[0]);
		char tag = (char)diff_rng_below(&rng, 256);
		CHECK_FORMAT(&run, v, &rng, inputs, 1, format_tagged, id, name, tag);
	}
	diff_function_done(&run, "format_tagged");

	while (diff_next(&run, "format_ratio", &rng)) {
		unsigned done = (unsigned)diff_rng_int32(&rng), total = (unsigned)diff_rng_int32(&rng);
		const char *unit = random_string(&rng, &inputs[0]);
		CHECK_FORMAT(&run, v, &rng, inputs, 1, format_ratio, done, total, unit);
	}
	diff_function_done(&run, "format_ratio");

	diff_input_destroy(&inputs[0]);
	diff_buffer_destroy(&generic_out);
	diff_buffer_destroy(&variant_out);
	printf("%s: format_point, format_tagged and format_ratio agree with generic\n", run.variant);
	return 0;
}
