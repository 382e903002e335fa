/*
 * diff_marshal.c — differential test of the marshaling example: every spec function
 * of a chosen variant against the generic variant, on random arrays and records and
 * on valid, truncated, mutated and random messages for the decoders.
 *
 * Besides the real variants it knows "selftest", whose functions each carry one
 * deliberate bug of a different kind (a buffer overrun, a read past the message,
 * a wrong value, a write to an input, a wrong status); the test suite runs it to
 * show that each kind is caught.
 */
#include "diffcheck.h"
#include "marshal_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

MARSHAL_SPEC_DECLARE(generic_)
#ifdef HAVE_MARSHAL_CLANG_LTO
MARSHAL_SPEC_DECLARE(clang_lto_)
#endif
#ifdef HAVE_MARSHAL_RESPEC
MARSHAL_SPEC_DECLARE(respec_)
#endif
#ifdef HAVE_MARSHAL_HAND
MARSHAL_SPEC_DECLARE(hand_)
#endif
/* The variants built with -march=x86-64-v3, each checked against the baseline generic. */
#ifdef HAVE_MARSHAL_GENERIC_V3
MARSHAL_SPEC_DECLARE(generic_v3_)
#endif
#ifdef HAVE_MARSHAL_CLANG_LTO_V3
MARSHAL_SPEC_DECLARE(clang_lto_v3_)
#endif
#ifdef HAVE_MARSHAL_RESPEC_V3
MARSHAL_SPEC_DECLARE(respec_v3_)
#endif
#ifdef HAVE_MARSHAL_HAND_V3
MARSHAL_SPEC_DECLARE(hand_v3_)
#endif

struct marshal_variant {
	const char *name;
	int (*encode_ints1000)(char *buf, const int *a);
	int (*decode_ints1000)(const char *buf, int *a);
	int (*decode_ints)(const char *buf, unsigned len, int *a);
	int (*encode_pair)(char *buf, const struct pair *p);
	int (*decode_pair)(const char *buf, unsigned len, struct pair *p);
};

static int selftest_encode_ints1000(char *buf, const int *a)
{
	int result = generic_encode_ints1000(buf, a);
	buf[MARSHAL_INTS1000_SIZE] = 0;
	return result;
}

static int selftest_decode_ints1000(const char *buf, int *a)
{
	volatile const char *past_end = buf + MARSHAL_INTS1000_SIZE;
	(void)*past_end;
	return generic_decode_ints1000(buf, a);
}

static int selftest_decode_ints(const char *buf, unsigned len, int *a)
{
	int result = generic_decode_ints(buf, len, a);
	if (result < 0 && len >= 2 * MS_UNIT)
		a[0] ^= 1;
	return result;
}

static int selftest_encode_pair(char *buf, const struct pair *p)
{
	((struct pair *)p)->value++;
	int result = generic_encode_pair(buf, p);
	((struct pair *)p)->value -= 2;
	return result;
}

static int selftest_decode_pair(const char *buf, unsigned len, struct pair *p)
{
	int result = generic_decode_pair(buf, len, p);
	return len < PAIR_WIRE_SIZE / 2 ? 0 : result;
}

