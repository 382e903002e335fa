/*
 * marshal.c — the generic marshaling library: memory streams, primitive procedures
 * and counted arrays (see marshal.h for the layering and the wire format).
 *
 * Written the way portable marshaling code is written: every primitive goes through
 * the stream's ops table, checks its direction at run time, and widens to long
 * because that is the one type every stream moves. Nothing here knows that a caller
 * will always encode 1000 ints into a memory stream; that knowledge lives in the
 * spec.
 */
#include "marshal.h"

#include <arpa/inet.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool mem_put_long(struct mstream *stream, const long *value)
{
	if (stream->remaining < MS_UNIT)
		return false;
	stream->remaining -= MS_UNIT;
	uint32_t wire = htonl((uint32_t)*value);
	memcpy(stream->cursor, &wire, MS_UNIT);
	stream->cursor += MS_UNIT;
	return true;
}

static bool mem_get_long(struct mstream *stream, long *value)
{
	if (stream->remaining < MS_UNIT)
		return false;
	stream->remaining -= MS_UNIT;
	uint32_t wire;
	memcpy(&wire, stream->cursor, MS_UNIT);
	stream->cursor += MS_UNIT;
	/* Units are signed 32-bit on the wire; unsigned readers reinterpret. */
	*value = (long)(int32_t)ntohl(wire);
	return true;
}

static unsigned mem_getpos(const struct mstream *stream)
{
	return (unsigned)(stream->cursor - stream->base);
}

static bool mem_setpos(struct mstream *stream, unsigned pos)
{
	unsigned size = mem_getpos(stream) + stream->remaining;
	if (pos > size)
		return false;
	stream->cursor = stream->base + pos;
	stream->remaining = size - pos;
	return true;
}

static void mem_destroy(struct mstream *stream)
{
	/* The caller owns the buffer; there is nothing to release. */
	(void)stream;
}

static const struct mstream_ops mem_ops = {
	.put_long = mem_put_long,
	.get_long = mem_get_long,
	.getpos = mem_getpos,
	.setpos = mem_setpos,
	.destroy = mem_destroy,
};

void ms_mem_create(struct mstream *stream, char *buf, unsigned size, enum ms_op op)
{
	stream->op = op;
	stream->ops = &mem_ops;
	stream->base = buf;
	stream->cursor = buf;
	stream->remaining = size;
}

bool ms_long(struct mstream *stream, long *value)
{
	switch (stream->op) {
	case MS_ENCODE:
		/* A long wider than a unit must not be silently truncated. */
		if (*value < INT32_MIN || *value > INT32_MAX)
			return false;
		return MS_PUTLONG(stream, value);
	case MS_DECODE:
		return MS_GETLONG(stream, value);
	case MS_FREE:
		return true;
	}
	return false;
}

bool ms_u_long(struct mstream *stream, unsigned long *value)
{
	long unit;
	switch (stream->op) {
	case MS_ENCODE:
		if (*value > UINT32_MAX)
			return false;
		unit = (long)*value;
		return MS_PUTLONG(stream, &unit);
	case MS_DECODE:
		if (!MS_GETLONG(stream, &unit))
			return false;
		*value = (uint32_t)unit;
		return true;
	case MS_FREE:
		return true;
	}
	return false;
}

bool ms_int(struct mstream *stream, int *value)
{
	long unit;
	switch (stream->op) {
	case MS_ENCODE:
		unit = *value;
		return MS_PUTLONG(stream, &unit);
	case MS_DECODE:
		if (!MS_GETLONG(stream, &unit))
			return false;
		/* Another stream implementation may hand back a wider value. */
		if (unit < INT_MIN || unit > INT_MAX)
			return false;
		*value = (int)unit;
		return true;
	case MS_FREE:
		return true;
	}
	return false;
}

bool ms_u_int(struct mstream *stream, unsigned *value)
{
	long unit;
	switch (stream->op) {
	case MS_ENCODE:
		unit = (long)*value;
		return MS_PUTLONG(stream, &unit);
	case MS_DECODE:
		if (!MS_GETLONG(stream, &unit))
			return false;
		*value = (unsigned)(uint32_t)unit;
		return true;
	case MS_FREE:
		return true;
	}
	return false;
}

bool ms_bool(struct mstream *stream, bool *value)
{
	long unit;
	switch (stream->op) {
	case MS_ENCODE:
		unit = *value ? 1 : 0;
		return MS_PUTLONG(stream, &unit);
	case MS_DECODE:
		if (!MS_GETLONG(stream, &unit))
			return false;
		/* Anything but 0 or 1 is a malformed message, not "true". */
		if (unit != 0 && unit != 1)
			return false;
		*value = unit == 1;
		return true;
	case MS_FREE:
		return true;
	}
	return false;
}

bool ms_enum(struct mstream *stream, int *value)
{
	return ms_int(stream, value);
}

bool ms_array(struct mstream *stream, char **arrayp, unsigned *countp, unsigned maxcount,
	      unsigned elsize, ms_proc elproc)
{
	if (!ms_u_int(stream, countp))
		return false;
	unsigned count = *countp;
	/* Freeing must still release what a failed decode left behind. */
	bool too_big = count > maxcount || (elsize != 0 && count > UINT_MAX / elsize);
	if (too_big && stream->op != MS_FREE)
		return false;

	char *array = *arrayp;
	if (array == NULL) {
		switch (stream->op) {
		case MS_DECODE:
			if (count == 0)
				return true;
			array = calloc(count, elsize);
			if (array == NULL)
				return false;
			*arrayp = array;
			break;
		case MS_FREE:
			return true;
		case MS_ENCODE:
			return count == 0;
		}
	}

	bool ok = true;
	for (unsigned i = 0; i < count && ok; i++) {
		ok = (*elproc)(stream, array);
		array += elsize;
	}

	if (stream->op == MS_FREE) {
		free(*arrayp);
		*arrayp = NULL;
	}
	return ok;
}
