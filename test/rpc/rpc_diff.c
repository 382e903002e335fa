/*
 * rpc_diff.c — differential test of the Sun RPC case study's marshaling entry points
 * (examples/rpc/rpc_spec.h): every entry point of one variant against the generic
 * build of the same spec on the unmodified library.
 *
 *   rpc-diff VARIANT [--seed N] [--iterations N] [--iteration I] [--function NAME]
 *     Encoders get random values (10,000 per entry point by default, edge-heavy,
 *     some not representable) and must write the same bytes and return the same
 *     status; decoders get valid, truncated, mutated and random messages ending at an
 *     inaccessible page, and must return the same status and decode the same value
 *     (libtirpc, another library, the same value only where decoding succeeds);
 *     freers get decoded values, whole or partial, and must leave the same behind.
 *   rpc-diff seeds DIR
 *     Writes valid messages for the fuzz test's starting corpus (rpc_fuzz.c: the
 *     first byte names the decoder).
 */
#include "rpc_values.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

RPC_SPEC_DECLARE(generic_)
#ifdef HAVE_RPC_CLANG_LTO
RPC_SPEC_DECLARE(clang_lto_)
#endif
#ifdef HAVE_RPC_RESPEC
RPC_SPEC_DECLARE(respec_)
#endif
#ifdef HAVE_RPC_RESPEC_UNROLL_250
RPC_SPEC_DECLARE(respec_unroll_250_)
#endif
#ifdef HAVE_RPC_LIBTIRPC
RPC_SPEC_DECLARE(libtirpc_)
#endif
#ifdef HAVE_RPC_HAND
RPC_SPEC_DECLARE(hand_)
#endif
/* The variants built with -march=x86-64-v3, each checked against the baseline generic. */
#ifdef HAVE_RPC_GENERIC_V3
RPC_SPEC_DECLARE(generic_v3_)
#endif
#ifdef HAVE_RPC_CLANG_LTO_V3
RPC_SPEC_DECLARE(clang_lto_v3_)
#endif
#ifdef HAVE_RPC_RESPEC_V3
RPC_SPEC_DECLARE(respec_v3_)
#endif
#ifdef HAVE_RPC_HAND_V3
RPC_SPEC_DECLARE(hand_v3_)
#endif

/* The hand variant has the encoders and the array decoder only. */
#define RPC_HAND_CODEC(label, prefix)                                                    \
	{                                                                                \
		label, prefix##encode_pair, NULL, prefix##encode_int, NULL,              \
			{ RPC_ARRAY_SIZES(RPC_SIZED_ENCODER_ENTRY, prefix) },            \
			prefix##encode_intarray, prefix##decode_intarray, NULL, NULL, NULL, \
			NULL, true                                                       \
	}

static const struct rpc_codec codecs[] = {
	RPC_CODEC("generic", generic_, true),
#ifdef HAVE_RPC_CLANG_LTO
	RPC_CODEC("clang-lto", clang_lto_, true),
#endif
#ifdef HAVE_RPC_RESPEC
	RPC_CODEC("respec", respec_, true),
#endif
#ifdef HAVE_RPC_RESPEC_UNROLL_250
	RPC_CODEC("respec-unroll-250", respec_unroll_250_, true),
#endif
#ifdef HAVE_RPC_LIBTIRPC
	RPC_CODEC("libtirpc", libtirpc_, false),
#endif
#ifdef HAVE_RPC_HAND
	RPC_HAND_CODEC("hand", hand_),
#endif
#ifdef HAVE_RPC_GENERIC_V3
	RPC_CODEC("generic-v3", generic_v3_, true),
#endif
#ifdef HAVE_RPC_CLANG_LTO_V3
	RPC_CODEC("clang-lto-v3", clang_lto_v3_, true),
#endif
#ifdef HAVE_RPC_RESPEC_V3
	RPC_CODEC("respec-v3", respec_v3_, true),
#endif
#ifdef HAVE_RPC_HAND_V3
	RPC_HAND_CODEC("hand-v3", hand_v3_),
#endif
};

static const struct rpc_codec *const generic = &codecs[0];

/* Buffers and the input area every encoder check uses. */
struct encoder_check {
	struct diff_run *run;
	struct diff_input input;
	struct diff_buffer generic_out, variant_out;
};

