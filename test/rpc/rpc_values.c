/*
 * rpc_values.c — random RPCBENCH values and messages, decoding through a codec table,
 * and canonical descriptions of decoded values (see rpc_values.h).
 */
#include "rpc_values.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

const char *const rpc_type_names[RPC_TYPES] = {"pair", "int", "intarray", "record"};

#define RPC_ARRAY_SIZE_VALUE(unused, size) size,
const unsigned rpc_array_sizes[RPC_SIZED_ENCODERS] = {RPC_ARRAY_SIZES(RPC_ARRAY_SIZE_VALUE, )};

bool rpc_codec_decodes(const struct rpc_codec *codec, enum rpc_type type)
{
	switch (type) {
	case RPC_PAIR:
		return codec->decode_pair != NULL;
	case RPC_INT:
		return codec->decode_int != NULL;
	case RPC_INTARRAY:
		return codec->decode_intarray != NULL;
	default:
		return codec->decode_record != NULL;
	}
}

int rpc_decode(const struct rpc_codec *codec, enum rpc_type type, const char *buf, unsigned len,
	       union rpc_value *value)
{
	memset(value, 0, sizeof *value);
	switch (type) {
	case RPC_PAIR:
		return codec->decode_pair(buf, len, &value->pair);
	case RPC_INT:
		return codec->decode_int(buf, len, &value->integer);
	case RPC_INTARRAY:
		return codec->decode_intarray(buf, len, &value->array);
	default:
		return codec->decode_record(buf, len, &value->record);
	}
}

void rpc_value_free(enum rpc_type type, union rpc_value *value)
{
	if (type == RPC_INTARRAY) {
		free(value->array.intarray_val);
	} else if (type == RPC_RECORD) {
		free(value->record.name);
		free(value->record.origin);
	}
	memset(value, 0, sizeof *value);
}

bool rpc_type_allocates(enum rpc_type type)
{
	return type == RPC_INTARRAY || type == RPC_RECORD;
}

bool rpc_codec_frees(const struct rpc_codec *codec, enum rpc_type type)
{
	return type == RPC_INTARRAY ? codec->free_intarray != NULL
				    : type == RPC_RECORD && codec->free_record != NULL;
}

int rpc_free(const struct rpc_codec *codec, enum rpc_type type, union rpc_value *value)
{
	return type == RPC_INTARRAY ? codec->free_intarray(&value->array)
				    : codec->free_record(&value->record);
}

static unsigned char *describe_bytes(unsigned char *out, const void *bytes, size_t size)
{
	memcpy(out, bytes, size);
	return out + size;
}

static unsigned char *describe_flag(unsigned char *out, bool flag)
{
	*out = flag;
	return out + 1;
}

size_t rpc_describe(enum rpc_type type, const union rpc_value *value, bool complete,
		    unsigned char *out)
{
	unsigned char *at = out;
	switch (type) {
	case RPC_PAIR:
		at = describe_bytes(at, &value->pair.int1, sizeof value->pair.int1);
		at = describe_bytes(at, &value->pair.int2, sizeof value->pair.int2);
		break;
	case RPC_INT:
		at = describe_bytes(at, &value->integer, sizeof value->integer);
		break;
	case RPC_INTARRAY: {
		const intarray *a = &value->array;
		at = describe_bytes(at, &a->intarray_len, sizeof a->intarray_len);
		at = describe_flag(at, a->intarray_val != NULL);
		/* A decoder allocates exactly intarray_len (at most INTARRAY_MAX) elements. */
		if (a->intarray_val != NULL && a->intarray_len <= INTARRAY_MAX)
			at = describe_bytes(at, a->intarray_val, a->intarray_len * sizeof(int));
		break;
	}
	default: {
		const record *r = &value->record;
		at = describe_flag(at, r->name != NULL);
		if (complete && r->name != NULL) {
			size_t length = strnlen(r->name, NAME_MAX_LENGTH + 1);
			at = describe_bytes(at, r->name, length);
		}
		at = describe_flag(at, r->origin != NULL);
		if (r->origin != NULL)
			at = describe_bytes(at, r->origin, sizeof *r->origin);
		at = describe_bytes(at, &r->outline.kind, sizeof r->outline.kind);
		at = describe_bytes(at, &r->outline.shape_u, sizeof r->outline.shape_u);
		break;
	}
	}
	return (size_t)(at - out);
}

void rpc_random_pair(struct diff_rng *rng, pair *p)
{
	p->int1 = diff_rng_int32(rng);
	p->int2 = diff_rng_int32(rng);
}

