/*
 * rpc_values.h — what the rpc tests share: a variant's marshaling entry points as one
 * table (struct rpc_codec), random RPCBENCH values and messages, and a canonical
 * description of decoded values by which two decoders' results are compared.
 */
#ifndef RPC_VALUES_H
#define RPC_VALUES_H

#include "diffcheck.h"
#include "rpc_spec.h"

#include <stdbool.h>
#include <stddef.h>

/* The types marshaled, one per decoder. */
enum rpc_type { RPC_PAIR, RPC_INT, RPC_INTARRAY, RPC_RECORD, RPC_TYPES };

extern const char *const rpc_type_names[RPC_TYPES];

union rpc_value {
	pair pair;
	int integer;
	intarray array;
	record record;
};

#define RPC_SIZED_ENCODER_TYPE(unused, size) +1
enum { RPC_SIZED_ENCODERS = 0 RPC_ARRAY_SIZES(RPC_SIZED_ENCODER_TYPE, ) };
extern const unsigned rpc_array_sizes[RPC_SIZED_ENCODERS];

/* One variant's entry points (rpc_spec.h); NULL where the variant has none. */
struct rpc_codec {
	const char *name;
	int (*encode_pair)(char *buf, const pair *p);
	int (*decode_pair)(const char *buf, unsigned len, pair *p);
	int (*encode_int)(char *buf, const int *v);
	int (*decode_int)(const char *buf, unsigned len, int *v);
	int (*encode_sized[RPC_SIZED_ENCODERS])(char *buf, const intarray *a);
	int (*encode_intarray)(char *buf, unsigned len, const intarray *a);
	int (*decode_intarray)(const char *buf, unsigned len, intarray *a);
	int (*free_intarray)(intarray *a);
	int (*encode_record)(char *buf, unsigned len, const record *r);
	int (*decode_record)(const char *buf, unsigned len, record *r);
	int (*free_record)(record *r);
	/* Whether the variant runs the same library as generic, so that even a failed
	 * decode leaves the same partial value behind. libtirpc does not: it frees a
	 * string whose bytes are missing, where Sun RPC 4.0 keeps it allocated. */
	bool same_library;
};

#define RPC_SIZED_ENCODER_ENTRY(prefix, size) prefix##encode_intarray_##size,
/* The table of a variant that defines every entry point, given its prefix. */
#define RPC_CODEC(label, prefix, same_library)                                            \
	{                                                                                 \
		label, prefix##encode_pair, prefix##decode_pair, prefix##encode_int,      \
			prefix##decode_int,                                               \
			{ RPC_ARRAY_SIZES(RPC_SIZED_ENCODER_ENTRY, prefix) },             \
			prefix##encode_intarray, prefix##decode_intarray,                 \
			prefix##free_intarray, prefix##encode_record,                     \
			prefix##decode_record, prefix##free_record, same_library          \
	}

/* The decoder of type in codec (non-NULL), run on a zeroed *value. */
bool rpc_codec_decodes(const struct rpc_codec *codec, enum rpc_type type);
int rpc_decode(const struct rpc_codec *codec, enum rpc_type type, const char *buf, unsigned len,
	       union rpc_value *value);
/* Frees what a decoder allocated in value and zeroes it. */
void rpc_value_free(enum rpc_type type, union rpc_value *value);
/* Whether the types allocate when decoded, and so have a freer; running it. */
bool rpc_type_allocates(enum rpc_type type);
bool rpc_codec_frees(const struct rpc_codec *codec, enum rpc_type type);
int rpc_free(const struct rpc_codec *codec, enum rpc_type type, union rpc_value *value);

/*
 * Writes a canonical description of a decoded value to out (capacity RPC_DESCRIPTION_MAX)
 * and returns its length: equal values have equal descriptions. After a failed
 * decode (complete false) a string's bytes may be uninitialized memory, so only
 * whether it was allocated is described.
 */
enum { RPC_DESCRIPTION_MAX = 16 + 4 * INTARRAY_MAX + 128 };
size_t rpc_describe(enum rpc_type type, const union rpc_value *value, bool complete,
		    unsigned char *out);

/* Random values: edge-heavy ints; sometimes invalid records (name over its bound). */
void rpc_random_pair(struct diff_rng *rng, pair *p);
/* A record whose name (owned by the caller, room for NAME_MAX_LENGTH + 9 bytes) is at
 * most NAME_MAX_LENGTH long, or longer one time in invalid_one_in (0: never); origin
 * points to *origin or is NULL. */
void rpc_random_record(struct diff_rng *rng, record *r, char *name, point *origin,
		       unsigned invalid_one_in);
enum { RPC_NAME_ROOM = NAME_MAX_LENGTH + 9 };

/*
 * A message for the decoder of type: the encoding (by the codec's encoder) of a
 * random value, or it truncated, mutated (flipped bytes, a unit replaced by a value
 * near the edges of the valid ranges: counts, lengths, flags, discriminants), or
 * random bytes. Writes at most capacity bytes to msg; returns the length.
 */
size_t rpc_random_message(struct diff_rng *rng, const struct rpc_codec *encoder,
			  enum rpc_type type, unsigned char *msg, size_t capacity);
enum { RPC_MESSAGE_MAX = INTARRAY_WIRE_SIZE(INTARRAY_MAX) + 16 };

#endif /* RPC_VALUES_H */
