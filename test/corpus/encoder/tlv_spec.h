/*
 * tlv_spec.h — the records of the encoder program and its spec functions.
 */
#ifndef TLV_SPEC_H
#define TLV_SPEC_H

#include "corpus.h"
#include "tlv.h"

struct point {
	int32_t x, y;
};

enum { SAMPLE_NAME_MAX = 11 };

struct sample {
	uint32_t id;
	struct point at;
	uint8_t name_length;
	char name[SAMPLE_NAME_MAX];
	int32_t delta;
};

/* The longest encodings: tag + 5-byte varint per number, tag + length per nesting. */
enum { POINT_MAX_WIRE = 12, SAMPLE_MAX_WIRE = 6 + 2 + POINT_MAX_WIRE + 2 + SAMPLE_NAME_MAX + 6 };

#define TLV_SPEC_FUNCTIONS(X)                                                                 \
	X(int, encode_point, (uint8_t *buf, const struct point *point))                          \
	X(int, encode_sample, (uint8_t *buf, const struct sample *sample))                       \
	X(int, encode_sample_into, (uint8_t *buf, size_t capacity, const struct sample *sample)) \
	X(int, decode_sample, (const uint8_t *msg, size_t len, struct sample *sample))

TLV_SPEC_FUNCTIONS(CORPUS_DECLARE_SPEC)

#endif
