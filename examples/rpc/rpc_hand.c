/*
 * rpc_hand.c — the hand-written variant of the case study's encoders (and of the
 * array decoder): what a programmer writes instead of going through XDR, with the
 * byte order swapped in place and nothing else. It is the ceiling respec is measured
 * against, and it must match the generic build byte for byte and status for status,
 * failures included (the differential tests check it like every other variant).
 */
#include "rpc_spec.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

static void put_unit(char *at, uint32_t value)
{
	uint32_t wire = htonl(value);
	memcpy(at, &wire, sizeof wire);
}

static uint32_t get_unit(const char *at)
{
	uint32_t wire;
	memcpy(&wire, at, sizeof wire);
	return ntohl(wire);
}

int encode_pair(char *buf, const pair *p)
{
	put_unit(buf, (uint32_t)p->int1);
	put_unit(buf + BYTES_PER_XDR_UNIT, (uint32_t)p->int2);
	return PAIR_WIRE_SIZE;
}

int encode_int(char *buf, const int *v)
{
	put_unit(buf, (uint32_t)*v);
	return INT_WIRE_SIZE;
}

/* The count, then the elements; inlined where count is a constant. */
static inline int put_ints(char *buf, const int *values, u_int count)
{
	put_unit(buf, count);
	for (u_int i = 0; i < count; i++)
		put_unit(buf + INTARRAY_WIRE_SIZE(i), (uint32_t)values[i]);
	return INTARRAY_WIRE_SIZE(count);
}

#define DEFINE_SIZED_ENCODER(unused, size)                                   \
	int encode_intarray_##size(char *buf, const intarray *a)             \
	{                                                                    \
		return put_ints(buf, a->intarray_val, size);                 \
	}
RPC_ARRAY_SIZES(DEFINE_SIZED_ENCODER, )

/* Like XDR, writes the count and as many elements as fit before failing. */
int encode_intarray(char *buf, unsigned len, const intarray *a)
{
	u_int count = a->intarray_len;
	if (len < BYTES_PER_XDR_UNIT)
		return -1;
	if (count <= INTARRAY_MAX && len >= INTARRAY_WIRE_SIZE(count))
		return put_ints(buf, a->intarray_val, count);
	put_unit(buf, count);
	if (count > INTARRAY_MAX)
		return -1;
	u_int room = len / BYTES_PER_XDR_UNIT - 1;
	for (u_int i = 0; i < room; i++)
		put_unit(buf + INTARRAY_WIRE_SIZE(i), (uint32_t)a->intarray_val[i]);
	return -1;
}

/* Like XDR: sets the count, allocates a zeroed array when the caller gave none,
 * and decodes the elements the message holds before failing on a short one. */
int decode_intarray(const char *buf, unsigned len, intarray *a)
{
	if (len < BYTES_PER_XDR_UNIT)
		return -1;
	u_int count = get_unit(buf);
	a->intarray_len = count;
	if (count > INTARRAY_MAX)
		return -1;
	if (a->intarray_val == NULL) {
		if (count == 0)
			return BYTES_PER_XDR_UNIT;
		a->intarray_val = calloc(count, sizeof(int));
		if (a->intarray_val == NULL)
			return -1;
	}
	u_int room = len / BYTES_PER_XDR_UNIT - 1;
	u_int present = count < room ? count : room;
	for (u_int i = 0; i < present; i++)
		a->intarray_val[i] = (int)get_unit(buf + INTARRAY_WIRE_SIZE(i));
	return present == count ? (int)INTARRAY_WIRE_SIZE(count) : -1;
}