static void encoder_check_init(struct encoder_check *check, struct diff_run *run,
			       size_t input_size, size_t output_size)
{
	check->run = run;
	diff_input_init(&check->input, input_size);
	diff_buffer_init(&check->generic_out, output_size);
	diff_buffer_init(&check->variant_out, output_size);
}

static void encoder_check_destroy(struct encoder_check *check)
{
	diff_input_destroy(&check->input);
	diff_buffer_destroy(&check->generic_out);
	diff_buffer_destroy(&check->variant_out);
}

/* Gives both outputs the same random contents before the two calls. */
static void prepare_outputs(struct encoder_check *check, struct diff_rng *rng)
{
	diff_input_seal(&check->input);
	diff_buffer_randomize(&check->generic_out, rng);
	diff_buffer_copy(&check->variant_out, &check->generic_out);
}

static char *generic_out(struct encoder_check *check)
{
	return diff_buffer_data(&check->generic_out);
}

static char *variant_out(struct encoder_check *check)
{
	return diff_buffer_data(&check->variant_out);
}

/* Compares the two calls' results; counts outcomes when the encoder can fail. */
static void compare_encodings(struct encoder_check *check, int expected, int actual,
			      bool can_fail)
{
	diff_expect_input_unchanged(check->run, "the value after both calls", &check->input);
	diff_expect_equal_int(check->run, "return value", expected, actual);
	if (can_fail)
		diff_count_outcome(check->run, expected >= 0);
	diff_expect_equal_buffers(check->run, "encoded bytes", &check->generic_out,
				  &check->variant_out);
}

static void test_encode_pair(struct diff_run *run, const struct rpc_codec *v)
{
	struct encoder_check check;
	encoder_check_init(&check, run, sizeof(pair), PAIR_WIRE_SIZE);
	struct diff_rng rng;
	while (diff_next(run, "encode_pair", &rng)) {
		pair *p = diff_input_place(&check.input, sizeof *p);
		rpc_random_pair(&rng, p);
		prepare_outputs(&check, &rng);
		int expected = generic->encode_pair(generic_out(&check), p);
		int actual = v->encode_pair(variant_out(&check), p);
		compare_encodings(&check, expected, actual, false);
	}
	diff_function_done(run, "encode_pair");
	encoder_check_destroy(&check);
}

static void test_encode_int(struct diff_run *run, const struct rpc_codec *v)
{
	struct encoder_check check;
	encoder_check_init(&check, run, sizeof(int), INT_WIRE_SIZE);
	struct diff_rng rng;
	while (diff_next(run, "encode_int", &rng)) {
		int *value = diff_input_place(&check.input, sizeof *value);
		*value = diff_rng_int32(&rng);
		prepare_outputs(&check, &rng);
		int expected = generic->encode_int(generic_out(&check), value);
		int actual = v->encode_int(variant_out(&check), value);
		compare_encodings(&check, expected, actual, false);
	}
	diff_function_done(run, "encode_int");
	encoder_check_destroy(&check);
}

static int *random_elements(struct diff_rng *rng, struct diff_input *input, u_int count)
{
	int *values = diff_input_place(input, count * sizeof(int));
	for (u_int i = 0; i < count; i++)
		values[i] = diff_rng_int32(rng);
	return values;
}

/* diffcheck keeps the function name it is given: these live as long as the run. */
#define SIZED_ENCODER_NAME(unused, size) "encode_intarray_" #size,
static const char *const sized_encoder_names[RPC_SIZED_ENCODERS] = {
	RPC_ARRAY_SIZES(SIZED_ENCODER_NAME, )};
static const char *const decoder_names[RPC_TYPES] = {"decode_pair", "decode_int",
						     "decode_intarray", "decode_record"};
static const char *const freer_names[RPC_TYPES] = {NULL, NULL, "free_intarray", "free_record"};

static void test_encode_sized(struct diff_run *run, const struct rpc_codec *v, unsigned which)
{
	u_int size = rpc_array_sizes[which];
	const char *function = sized_encoder_names[which];
	struct encoder_check check;
	encoder_check_init(&check, run, size * sizeof(int), INTARRAY_WIRE_SIZE(size));
	struct diff_rng rng;
	while (diff_next(run, function, &rng)) {
		intarray a = {size, random_elements(&rng, &check.input, size)};
		prepare_outputs(&check, &rng);
		int expected = generic->encode_sized[which](generic_out(&check), &a);
		int actual = v->encode_sized[which](variant_out(&check), &a);
		compare_encodings(&check, expected, actual, false);
	}
	diff_function_done(run, function);
	encoder_check_destroy(&check);
}

