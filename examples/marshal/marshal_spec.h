/*
 * marshal_spec.h — the specialized entry points of the marshaling example.
 *
 * Every variant (generic, clang-lto, respec, hand) defines these functions under
 * these names; builds that link several variants into one program rename them with
 * a variant prefix (see examples/RespecVariants.cmake), and MARSHAL_SPEC_DECLARE
 * declares one such prefixed set so the signatures are written only here.
 *
 * Return values: encoders return the bytes written, or -1 if a value cannot be
 * represented on the wire; decoders return the bytes consumed, or -1 if the message
 * is malformed or shorter than it claims.
 */
#ifndef MARSHAL_SPEC_H
#define MARSHAL_SPEC_H

#include "pair.h"

/* Largest array the int-array entry points move. */
#define MARSHAL_INTS_MAX 1000
/* Wire size of a full array message: the count, then MARSHAL_INTS_MAX units. */
#define MARSHAL_INTS1000_SIZE (MS_UNIT + MARSHAL_INTS_MAX * MS_UNIT)

#define MARSHAL_SPEC_DECLARE(prefix)                                                     \
	/* Encodes a[0..999]; buf holds MARSHAL_INTS1000_SIZE bytes. */                  \
	int prefix##encode_ints1000(char *buf, const int *a);                            \
	/* Decodes an array of at most 1000 ints from the MARSHAL_INTS1000_SIZE bytes \
	 * at buf into a. */                                                             \
	int prefix##decode_ints1000(const char *buf, int *a);                            \
	/* Same, from a message of only len bytes (a received datagram, say). */         \
	int prefix##decode_ints(const char *buf, unsigned len, int *a);                  \
	/* Encodes *p into the PAIR_WIRE_SIZE bytes at buf. */                           \
	int prefix##encode_pair(char *buf, const struct pair *p);                        \
	/* Decodes a pair from the len bytes at buf. */                                  \
	int prefix##decode_pair(const char *buf, unsigned len, struct pair *p);

MARSHAL_SPEC_DECLARE()

#endif /* MARSHAL_SPEC_H */
