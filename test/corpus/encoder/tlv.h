/*
 * tlv.h — a layered tag-length-value encoder: records described by a layout table
 * are written as fields (tag byte, then a varint, a zigzag varint, length-prefixed
 * bytes, or a length-prefixed nested record) to a byte sink reached through an ops
 * table; the decoder checks every byte of untrusted input.
 */
#ifndef TLV_H
#define TLV_H

#include <stddef.h>
#include <stdint.h>

struct sink;
struct sink_ops {
	int (*put_byte)(struct sink *, uint8_t); /* 0, or TLV_OVERFLOW */
};
struct sink {
	const struct sink_ops *ops;
	uint8_t *buf;
	size_t capacity, length;
};
extern const struct sink_ops memory_sink_ops;   /* stores into buf[0..capacity) */
extern const struct sink_ops counting_sink_ops; /* only counts */

enum field_kind { FIELD_U32, FIELD_S32, FIELD_BYTES, FIELD_RECORD };

struct layout;
struct field {
	uint8_t tag, kind;
	uint16_t offset;        /* of the value in the record */
	uint16_t length_offset; /* FIELD_BYTES: of its uint8_t length */
	uint16_t capacity;      /* FIELD_BYTES: most bytes */
	const struct layout *record; /* FIELD_RECORD */
};
struct layout {
	size_t count;
	const struct field *fields;
};

enum tlv_error {
	TLV_OVERFLOW = -1,   /* the sink is full */
	TLV_TOO_LONG = -2,   /* a byte field's length exceeds its capacity */
	TLV_TRUNCATED = -3,  /* the message ends inside a field */
	TLV_BAD_TAG = -4,
	TLV_BAD_VARINT = -5, /* longer than 5 bytes or beyond 32 bits */
	TLV_BAD_LENGTH = -6, /* a nested record does not fill its length */
};

/* Appends the record's fields to sink: 0, or an error (the sink keeps what it got). */
int tlv_encode(struct sink *sink, const struct layout *layout, const void *record);
/* Reads the fields of layout, in order, from msg[0..len) into record: the bytes
 * consumed, or an error (fields decoded before it stay written). */
int tlv_decode(const struct layout *layout, const uint8_t *msg, size_t len, void *record);

#endif