/* Any count, sometimes over the bound; a buffer of the exact size, or short, or long. */
static void test_encode_intarray(struct diff_run *run, const struct rpc_codec *v)
{
	enum { ROOM = INTARRAY_WIRE_SIZE(INTARRAY_MAX + 8) };
	struct encoder_check check;
	encoder_check_init(&check, run, (INTARRAY_MAX + 8) * sizeof(int), ROOM);
	struct diff_rng rng;
	while (diff_next(run, "encode_intarray", &rng)) {
		u_int count = diff_rng_one_in(&rng, 10)
				      ? INTARRAY_MAX + 1 + (u_int)diff_rng_below(&rng, 8)
				      : (u_int)diff_rng_below(&rng, INTARRAY_MAX + 1);
		intarray a = {count, random_elements(&rng, &check.input, count)};
		unsigned len = INTARRAY_WIRE_SIZE(count);
		if (diff_rng_one_in(&rng, 3))
			len = (unsigned)diff_rng_below(&rng, len);
		else if (diff_rng_one_in(&rng, 3))
			len = (unsigned)diff_rng_below(&rng, ROOM + 1);
		prepare_outputs(&check, &rng);
		int expected = generic->encode_intarray(generic_out(&check), len, &a);
		int actual = v->encode_intarray(variant_out(&check), len, &a);
		compare_encodings(&check, expected, actual, true);
	}
	diff_function_done(run, "encode_intarray");
	encoder_check_destroy(&check);
}

/* Records, one in eight with a name over its bound; a buffer sometimes too short. */
static void test_encode_record(struct diff_run *run, const struct rpc_codec *v)
{
	struct value {
		record r;
		char name[RPC_NAME_ROOM];
		point origin;
	};
	struct encoder_check check;
	encoder_check_init(&check, run, sizeof(struct value), RECORD_WIRE_MAX);
	struct diff_rng rng;
	while (diff_next(run, "encode_record", &rng)) {
		struct value *value = diff_input_place(&check.input, sizeof *value);
		rpc_random_record(&rng, &value->r, value->name, &value->origin, 8);
		unsigned len = diff_rng_one_in(&rng, 4)
				       ? (unsigned)diff_rng_below(&rng, RECORD_WIRE_MAX)
				       : RECORD_WIRE_MAX;
		prepare_outputs(&check, &rng);
		int expected = generic->encode_record(generic_out(&check), len, &value->r);
		int actual = v->encode_record(variant_out(&check), len, &value->r);
		compare_encodings(&check, expected, actual, true);
	}
	diff_function_done(run, "encode_record");
	encoder_check_destroy(&check);
}

static void test_decoder(struct diff_run *run, const struct rpc_codec *v, enum rpc_type type)
{
	static unsigned char scratch[RPC_MESSAGE_MAX];
	static unsigned char expected_value[RPC_DESCRIPTION_MAX], actual_value[RPC_DESCRIPTION_MAX];
	const char *function = decoder_names[type];
	struct diff_input input;
	diff_input_init(&input, RPC_MESSAGE_MAX);
	struct diff_rng rng;
	while (diff_next(run, function, &rng)) {
		size_t len = rpc_random_message(&rng, generic, type, scratch, sizeof scratch);
		const char *msg = memcpy(diff_input_place(&input, len), scratch, len);
		diff_input_seal(&input);
		union rpc_value generic_value, variant_value;
		int expected = rpc_decode(generic, type, msg, (unsigned)len, &generic_value);
		int actual = rpc_decode(v, type, msg, (unsigned)len, &variant_value);
		diff_expect_input_unchanged(run, "the message after both calls", &input);
		diff_expect_equal_int(run, "return value", expected, actual);
		diff_count_outcome(run, expected >= 0);
		if (expected >= 0 || v->same_library) {
			size_t expected_size =
				rpc_describe(type, &generic_value, expected >= 0, expected_value);
			size_t actual_size =
				rpc_describe(type, &variant_value, actual >= 0, actual_value);
			diff_expect_equal_int(run, "size of the decoded value's description",
					      (long long)expected_size, (long long)actual_size);
			diff_expect_equal_bytes(run, "decoded value", expected_value, actual_value,
						expected_size);
		}
		rpc_value_free(type, &generic_value);
		rpc_value_free(type, &variant_value);
	}
	diff_function_done(run, function);
	diff_input_destroy(&input);
}