void rpc_random_record(struct diff_rng *rng, record *r, char *name, point *origin,
		       unsigned invalid_one_in)
{
	memset(r, 0, sizeof *r);
	size_t length = invalid_one_in != 0 && diff_rng_one_in(rng, invalid_one_in)
				? NAME_MAX_LENGTH + 1 + (size_t)diff_rng_below(rng, 8)
				: (size_t)diff_rng_below(rng, NAME_MAX_LENGTH + 1);
	for (size_t i = 0; i < length; i++)
		name[i] = (char)(1 + diff_rng_below(rng, 255));
	name[length] = '\0';
	r->name = name;
	if (diff_rng_one_in(rng, 2)) {
		origin->x = diff_rng_int32(rng);
		origin->y = diff_rng_int32(rng);
		r->origin = origin;
	}
	/* Kinds beyond the declared ones take the union's void default arm. */
	r->outline.kind = (shape_kind)diff_rng_below(rng, 6);
	switch (r->outline.kind) {
	case SHAPE_CIRCLE:
		r->outline.shape_u.radius = diff_rng_int32(rng);
		break;
	case SHAPE_RECT:
		r->outline.shape_u.corner.x = diff_rng_int32(rng);
		r->outline.shape_u.corner.y = diff_rng_int32(rng);
		break;
	case SHAPE_LABEL:
		diff_rng_fill(rng, r->outline.shape_u.label, sizeof r->outline.shape_u.label);
		break;
	default:
		break;
	}
}

/* An array count: mostly valid, often one of the specialized sizes or a bound. */
static u_int random_count(struct diff_rng *rng)
{
	switch (diff_rng_below(rng, 4)) {
	case 0:
		return (u_int)diff_rng_below(rng, 8);
	case 1:
		return rpc_array_sizes[diff_rng_below(rng, RPC_SIZED_ENCODERS)];
	case 2:
		return INTARRAY_MAX - (u_int)diff_rng_below(rng, 2);
	default:
		return (u_int)diff_rng_below(rng, INTARRAY_MAX + 1);
	}
}

/* Encodes a random valid value of type into msg; returns its length. */
static size_t encode_random_value(struct diff_rng *rng, const struct rpc_codec *encoder,
				  enum rpc_type type, unsigned char *msg, size_t capacity)
{
	char *buf = (char *)msg;
	int size;
	switch (type) {
	case RPC_PAIR: {
		pair p;
		rpc_random_pair(rng, &p);
		size = encoder->encode_pair(buf, &p);
		break;
	}
	case RPC_INT: {
		int v = diff_rng_int32(rng);
		size = encoder->encode_int(buf, &v);
		break;
	}
	case RPC_INTARRAY: {
		static int values[INTARRAY_MAX];
		intarray a = {random_count(rng), values};
		for (u_int i = 0; i < a.intarray_len; i++)
			values[i] = diff_rng_int32(rng);
		size = encoder->encode_intarray(buf, (unsigned)capacity, &a);
		break;
	}
	default: {
		record r;
		char name[RPC_NAME_ROOM];
		point origin;
		rpc_random_record(rng, &r, name, &origin, 0);
		size = encoder->encode_record(buf, (unsigned)capacity, &r);
		break;
	}
	}
	if (size < 0)
		abort(); /* valid values always fit: a bug in the generator */
	return (size_t)size;
}

/* Values that sit on the edges of what decoders accept as counts, string lengths,
 * pointer flags and discriminants. */
static uint32_t edge_unit(struct diff_rng *rng)
{
	static const uint32_t edges[] = {
		0, 1, 2, 3, 4, 5, 7, 8, 31, 32, 33, 36,
		INTARRAY_MAX - 1, INTARRAY_MAX, INTARRAY_MAX + 1, 0x3fffffffu, 0x40000000u,
		0x7fffffffu, 0x80000000u, 0xfffffffcu, 0xffffffffu,
	};
	return edges[diff_rng_below(rng, sizeof edges / sizeof edges[0])];
}

size_t rpc_random_message(struct diff_rng *rng, const struct rpc_codec *encoder,
			  enum rpc_type type, unsigned char *msg, size_t capacity)
{
	if (diff_rng_one_in(rng, 8)) {
		size_t length = (size_t)diff_rng_below(rng, capacity < 96 ? capacity + 1 : 97);
		diff_rng_fill(rng, msg, length);
		return length;
	}
	size_t whole = encode_random_value(rng, encoder, type, msg, capacity);
	switch (diff_rng_below(rng, 6)) {
	case 0: /* as encoded */
		return whole;
	case 1: /* truncated anywhere */
		return (size_t)diff_rng_below(rng, whole + 1);
	case 2: /* truncated within a unit of the end */
		return whole - (size_t)diff_rng_below(rng, whole < 5 ? whole + 1 : 5);
	case 3: /* bytes flipped, often near the front where counts and flags are */
		for (uint64_t n = 1 + diff_rng_below(rng, 3); n > 0 && whole > 0; n--) {
			size_t at = (size_t)diff_rng_below(rng, diff_rng_one_in(rng, 2) && whole > 16
									 ? 16
									 : whole);
			msg[at] ^= (unsigned char)(1 + diff_rng_below(rng, 255));
		}
		return whole;
	case 4: { /* one unit replaced by an edge value */
		size_t units = whole / BYTES_PER_XDR_UNIT;
		if (units > 0) {
			size_t unit = (size_t)diff_rng_below(rng, units < 12 ? units : 12);
			uint32_t wire = htonl(edge_unit(rng));
			memcpy(msg + unit * BYTES_PER_XDR_UNIT, &wire, sizeof wire);
		}
		return whole;
	}
	default: { /* trailing bytes a decoder must not care about */
		size_t extra = (size_t)diff_rng_below(rng, 9);
		if (whole + extra > capacity)
			extra = capacity - whole;
		diff_rng_fill(rng, msg + whole, extra);
		return whole + extra;
	}
	}
}
