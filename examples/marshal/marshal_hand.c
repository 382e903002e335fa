/*
 * marshal_hand.c — the marshaling entry points written by hand, as an expert would
 * for exactly these calls: no stream object, no dispatch, one bounds check per
 * message where the generic code checks every unit.
 *
 * It is the ceiling respec is measured against, so it keeps the generic code's
 * observable behaviour to the byte, including what a failed call leaves behind:
 * a truncated array message still fills the elements that are present, and a
 * record stops being filled at the first bad field.
 */
#include "marshal_spec.h"

#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>

static void put_unit(char *at, uint32_t value)
{
	uint32_t wire = htonl(value);
	memcpy(at, &wire, MS_UNIT);
}

static uint32_t get_unit(const char *at)
{
	uint32_t wire;
	memcpy(&wire, at, MS_UNIT);
	return ntohl(wire);
}

int encode_ints1000(char *buf, const int *a)
{
	put_unit(buf, MARSHAL_INTS_MAX);
	for (unsigned i = 0; i < MARSHAL_INTS_MAX; i++)
		put_unit(buf + MS_UNIT + i * MS_UNIT, (uint32_t)a[i]);
	return MARSHAL_INTS1000_SIZE;
}

int decode_ints(const char *buf, unsigned len, int *a)
{
	if (len < MS_UNIT)
		return -1;
	uint32_t count = get_unit(buf);
	if (count > MARSHAL_INTS_MAX)
		return -1;
	unsigned present = (len - MS_UNIT) / MS_UNIT;
	unsigned filled = count < present ? count : present;
	for (unsigned i = 0; i < filled; i++)
		a[i] = (int32_t)get_unit(buf + MS_UNIT + i * MS_UNIT);
	return count <= present ? (int)(MS_UNIT + count * MS_UNIT) : -1;
}

int decode_ints1000(const char *buf, int *a)
{
	return decode_ints(buf, MARSHAL_INTS1000_SIZE, a);
}

int encode_pair(char *buf, const struct pair *p)
{
	put_unit(buf, (uint32_t)p->key);
	put_unit(buf + 4, p->value);
	if (p->stamp < INT32_MIN || p->stamp > INT32_MAX)
		return -1;
	put_unit(buf + 8, (uint32_t)p->stamp);
	put_unit(buf + 12, p->valid ? 1 : 0);
	put_unit(buf + 16, (uint32_t)p->kind);
	if ((int)p->kind < 0 || p->kind >= PAIR_KIND_COUNT)
		return -1;
	return PAIR_WIRE_SIZE;
}

int decode_pair(const char *buf, unsigned len, struct pair *p)
{
	if (len < 4)
		return -1;
	p->key = (int32_t)get_unit(buf);
	if (len < 8)
		return -1;
	p->value = get_unit(buf + 4);
	if (len < 12)
		return -1;
	p->stamp = (int32_t)get_unit(buf + 8);
	if (len < 16)
		return -1;
	uint32_t valid = get_unit(buf + 12);
	if (valid > 1)
		return -1;
	p->valid = valid == 1;
	if (len < 20)
		return -1;
	int32_t kind = (int32_t)get_unit(buf + 16);
	if (kind < 0 || kind >= PAIR_KIND_COUNT)
		return -1;
	p->kind = (enum pair_kind)kind;
	return PAIR_WIRE_SIZE;
}
