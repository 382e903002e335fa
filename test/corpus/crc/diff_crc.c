/*
 * diff_crc.c — differential test of the CRC program: every spec function of the
 * tested variant against generic on random data of random length (0 to 64 bytes,
 * ending at a guard page), plus the published check values of each CRC (the CRC of
 * "123456789") and agreement between the generic table and bitwise engines.
 */
#include "crc_spec.h"

CRC_SPEC_FUNCTIONS(CORPUS_DECLARE_VARIANTS)

enum { LONGEST = 64 };

static void expect_check_value(const char *name, uint32_t actual, uint32_t expected)
{
	if (actual != expected) {
		fprintf(stderr, "FAIL: generic %s(\"123456789\") = %#x, expected %#x\n", name,
			(unsigned)actual, (unsigned)expected);
		exit(1);
	}
}

static void check_known_answers(void)
{
	const uint8_t *check = (const uint8_t *)"123456789";
	expect_check_value("crc32_any", GENERIC(crc32_any)(check, 9), 0xcbf43926u);
	expect_check_value("crc16_ccitt_any", GENERIC(crc16_ccitt_any)(check, 9), 0x29b1);
	expect_check_value("crc8_bitwise_any", GENERIC(crc8_bitwise_any)(check, 9), 0xf4);
	expect_check_value("crc32_two_parts", GENERIC(crc32_two_parts)(check, 9, 4), 0xcbf43926u);
}

/* Places length bytes of random data at the end of input and seals it. */
static const uint8_t *place_data(struct diff_input *input, struct diff_rng *rng, size_t length)
{
	uint8_t *data = diff_input_place(input, length);
	diff_rng_fill(rng, data, length);
	diff_input_seal(input);
	return data;
}

/* Compares one call's results and checks that neither side wrote to the data. */
static void expect_same(struct diff_run *run, const struct diff_input *input,
			uint32_t expected, uint32_t actual)
{
	diff_expect_input_unchanged(run, "data", input);
	diff_expect_equal_int(run, "crc", expected, actual);
}

int main(int argc, char **argv)
{
	struct diff_run run;
	corpus_begin(&run, argc, argv);
	check_known_answers();
	struct diff_input input;
	diff_input_init(&input, LONGEST);
	struct diff_rng rng;

	while (diff_next(&run, "crc32_fixed", &rng)) {
		const uint8_t *data = place_data(&input, &rng, CRC_FIXED_LENGTH);
		uint32_t expected = GENERIC(crc32_fixed)(data);
		if (expected != GENERIC(crc32_any)(data, CRC_FIXED_LENGTH))
			diff_fail(&run, "generic crc32_fixed and crc32_any disagree");
		expect_same(&run, &input, expected, TESTED(crc32_fixed)(data));
	}
	diff_function_done(&run, "crc32_fixed");

	while (diff_next(&run, "crc32_bitwise_fixed", &rng)) {
		const uint8_t *data = place_data(&input, &rng, CRC_BITWISE_LENGTH);
		uint32_t expected = GENERIC(crc32_bitwise_fixed)(data);
		if (expected != GENERIC(crc32_any)(data, CRC_BITWISE_LENGTH))
			diff_fail(&run, "generic bitwise and table CRC-32 disagree");
		expect_same(&run, &input, expected, TESTED(crc32_bitwise_fixed)(data));
	}
	diff_function_done(&run, "crc32_bitwise_fixed");

	static const struct {
		const char *name;
		uint32_t (*generic)(const uint8_t *, size_t), (*tested)(const uint8_t *, size_t);
	} any_length[] = {
		{ "crc32_any", GENERIC(crc32_any), TESTED(crc32_any) },
		{ "crc16_ccitt_any", GENERIC(crc16_ccitt_any), TESTED(crc16_ccitt_any) },
		{ "crc8_bitwise_any", GENERIC(crc8_bitwise_any), TESTED(crc8_bitwise_any) },
	};
	for (size_t f = 0; f < sizeof any_length / sizeof any_length[0]; f++) {
		while (diff_next(&run, any_length[f].name, &rng)) {
			size_t n = (size_t)diff_rng_below(&rng, LONGEST + 1);
			const uint8_t *data = place_data(&input, &rng, n);
			uint32_t expected = any_length[f].generic(data, n);
			expect_same(&run, &input, expected, any_length[f].tested(data, n));
		}
		diff_function_done(&run, any_length[f].name);
	}

	while (diff_next(&run, "crc32_two_parts", &rng)) {
		size_t n = (size_t)diff_rng_below(&rng, LONGEST + 1);
		size_t split = (size_t)diff_rng_below(&rng, n + 1);
		const uint8_t *data = place_data(&input, &rng, n);
		uint32_t expected = GENERIC(crc32_two_parts)(data, n, split);
		if (expected != GENERIC(crc32_any)(data, n))
			diff_fail(&run, "generic two-part CRC-32 differs from the one-part one");
		expect_same(&run, &input, expected, TESTED(crc32_two_parts)(data, n, split));
	}
	diff_function_done(&run, "crc32_two_parts");

	diff_input_destroy(&input);
	printf("%s: all CRC functions agree with generic\n", run.variant);
	return 0;
}
