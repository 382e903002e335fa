/*
 * diff_tlv.c — differential test of the encoder program: the encoders of the tested
 * variant against generic on random records (names sometimes too long) into
 * canaried buffers of random capacity, and the decoder on valid, truncated, mutated
 * and random messages (ending at a guard page) into a canaried record.
 */
#include "tlv_spec.h"

TLV_SPEC_FUNCTIONS(CORPUS_DECLARE_VARIANTS)

enum { LONGEST_MESSAGE = SAMPLE_MAX_WIRE + 8 };

static void random_sample(struct diff_rng *rng, struct sample *sample)
{
	diff_rng_fill(rng, sample, sizeof *sample);
	sample->id = (uint32_t)diff_rng_int32(rng);
	sample->at.x = diff_rng_int32(rng);
	sample->at.y = diff_rng_int32(rng);
	sample->delta = diff_rng_int32(rng);
	sample->name_length = diff_rng_one_in(rng, 8) ? (uint8_t)diff_rng_next(rng)
						      : (uint8_t)diff_rng_below(rng, SAMPLE_NAME_MAX + 1);
}

static void check_known_answer(void)
{
	struct sample sample = { 300, { -1, 2 }, 2, "hi", -3 };
	static const uint8_t expected[] = { 1, 0xac, 0x02, 2, 4, 1, 1, 2, 4, 3, 2, 'h', 'i', 4, 5 };
	uint8_t buf[SAMPLE_MAX_WIRE];
	int length = GENERIC(encode_sample)(buf, &sample);
	struct sample decoded;
	if (length != (int)sizeof expected || memcmp(buf, expected, sizeof expected) != 0 ||
	    GENERIC(decode_sample)(buf, (size_t)length, &decoded) != length ||
	    decoded.id != 300 || decoded.at.x != -1 || decoded.delta != -3) {
		fprintf(stderr, "FAIL: generic encode_sample/decode_sample are wrong\n");
		exit(1);
	}
}

static void test_encoders(struct diff_run *run)
{
	struct diff_input input;
	struct diff_buffer generic_out, tested_out;
	diff_input_init(&input, sizeof(struct sample));
	diff_buffer_init(&generic_out, SAMPLE_MAX_WIRE);
	diff_buffer_init(&tested_out, SAMPLE_MAX_WIRE);
	static const char *const names[] = { "encode_point", "encode_sample", "encode_sample_into" };
	struct diff_rng rng;
	for (size_t f = 0; f < 3; f++) {
		while (diff_next(run, names[f], &rng)) {
			struct sample *sample = diff_input_place(&input, sizeof *sample);
			random_sample(&rng, sample);
			diff_input_seal(&input);
			size_t capacity = (size_t)diff_rng_below(&rng, SAMPLE_MAX_WIRE + 1);
			diff_buffer_randomize(&generic_out, &rng);
			diff_buffer_copy(&tested_out, &generic_out);
			uint8_t *g = diff_buffer_data(&generic_out), *t = diff_buffer_data(&tested_out);

			int expected, actual;
			if (f == 0) {
				/* The point is the last bytes of the input: reads past it fault. */
				const struct point *point =
					(const struct point *)(input.data + input.size - sizeof *point);
				expected = GENERIC(encode_point)(g, point);
				diff_expect_input_unchanged(run, "record after generic", &input);
				actual = TESTED(encode_point)(t, point);
			} else if (f == 1) {
				expected = GENERIC(encode_sample)(g, sample);
				diff_expect_input_unchanged(run, "record after generic", &input);
				actual = TESTED(encode_sample)(t, sample);
			} else {
				expected = GENERIC(encode_sample_into)(g, capacity, sample);
				diff_expect_input_unchanged(run, "record after generic", &input);
				actual = TESTED(encode_sample_into)(t, capacity, sample);
			}
			diff_expect_input_unchanged(run, "record after the variant", &input);
			diff_expect_equal_int(run, "length or error", expected, actual);
			diff_expect_equal_buffers(run, "encoding", &generic_out, &tested_out);
			if (f != 0)
				diff_count_outcome(run, expected >= 0);
		}
		diff_function_done(run, names[f]);
	}
	diff_buffer_destroy(&generic_out);
	diff_buffer_destroy(&tested_out);
	diff_input_destroy(&input);
}

static void test_decoder(struct diff_run *run)
{
	uint8_t scratch[LONGEST_MESSAGE];
	struct diff_input input;
	struct diff_buffer generic_out, tested_out;
	diff_input_init(&input, LONGEST_MESSAGE);
	diff_buffer_init(&generic_out, sizeof(struct sample));
	diff_buffer_init(&tested_out, sizeof(struct sample));
	struct diff_rng rng;
	while (diff_next(run, "decode_sample", &rng)) {
		diff_rng_fill(&rng, scratch, sizeof scratch);
		size_t whole = sizeof scratch;
		if (!diff_rng_one_in(&rng, 5)) { /* a valid message, perhaps damaged */
			struct sample sample;
			random_sample(&rng, &sample);
			sample.name_length %= SAMPLE_NAME_MAX + 1;
			whole = (size_t)GENERIC(encode_sample)(scratch, &sample);
		}
		size_t len = whole;
		switch (diff_rng_below(&rng, 4)) {
		case 0: /* truncated */
			len = (size_t)diff_rng_below(&rng, whole + 1);
			break;
		case 1: /* mutated */
			for (uint64_t k = 1 + diff_rng_below(&rng, 2); k > 0; k--)
				scratch[diff_rng_below(&rng, whole)] ^= (uint8_t)(1 + diff_rng_below(&rng, 255));
			break;
		case 2: /* with trailing bytes */
			len = whole + (size_t)diff_rng_below(&rng, sizeof scratch - whole + 1);
			break;
		}
		const uint8_t *msg = memcpy(diff_input_place(&input, len), scratch, len);
		diff_input_seal(&input);
		diff_buffer_randomize(&generic_out, &rng);
		diff_buffer_copy(&tested_out, &generic_out);

		int expected = GENERIC(decode_sample)(msg, len, diff_buffer_data(&generic_out));
		diff_expect_input_unchanged(run, "message after generic", &input);
		int actual = TESTED(decode_sample)(msg, len, diff_buffer_data(&tested_out));
		diff_expect_input_unchanged(run, "message after the variant", &input);
		diff_expect_equal_int(run, "length or error", expected, actual);
		diff_expect_equal_buffers(run, "decoded record", &generic_out, &tested_out);
		diff_count_outcome(run, expected >= 0);
	}
	diff_function_done(run, "decode_sample");
	diff_buffer_destroy(&generic_out);
	diff_buffer_destroy(&tested_out);
	diff_input_destroy(&input);
}

int main(int argc, char **argv)
{
	struct diff_run run;
	corpus_begin(&run, argc, argv);
	check_known_answer();
	test_encoders(&run);
	test_decoder(&run);
	printf("%s: all encoder functions agree with generic\n", run.variant);
	return 0;
}