#define MARSHAL_VARIANT(label, prefix)                                                    \
	{ label, prefix##encode_ints1000, prefix##decode_ints1000, prefix##decode_ints, \
	  prefix##encode_pair, prefix##decode_pair }

static const struct marshal_variant variants[] = {
#ifdef HAVE_MARSHAL_CLANG_LTO
	MARSHAL_VARIANT("clang-lto", clang_lto_),
#endif
#ifdef HAVE_MARSHAL_RESPEC
	MARSHAL_VARIANT("respec", respec_),
#endif
#ifdef HAVE_MARSHAL_HAND
	MARSHAL_VARIANT("hand", hand_),
#endif
#ifdef HAVE_MARSHAL_GENERIC_V3
	MARSHAL_VARIANT("generic-v3", generic_v3_),
#endif
#ifdef HAVE_MARSHAL_CLANG_LTO_V3
	MARSHAL_VARIANT("clang-lto-v3", clang_lto_v3_),
#endif
#ifdef HAVE_MARSHAL_RESPEC_V3
	MARSHAL_VARIANT("respec-v3", respec_v3_),
#endif
#ifdef HAVE_MARSHAL_HAND_V3
	MARSHAL_VARIANT("hand-v3", hand_v3_),
#endif
	MARSHAL_VARIANT("generic", generic_),
	MARSHAL_VARIANT("selftest", selftest_),
};

static void put_unit(unsigned char *at, uint32_t value)
{
	at[0] = (unsigned char)(value >> 24);
	at[1] = (unsigned char)(value >> 16);
	at[2] = (unsigned char)(value >> 8);
	at[3] = (unsigned char)value;
}

/* A count an honest sender could put in an array message, edges favoured. */
static uint32_t valid_count(struct diff_rng *rng)
{
	switch (diff_rng_below(rng, 6)) {
	case 0:
	case 1:
		return MARSHAL_INTS_MAX;
	case 2:
		return (uint32_t)diff_rng_below(rng, 3);
	default:
		return (uint32_t)diff_rng_below(rng, MARSHAL_INTS_MAX + 1);
	}
}

static uint32_t oversized_count(struct diff_rng *rng)
{
	static const uint32_t edges[] = { MARSHAL_INTS_MAX + 1, 1024, 0x7fffffff, 0x80000000,
					  0xffffffff, 0x40000000 };
	if (diff_rng_one_in(rng, 2))
		return edges[diff_rng_below(rng, sizeof edges / sizeof edges[0])];
	return MARSHAL_INTS_MAX + 1 + (uint32_t)diff_rng_below(rng, 0xfffffc00u);
}

static void mutate(struct diff_rng *rng, unsigned char *msg, size_t size)
{
	for (uint64_t n = 1 + diff_rng_below(rng, 4); n > 0 && size > 0; n--) {
		size_t at = (size_t)diff_rng_below(rng, size);
		/* Mutating near the front hits the count more often than uniform would. */
		if (diff_rng_one_in(rng, 3))
			at = (size_t)diff_rng_below(rng, size < 8 ? size : 8);
		msg[at] ^= (unsigned char)(1 + diff_rng_below(rng, 255));
	}
}

/*
 * Writes an array message (valid, oversized count, random, or mutated) into msg,
 * which has room for capacity bytes; returns the length of the well-formed part.
 */
static size_t make_ints_message(struct diff_rng *rng, unsigned char *msg, size_t capacity)
{
	diff_rng_fill(rng, msg, capacity);
	uint64_t kind = diff_rng_below(rng, 5);
	if (kind == 0)
		return capacity;
	uint32_t count = kind == 1 ? oversized_count(rng) : valid_count(rng);
	put_unit(msg, count);
	uint32_t present = count < MARSHAL_INTS_MAX ? count : MARSHAL_INTS_MAX;
	for (uint32_t i = 0; i < present; i++)
		put_unit(msg + MS_UNIT + i * MS_UNIT, (uint32_t)diff_rng_int32(rng));
	if (kind == 2)
		mutate(rng, msg, MS_UNIT + present * MS_UNIT);
	return MS_UNIT + present * MS_UNIT;
}

static void test_encode_ints1000(struct diff_run *run, const struct marshal_variant *v)
{
	struct diff_input input;
	struct diff_buffer generic_out, variant_out;
	diff_input_init(&input, MARSHAL_INTS_MAX * sizeof(int));
	diff_buffer_init(&generic_out, MARSHAL_INTS1000_SIZE);
	diff_buffer_init(&variant_out, MARSHAL_INTS1000_SIZE);
	struct diff_rng rng;
	while (diff_next(run, "encode_ints1000", &rng)) {
		int *a = diff_input_place(&input, MARSHAL_INTS_MAX * sizeof(int));
		for (int i = 0; i < MARSHAL_INTS_MAX; i++)
			a[i] = diff_rng_int32(&rng);
		diff_input_seal(&input);
		diff_buffer_randomize(&generic_out, &rng);
		diff_buffer_copy(&variant_out, &generic_out);

		int expected = generic_encode_ints1000(diff_buffer_data(&generic_out), a);
		diff_expect_input_unchanged(run, "input a[] after generic", &input);
		int actual = v->encode_ints1000(diff_buffer_data(&variant_out), a);
		diff_expect_input_unchanged(run, "input a[] after the variant", &input);
		diff_expect_equal_int(run, "return value", expected, actual);
		diff_expect_equal_buffers(run, "encoded buf", &generic_out, &variant_out);
	}
	diff_function_done(run, "encode_ints1000");
	diff_buffer_destroy(&generic_out);
	diff_buffer_destroy(&variant_out);
	diff_input_destroy(&input);
}

/* Runs one array decoder on the message in input; len is ignored by decode_ints1000. */
static void check_ints_decoder(struct diff_run *run, const struct marshal_variant *v,
			       bool fixed_size, struct diff_input *input, unsigned len,
			       struct diff_buffer *generic_out, struct diff_buffer *variant_out,
			       struct diff_rng *rng)
{
	const char *msg = (const char *)input->data;
	diff_input_seal(input);
	diff_buffer_randomize(generic_out, rng);
	diff_buffer_copy(variant_out, generic_out);

	int expected = fixed_size ? generic_decode_ints1000(msg, diff_buffer_data(generic_out))
				  : generic_decode_ints(msg, len, diff_buffer_data(generic_out));
	diff_expect_input_unchanged(run, "message after generic", input);
	int actual = fixed_size ? v->decode_ints1000(msg, diff_buffer_data(variant_out))
				: v->decode_ints(msg, len, diff_buffer_data(variant_out));
	diff_expect_input_unchanged(run, "message after the variant", input);
	diff_expect_equal_int(run, "return value", expected, actual);
	diff_count_outcome(run, expected >= 0);
	diff_expect_equal_buffers(run, "decoded a[]", generic_out, variant_out);
}

static void test_decode_ints1000(struct diff_run *run, const struct marshal_variant *v)
{
	struct diff_input input;
	struct diff_buffer generic_out, variant_out;
	diff_input_init(&input, MARSHAL_INTS1000_SIZE);
	diff_buffer_init(&generic_out, MARSHAL_INTS_MAX * sizeof(int));
	diff_buffer_init(&variant_out, MARSHAL_INTS_MAX * sizeof(int));
	struct diff_rng rng;
	while (diff_next(run, "decode_ints1000", &rng)) {
		unsigned char *msg = diff_input_place(&input, MARSHAL_INTS1000_SIZE);
		make_ints_message(&rng, msg, MARSHAL_INTS1000_SIZE);
		check_ints_decoder(run, v, true, &input, MARSHAL_INTS1000_SIZE, &generic_out,
				   &variant_out, &rng);
	}
	diff_function_done(run, "decode_ints1000");
	diff_buffer_destroy(&generic_out);
	diff_buffer_destroy(&variant_out);
	diff_input_destroy(&input);
}

static void test_decode_ints(struct diff_run *run, const struct marshal_variant *v)
{
	enum { LONGEST = MARSHAL_INTS1000_SIZE + 16 };
	unsigned char scratch[LONGEST];
	struct diff_input input;
	struct diff_buffer generic_out, variant_out;
	diff_input_init(&input, LONGEST);
	diff_buffer_init(&generic_out, MARSHAL_INTS_MAX * sizeof(int));
	diff_buffer_init(&variant_out, MARSHAL_INTS_MAX * sizeof(int));
	struct diff_rng rng;
	while (diff_next(run, "decode_ints", &rng)) {
		size_t whole = make_ints_message(&rng, scratch, LONGEST);
		size_t len;
		switch (diff_rng_below(&rng, 4)) {
		case 0:
			len = whole;
			break;
		case 1: /* truncated */
			len = (size_t)diff_rng_below(&rng, whole + 1);
			break;
		case 2: /* truncated to within a unit of the end */
			len = whole - (size_t)diff_rng_below(&rng, whole < 5 ? whole + 1 : 5);
			break;
		default:
			len = (size_t)diff_rng_below(&rng, LONGEST + 1);
			break;
		}
		memcpy(diff_input_place(&input, len), scratch, len);
		check_ints_decoder(run, v, false, &input, (unsigned)len, &generic_out, &variant_out,
				   &rng);
	}
	diff_function_done(run, "decode_ints");
	diff_buffer_destroy(&generic_out);
	diff_buffer_destroy(&variant_out);
	diff_input_destroy(&input);
}

/* A record whose fields sometimes cannot be encoded (stamp beyond 32 bits, bad kind). */
static void random_pair(struct diff_rng *rng, struct pair *p)
{
	p->key = diff_rng_int32(rng);
	p->value = (uint32_t)diff_rng_int32(rng);
	p->stamp = diff_rng_one_in(rng, 4) ? (long)diff_rng_next(rng) : (long)diff_rng_int32(rng);
	p->valid = diff_rng_one_in(rng, 2);
	static const int32_t bad_kinds[] = { PAIR_KIND_COUNT, PAIR_KIND_COUNT + 1, -1, INT32_MIN,
					     INT32_MAX };
	p->kind = diff_rng_one_in(rng, 8)
			  ? (enum pair_kind)bad_kinds[diff_rng_below(rng, sizeof bad_kinds /
									      sizeof bad_kinds[0])]
			  : (enum pair_kind)diff_rng_below(rng, PAIR_KIND_COUNT);
}

static void test_encode_pair(struct diff_run *run, const struct marshal_variant *v)
{
	struct diff_input input;
	struct diff_buffer generic_out, variant_out;
	diff_input_init(&input, sizeof(struct pair));
	diff_buffer_init(&generic_out, PAIR_WIRE_SIZE);
	diff_buffer_init(&variant_out, PAIR_WIRE_SIZE);
	struct diff_rng rng;
	while (diff_next(run, "encode_pair", &rng)) {
		struct pair *p = diff_input_place(&input, sizeof(struct pair));
		/* Random padding too: no variant may depend on it. */
		diff_rng_fill(&rng, p, sizeof *p);
		random_pair(&rng, p);
		diff_input_seal(&input);
		diff_buffer_randomize(&generic_out, &rng);
		diff_buffer_copy(&variant_out, &generic_out);

		int expected = generic_encode_pair(diff_buffer_data(&generic_out), p);
		diff_expect_input_unchanged(run, "input record after generic", &input);
		int actual = v->encode_pair(diff_buffer_data(&variant_out), p);
		diff_expect_input_unchanged(run, "input record after the variant", &input);
		diff_expect_equal_int(run, "return value", expected, actual);
		diff_count_outcome(run, expected >= 0);
		diff_expect_equal_buffers(run, "encoded buf", &generic_out, &variant_out);
	}
	diff_function_done(run, "encode_pair");
	diff_buffer_destroy(&generic_out);
	diff_buffer_destroy(&variant_out);
	diff_input_destroy(&input);
}

static void test_decode_pair(struct diff_run *run, const struct marshal_variant *v)
{
	enum { LONGEST = PAIR_WIRE_SIZE + 4 };
	unsigned char scratch[LONGEST];
	struct diff_input input;
	struct diff_buffer generic_out, variant_out;
	diff_input_init(&input, LONGEST);
	diff_buffer_init(&generic_out, sizeof(struct pair));
	diff_buffer_init(&variant_out, sizeof(struct pair));
	struct diff_rng rng;
	while (diff_next(run, "decode_pair", &rng)) {
		diff_rng_fill(&rng, scratch, sizeof scratch);
		uint64_t kind = diff_rng_below(&rng, 4);
		if (kind != 0) {
			put_unit(scratch, (uint32_t)diff_rng_int32(&rng));
			put_unit(scratch + 4, (uint32_t)diff_rng_int32(&rng));
			put_unit(scratch + 8, (uint32_t)diff_rng_int32(&rng));
			put_unit(scratch + 12, (uint32_t)diff_rng_below(&rng, 2));
			put_unit(scratch + 16, (uint32_t)diff_rng_below(&rng, PAIR_KIND_COUNT));
		}
		if (kind == 2) /* one unit replaced by a value near the valid ranges */
			put_unit(scratch + MS_UNIT * diff_rng_below(&rng, 5),
				 (uint32_t)((int32_t)diff_rng_below(&rng, 8) - 2));
		if (kind == 3)
			mutate(&rng, scratch, PAIR_WIRE_SIZE);
		size_t len = diff_rng_one_in(&rng, 2) ? PAIR_WIRE_SIZE
						       : (size_t)diff_rng_below(&rng, LONGEST + 1);
		const char *msg = memcpy(diff_input_place(&input, len), scratch, len);
		diff_input_seal(&input);
		diff_buffer_randomize(&generic_out, &rng);
		diff_buffer_copy(&variant_out, &generic_out);

		int expected = generic_decode_pair(msg, (unsigned)len, diff_buffer_data(&generic_out));
		diff_expect_input_unchanged(run, "message after generic", &input);
		int actual = v->decode_pair(msg, (unsigned)len, diff_buffer_data(&variant_out));
		diff_expect_input_unchanged(run, "message after the variant", &input);
		diff_expect_equal_int(run, "return value", expected, actual);
		diff_count_outcome(run, expected >= 0);
		diff_expect_equal_buffers(run, "decoded record", &generic_out, &variant_out);
	}
	diff_function_done(run, "decode_pair");
	diff_buffer_destroy(&generic_out);
	diff_buffer_destroy(&variant_out);
	diff_input_destroy(&input);
}

int main(int argc, char **argv)
{
	struct diff_run run;
	diff_begin(&run, argc, argv, 10000);
	const struct marshal_variant *v = DIFF_FIND_VARIANT(run.variant, variants);
	test_encode_ints1000(&run, v);
	test_decode_ints1000(&run, v);
	test_decode_ints(&run, v);
	test_encode_pair(&run, v);
	test_decode_pair(&run, v);
	printf("%s: all functions agree with generic\n", run.variant);
	return 0;
}
