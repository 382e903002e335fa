/*
 * marshal_spec.c — spec of the marshaling example: the concrete calls an application
 * makes into the generic library (marshal.c, pair.c).
 *
 * Everything that makes the library slow is fixed here: the stream is a memory
 * stream created on the spot, its direction and size are literals, the element
 * procedure is a known function and the array's bound is 1000. Only the buffers,
 * the values and (for decoders) the message contents and length stay dynamic, so
 * the checks that guard against malformed messages must survive specialization.
 * Compiled without respec this file is the generic implementation of the entry
 * points and the oracle of the differential tests.
 */
#include "marshal_spec.h"

#include <respec/respec.h>

static int moved_or_failed(bool ok, struct mstream *stream)
{
	return ok ? (int)MS_GETPOS(stream) : -1;
}

RESPEC_SPECIALIZE int encode_ints1000(char *buf, const int *a)
{
	struct mstream stream;
	ms_mem_create(&stream, buf, MARSHAL_INTS1000_SIZE, MS_ENCODE);
	/* The library's array pointer is not const-qualified; encoding only reads it. */
	char *array = (char *)a;
	unsigned count = MARSHAL_INTS_MAX;
	bool ok = ms_array(&stream, &array, &count, MARSHAL_INTS_MAX, sizeof(int),
			   (ms_proc)ms_int);
	return moved_or_failed(ok, &stream);
}

static int decode_ints_from(const char *buf, unsigned len, int *a)
{
	struct mstream stream;
	/* A decoding stream never writes to its buffer. */
	ms_mem_create(&stream, (char *)buf, len, MS_DECODE);
	char *array = (char *)a;
	unsigned count;
	bool ok = ms_array(&stream, &array, &count, MARSHAL_INTS_MAX, sizeof(int),
			   (ms_proc)ms_int);
	return moved_or_failed(ok, &stream);
}

RESPEC_SPECIALIZE int decode_ints1000(const char *buf, int *a)
{
	return decode_ints_from(buf, MARSHAL_INTS1000_SIZE, a);
}

RESPEC_SPECIALIZE int decode_ints(const char *buf, unsigned len, int *a)
{
	return decode_ints_from(buf, len, a);
}

RESPEC_SPECIALIZE int encode_pair(char *buf, const struct pair *p)
{
	struct mstream stream;
	ms_mem_create(&stream, buf, PAIR_WIRE_SIZE, MS_ENCODE);
	/* ms_pair does not write the record when encoding. */
	bool ok = ms_pair(&stream, (struct pair *)p);
	return moved_or_failed(ok, &stream);
}

RESPEC_SPECIALIZE int decode_pair(const char *buf, unsigned len, struct pair *p)
{
	struct mstream stream;
	ms_mem_create(&stream, (char *)buf, len, MS_DECODE);
	bool ok = ms_pair(&stream, p);
	return moved_or_failed(ok, &stream);
}