/*
 * Values decoded (by generic) from random messages, complete or partial, freed by
 * generic and by the variant: same status, same value left behind. Arrays whose
 * count the decoder rejected are left out: they hold no elements, and freeing one
 * runs xdr_array's overflow check, a loop over the count, up to 2^30 times.
 */
static void test_freer(struct diff_run *run, const struct rpc_codec *v, enum rpc_type type)
{
	static unsigned char message[RPC_MESSAGE_MAX];
	static unsigned char expected_value[RPC_DESCRIPTION_MAX], actual_value[RPC_DESCRIPTION_MAX];
	const char *function = freer_names[type];
	struct diff_rng rng;
	while (diff_next(run, function, &rng)) {
		union rpc_value generic_value, variant_value;
		size_t len;
		do /* an array message starts with its count */
			len = rpc_random_message(&rng, generic, type, message, sizeof message);
		while (type == RPC_INTARRAY && len >= BYTES_PER_XDR_UNIT &&
		       ntohl(*(uint32_t *)message) > INTARRAY_MAX);
		rpc_decode(generic, type, (const char *)message, (unsigned)len, &generic_value);
		rpc_decode(generic, type, (const char *)message, (unsigned)len, &variant_value);
		int expected = rpc_free(generic, type, &generic_value);
		int actual = rpc_free(v, type, &variant_value);
		diff_expect_equal_int(run, "return value", expected, actual);
		size_t expected_size = rpc_describe(type, &generic_value, false, expected_value);
		size_t actual_size = rpc_describe(type, &variant_value, false, actual_value);
		diff_expect_equal_int(run, "size of the freed value's description",
				      (long long)expected_size, (long long)actual_size);
		diff_expect_equal_bytes(run, "freed value", expected_value, actual_value,
					expected_size);
		rpc_value_free(type, &generic_value);
		rpc_value_free(type, &variant_value);
	}
	diff_function_done(run, function);
}

/* Writes seed files DIR/<type>-<n>: the decoder's number, then a valid message. */
static int write_seeds(const char *dir)
{
	enum { SEEDS_PER_TYPE = 24 };
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		perror(dir);
		return 1;
	}
	static unsigned char seed[1 + RPC_MESSAGE_MAX];
	struct diff_rng rng = {0x5eed};
	for (int type = 0; type < RPC_TYPES; type++) {
		for (int n = 0; n < SEEDS_PER_TYPE;) {
			seed[0] = (unsigned char)type;
			size_t len = rpc_random_message(&rng, generic, (enum rpc_type)type, seed + 1,
							RPC_MESSAGE_MAX);
			union rpc_value value;
			bool valid = rpc_decode(generic, (enum rpc_type)type, (const char *)seed + 1,
						(unsigned)len, &value) >= 0;
			rpc_value_free((enum rpc_type)type, &value);
			if (!valid)
				continue;
			char path[4096];
			snprintf(path, sizeof path, "%s/%s-%d", dir, rpc_type_names[type], n++);
			FILE *file = fopen(path, "wb");
			if (file == NULL || fwrite(seed, 1, 1 + len, file) != 1 + len ||
			    fclose(file) != 0) {
				perror(path);
				return 1;
			}
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "seeds") == 0)
		return write_seeds(argv[2]);
	struct diff_run run;
	diff_begin(&run, argc, argv, 10000);
	const struct rpc_codec *v = DIFF_FIND_VARIANT(run.variant, codecs);
	if (v->encode_pair != NULL)
		test_encode_pair(&run, v);
	if (v->encode_int != NULL)
		test_encode_int(&run, v);
	for (unsigned which = 0; which < RPC_SIZED_ENCODERS; which++)
		if (v->encode_sized[which] != NULL)
			test_encode_sized(&run, v, which);
	if (v->encode_intarray != NULL)
		test_encode_intarray(&run, v);
	if (v->encode_record != NULL)
		test_encode_record(&run, v);
	for (int type = 0; type < RPC_TYPES; type++)
		if (rpc_codec_decodes(v, (enum rpc_type)type))
			test_decoder(&run, v, (enum rpc_type)type);
	for (int type = 0; type < RPC_TYPES; type++)
		if (rpc_codec_frees(v, (enum rpc_type)type))
			test_freer(&run, v, (enum rpc_type)type);
	printf("%s: every entry point agrees with generic\n", run.variant);
	return 0;
}
