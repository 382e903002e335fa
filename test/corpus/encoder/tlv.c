/*
 * tlv.c — the generic TLV encoder and decoder (see tlv.h): the layout table is
 * interpreted field by field, bytes go through sink->ops->put_byte, and a nested
 * record's length is found by encoding it into a counting sink first.
 */
#include "tlv.h"

#include <string.h>

static int memory_put_byte(struct sink *sink, uint8_t byte)
{
	if (sink->length == sink->capacity)
		return TLV_OVERFLOW;
	sink->buf[sink->length++] = byte;
	return 0;
}

static int counting_put_byte(struct sink *sink, uint8_t byte)
{
	(void)byte;
	sink->length++;
	return 0;
}

const struct sink_ops memory_sink_ops = { memory_put_byte };
const struct sink_ops counting_sink_ops = { counting_put_byte };

static int put_varint(struct sink *sink, uint32_t value)
{
	do {
		uint8_t byte = value & 0x7f;
		value >>= 7;
		int status = sink->ops->put_byte(sink, value != 0 ? byte | 0x80 : byte);
		if (status != 0)
			return status;
	} while (value != 0);
	return 0;
}

static uint32_t zigzag(int32_t value)
{
	return ((uint32_t)value << 1) ^ (value < 0 ? 0xffffffffu : 0);
}

static int32_t unzigzag(uint32_t value)
{
	return (int32_t)((value >> 1) ^ (0u - (value & 1)));
}

static int put_field(struct sink *sink, const struct field *field, const unsigned char *record)
{
	int status = sink->ops->put_byte(sink, field->tag);
	if (status != 0)
		return status;
	switch (field->kind) {
	case FIELD_U32: {
		uint32_t value;
		memcpy(&value, record + field->offset, sizeof value);
		return put_varint(sink, value);
	}
	case FIELD_S32: {
		int32_t value;
		memcpy(&value, record + field->offset, sizeof value);
		return put_varint(sink, zigzag(value));
	}
	case FIELD_BYTES: {
		uint8_t length = record[field->length_offset];
		if (length > field->capacity)
			return TLV_TOO_LONG;
		status = put_varint(sink, length);
		for (size_t i = 0; status == 0 && i < length; i++)
			status = sink->ops->put_byte(sink, record[field->offset + i]);
		return status;
	}
	default: {
		struct sink counter = { &counting_sink_ops, NULL, 0, 0 };
		status = tlv_encode(&counter, field->record, record + field->offset);
		if (status == 0)
			status = put_varint(sink, (uint32_t)counter.length);
		if (status == 0)
			status = tlv_encode(sink, field->record, record + field->offset);
		return status;
	}
	}
}

int tlv_encode(struct sink *sink, const struct layout *layout, const void *record)
{
	for (size_t i = 0; i < layout->count; i++) {
		int status = put_field(sink, &layout->fields[i], record);
		if (status != 0)
			return status;
	}
	return 0;
}

/* Reads a varint at msg[*pos..len), advancing *pos: 0 or an error. */
static int get_varint(const uint8_t *msg, size_t len, size_t *pos, uint32_t *value)
{
	uint64_t result = 0;
	for (unsigned shift = 0; shift < 35; shift += 7) {
		if (*pos == len)
			return TLV_TRUNCATED;
		uint8_t byte = msg[(*pos)++];
		result |= (uint64_t)(byte & 0x7f) << shift;
		if ((byte & 0x80) == 0) {
			if (result > 0xffffffffu)
				return TLV_BAD_VARINT;
			*value = (uint32_t)result;
			return 0;
		}
	}
	return TLV_BAD_VARINT;
}

static int get_field(const struct field *field, const uint8_t *msg, size_t len, size_t *pos,
		     unsigned char *record)
{
	if (*pos == len)
		return TLV_TRUNCATED;
	if (msg[(*pos)++] != field->tag)
		return TLV_BAD_TAG;
	uint32_t value;
	int status = get_varint(msg, len, pos, &value);
	if (status != 0)
		return status;
	switch (field->kind) {
	case FIELD_U32:
		memcpy(record + field->offset, &value, sizeof value);
		return 0;
	case FIELD_S32: {
		int32_t signed_value = unzigzag(value);
		memcpy(record + field->offset, &signed_value, sizeof signed_value);
		return 0;
	}
	case FIELD_BYTES:
		if (value > field->capacity)
			return TLV_TOO_LONG;
		if (value > len - *pos)
			return TLV_TRUNCATED;
		record[field->length_offset] = (uint8_t)value;
		memcpy(record + field->offset, msg + *pos, value);
		*pos += value;
		return 0;
	default:
		if (value > len - *pos)
			return TLV_TRUNCATED;
		status = tlv_decode(field->record, msg + *pos, value, record + field->offset);
		if (status < 0)
			return status;
		if ((uint32_t)status != value)
			return TLV_BAD_LENGTH;
		*pos += value;
		return 0;
	}
}

int tlv_decode(const struct layout *layout, const uint8_t *msg, size_t len, void *record)
{
	size_t pos = 0;
	for (size_t i = 0; i < layout->count; i++) {
		int status = get_field(&layout->fields[i], msg, len, &pos, record);
		if (status != 0)
			return status;
	}
	return (int)pos;
}
