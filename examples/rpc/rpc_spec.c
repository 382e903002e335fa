/*
 * rpc_spec.c — spec of the Sun RPC case study: how the RPCBENCH interface's
 * arguments and results are marshaled, through the real, unmodified Sun RPC 4.0 XDR
 * library (dietlibc's librpc) and the XDR routines rpcgen generated from rpcbench.x.
 *
 * What is known: every entry point marshals through a memory stream it creates on
 * the spot, so the stream's direction (x_op), its operations (x_ops) and, for the
 * encoders of a known array size, its size (x_handy) are static; the XDR routine of
 * each type and element is a known function. What stays dynamic: the buffers, the
 * values, and for decoders the message and its length — so every check a decoder
 * makes on the message (length, count bound, string bound, pointer flag,
 * discriminant) survives specialization; only the interpretation of the known facts
 * goes: the encode/decode/free dispatch, the ops-table calls, the overflow checks of
 * encoders, the propagation of their always-true status, and the loop control of
 * arrays whose size is known (and of freeing, which visits every element to do
 * nothing).
 *
 * Compiled without respec this file is the generic implementation of the entry
 * points (the fallback, and the oracle of the differential tests); compiled against
 * libtirpc's headers and linked with libtirpc it runs the same stubs on Debian's
 * binary RPC library.
 */
#include "rpc_spec.h"

#include <respec/respec.h>

/*
 * Creates the memory stream an entry point marshals through. Its operations table
 * is a mutable global of xdr_mem.c that nothing writes: declared known, the calls
 * through it are devirtualized and unfolded.
 */
static void open_stream(XDR *stream, const char *buf, unsigned size, enum xdr_op op)
{
	/* Decoding streams never write to their buffer; the library's prototype for
	 * it is not const-qualified everywhere. */
	xdrmem_create(stream, (char *)buf, size, op);
	respec_static_memory(stream->x_ops, sizeof *stream->x_ops);
}

static int moved_or_failed(bool_t ok, XDR *stream)
{
	return ok ? (int)XDR_GETPOS(stream) : -1;
}

/* The XDR routines take the value to encode non-const; encoding only reads it. */

RESPEC_SPECIALIZE int encode_pair(char *buf, const pair *p)
{
	XDR stream;
	open_stream(&stream, buf, PAIR_WIRE_SIZE, XDR_ENCODE);
	return moved_or_failed(xdr_pair(&stream, (pair *)p), &stream);
}

RESPEC_SPECIALIZE int decode_pair(const char *buf, unsigned len, pair *p)
{
	XDR stream;
	open_stream(&stream, buf, len, XDR_DECODE);
	return moved_or_failed(xdr_pair(&stream, p), &stream);
}

RESPEC_SPECIALIZE int encode_int(char *buf, const int *v)
{
	XDR stream;
	open_stream(&stream, buf, INT_WIRE_SIZE, XDR_ENCODE);
	return moved_or_failed(xdr_int(&stream, (int *)v), &stream);
}

RESPEC_SPECIALIZE int decode_int(const char *buf, unsigned len, int *v)
{
	XDR stream;
	open_stream(&stream, buf, len, XDR_DECODE);
	return moved_or_failed(xdr_int(&stream, v), &stream);
}

static int encode_intarray_into(char *buf, unsigned len, const intarray *a)
{
	XDR stream;
	open_stream(&stream, buf, len, XDR_ENCODE);
	return moved_or_failed(xdr_intarray(&stream, (intarray *)a), &stream);
}

/*
 * One encoder per array size: the count is a fact about the argument. It is not
 * enough to state it (respec_assume) and encode *a: the stream's first store to the
 * buffer may, for all C says, overwrite a->intarray_len (both are ints), so the
 * fact ends there. The encoder marshals a private copy of the argument whose count
 * is the known one instead, which for an argument of that count is the same thing:
 * the element loop gets a static trip count and the stream's remaining space is
 * known after every element. (Callers pass arrays of that count: the differential
 * tests and the RPC hooks do.)
 */
static int encode_intarray_known(char *buf, const intarray *a, unsigned count)
{
	intarray known = *a;
	known.intarray_len = count;
	return encode_intarray_into(buf, INTARRAY_WIRE_SIZE(count), &known);
}

RESPEC_SPECIALIZE int encode_intarray_20(char *buf, const intarray *a)
{
	return encode_intarray_known(buf, a, 20);
}

RESPEC_SPECIALIZE int encode_intarray_100(char *buf, const intarray *a)
{
	return encode_intarray_known(buf, a, 100);
}

RESPEC_SPECIALIZE int encode_intarray_250(char *buf, const intarray *a)
{
	return encode_intarray_known(buf, a, 250);
}

RESPEC_SPECIALIZE int encode_intarray_500(char *buf, const intarray *a)
{
	return encode_intarray_known(buf, a, 500);
}

RESPEC_SPECIALIZE int encode_intarray_1000(char *buf, const intarray *a)
{
	return encode_intarray_known(buf, a, 1000);
}

RESPEC_SPECIALIZE int encode_intarray_2000(char *buf, const intarray *a)
{
	return encode_intarray_known(buf, a, 2000);
}

/* Any count: the element loop stays a loop, with the stream's checks in it. */
RESPEC_SPECIALIZE int encode_intarray(char *buf, unsigned len, const intarray *a)
{
	return encode_intarray_into(buf, len, a);
}

RESPEC_SPECIALIZE int decode_intarray(const char *buf, unsigned len, intarray *a)
{
	XDR stream;
	open_stream(&stream, buf, len, XDR_DECODE);
	return moved_or_failed(xdr_intarray(&stream, a), &stream);
}

/*
 * XDR_FREE: the stream is nothing but its operation, as in the library's xdr_free;
 * the RPC layer frees every decoded argument and result this way.
 */
RESPEC_SPECIALIZE int free_intarray(intarray *a)
{
	XDR stream = {.x_op = XDR_FREE};
	return xdr_intarray(&stream, a);
}

RESPEC_SPECIALIZE int encode_record(char *buf, unsigned len, const record *r)
{
	XDR stream;
	open_stream(&stream, buf, len, XDR_ENCODE);
	return moved_or_failed(xdr_record(&stream, (record *)r), &stream);
}

RESPEC_SPECIALIZE int decode_record(const char *buf, unsigned len, record *r)
{
	XDR stream;
	open_stream(&stream, buf, len, XDR_DECODE);
	return moved_or_failed(xdr_record(&stream, r), &stream);
}

RESPEC_SPECIALIZE int free_record(record *r)
{
	XDR stream = {.x_op = XDR_FREE};
	return xdr_record(&stream, r);
}
