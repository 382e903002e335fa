/*
 * rpc_spec.h — the marshaling entry points of the Sun RPC case study: the four
 * directions (client encodes arguments, server decodes them, server encodes results,
 * client decodes them) for each type of the RPCBENCH interface (rpcbench.x).
 *
 * Every variant (generic, clang-lto, respec, hand, libtirpc) defines these functions
 * under these names; programs that link several variants rename them with a variant
 * prefix (see examples/RespecVariants.cmake), and RPC_SPEC_DECLARE declares one such
 * prefixed set so that the signatures are written only here. The hand variant
 * defines only the encoders and decode_intarray.
 *
 * Encoders write the value's XDR form at buf and return the bytes written, or -1 if
 * the value cannot be represented (an array or string over its bound). Decoders read
 * a value from the len bytes at buf into a zeroed (or, for arrays, caller-allocated)
 * value and return the bytes consumed, or -1 if the message is malformed or shorter
 * than it claims; like the XDR routines they may leave a partly decoded value behind,
 * which the caller frees. Freers do XDR's third operation, XDR_FREE, on a decoded
 * value: free what decoding allocated and return the routine's status (1 or 0).
 */
#ifndef RPC_SPEC_H
#define RPC_SPEC_H

#include "rpcbench.h"

/* Wire sizes, from the XDR standard (RFC 4506): an int is one 4-byte unit; a counted
 * array is its count, then its elements; a string is its length, then its bytes
 * padded to a unit; an optional pointer is a boolean, then the object if present;
 * a union is its discriminant, then the arm. */
#define INT_WIRE_SIZE BYTES_PER_XDR_UNIT
#define PAIR_WIRE_SIZE (2 * BYTES_PER_XDR_UNIT)
#define INTARRAY_WIRE_SIZE(count) (BYTES_PER_XDR_UNIT * (1 + (count)))
#define RECORD_WIRE_MAX                                                          \
	(BYTES_PER_XDR_UNIT + NAME_MAX_LENGTH + /* name */                       \
	 BYTES_PER_XDR_UNIT + 2 * BYTES_PER_XDR_UNIT + /* origin */              \
	 BYTES_PER_XDR_UNIT + 2 * BYTES_PER_XDR_UNIT) /* outline: the largest arm */

/* The array sizes with an encoder specialized for them (the Tempo paper's sizes),
 * as an X-macro: X(arg, size) for each. */
#define RPC_ARRAY_SIZES(X, arg) X(arg, 20) X(arg, 100) X(arg, 250) X(arg, 500) \
	X(arg, 1000) X(arg, 2000)

/* Encodes a->intarray_val[0..size-1], a->intarray_len being size, into the
 * INTARRAY_WIRE_SIZE(size) bytes at buf. */
#define RPC_DECLARE_SIZED_ENCODER(prefix, size) \
	int prefix##encode_intarray_##size(char *buf, const intarray *a);

#define RPC_SPEC_DECLARE(prefix)                                                       \
	/* RMIN's argument (PAIR_WIRE_SIZE bytes at buf) and result. */                  \
	int prefix##encode_pair(char *buf, const pair *p);                               \
	int prefix##decode_pair(const char *buf, unsigned len, pair *p);                 \
	int prefix##encode_int(char *buf, const int *v);                                 \
	int prefix##decode_int(const char *buf, unsigned len, int *v);                   \
	/* ECHO_INTS's argument and result: one encoder per size above, one for any   \
	 * count into len bytes, one decoder. */                                         \
	RPC_ARRAY_SIZES(RPC_DECLARE_SIZED_ENCODER, prefix)                               \
	int prefix##encode_intarray(char *buf, unsigned len, const intarray *a);         \
	int prefix##decode_intarray(const char *buf, unsigned len, intarray *a);         \
	int prefix##free_intarray(intarray *a);                                          \
	/* ECHO_RECORD's argument and result, into at most len bytes at buf. */          \
	int prefix##encode_record(char *buf, unsigned len, const record *r);             \
	int prefix##decode_record(const char *buf, unsigned len, record *r);             \
	int prefix##free_record(record *r);

RPC_SPEC_DECLARE()

#endif /* RPC_SPEC_H */
