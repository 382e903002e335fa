/*
 * tlv_spec.c — spec of the encoder program: the layouts of two records, fixed here,
 * and the generic encoder and decoder (tlv.c) on dynamic records and messages.
 *
 *   encode_point, encode_sample   static layout and a memory sink with a static
 *       capacity: the layout interpretation, the put_byte indirect calls (memory and
 *       counting ops tables) and the nested record's recursion unfold; the varint
 *       loops and the overflow checks that depend on values stay.
 *   encode_sample_into            the same with a dynamic capacity.
 *   decode_sample                 every check on the message must stay: tags,
 *       varint length and range, byte-field capacity, truncation, nested length.
 */
#include "tlv_spec.h"

#include <respec/respec.h>

static const struct field point_fields[] = {
	{ .tag = 1, .kind = FIELD_S32, .offset = offsetof(struct point, x) },
	{ .tag = 2, .kind = FIELD_S32, .offset = offsetof(struct point, y) },
};
static const struct layout point_layout = { 2, point_fields };

static const struct field sample_fields[] = {
	{ .tag = 1, .kind = FIELD_U32, .offset = offsetof(struct sample, id) },
	{ .tag = 2, .kind = FIELD_RECORD, .offset = offsetof(struct sample, at),
	  .record = &point_layout },
	{ .tag = 3, .kind = FIELD_BYTES, .offset = offsetof(struct sample, name),
	  .length_offset = offsetof(struct sample, name_length), .capacity = SAMPLE_NAME_MAX },
	{ .tag = 4, .kind = FIELD_S32, .offset = offsetof(struct sample, delta) },
};
static const struct layout sample_layout = { 4, sample_fields };

/* The encoded length, or an error. */
static int encode_to_memory(uint8_t *buf, size_t capacity, const struct layout *layout,
			    const void *record)
{
	struct sink sink = { &memory_sink_ops, buf, capacity, 0 };
	int status = tlv_encode(&sink, layout, record);
	return status == 0 ? (int)sink.length : status;
}

RESPEC_SPECIALIZE int encode_point(uint8_t *buf, const struct point *point)
{
	return encode_to_memory(buf, POINT_MAX_WIRE, &point_layout, point);
}

RESPEC_SPECIALIZE int encode_sample(uint8_t *buf, const struct sample *sample)
{
	return encode_to_memory(buf, SAMPLE_MAX_WIRE, &sample_layout, sample);
}

RESPEC_SPECIALIZE int encode_sample_into(uint8_t *buf, size_t capacity, const struct sample *sample)
{
	return encode_to_memory(buf, capacity, &sample_layout, sample);
}

RESPEC_SPECIALIZE int decode_sample(const uint8_t *msg, size_t len, struct sample *sample)
{
	return tlv_decode(&sample_layout, msg, len, sample);
}
