/*
 * marshal.h — a small layered marshaling library in the shape of Sun RPC's XDR.
 *
 * This is the generic code respec's marshaling example specializes. Every value
 * crosses three layers: a typed procedure (ms_int, ms_array, ...) that dispatches on
 * the stream's direction, a stream object reached through an ops table (so the same
 * procedures serve memory, record or socket streams), and the stream's own
 * bookkeeping, which checks the remaining space on every 4-byte unit. Each layer
 * returns a status that the layer above must propagate. That generality costs far
 * more than moving the bytes, which is exactly what specialization removes.
 *
 * Wire format: big-endian 4-byte units; an array is its element count followed by
 * the elements.
 */
#ifndef MARSHAL_MARSHAL_H
#define MARSHAL_MARSHAL_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes in one unit on the wire. */
#define MS_UNIT 4

enum ms_op { MS_ENCODE, MS_DECODE, MS_FREE };

struct mstream;

/* What a stream implementation provides; procedures reach it only through these. */
struct mstream_ops {
	bool (*put_long)(struct mstream *stream, const long *value);
	bool (*get_long)(struct mstream *stream, long *value);
	unsigned (*getpos)(const struct mstream *stream);
	bool (*setpos)(struct mstream *stream, unsigned pos);
	void (*destroy)(struct mstream *stream);
};

struct mstream {
	enum ms_op op;
	const struct mstream_ops *ops;
	/* Implementation-private state: the memory stream's buffer and cursor. */
	char *base;
	char *cursor;
	/* Bytes that may still be put or got before the stream reports overflow. */
	unsigned remaining;
};

/* A procedure that moves one object of some type in the stream's direction. */
typedef bool (*ms_proc)(struct mstream *stream, void *object);

/* A stream over the size bytes at buf. */
void ms_mem_create(struct mstream *stream, char *buf, unsigned size, enum ms_op op);

#define MS_PUTLONG(stream, valuep) ((*(stream)->ops->put_long)((stream), (valuep)))
#define MS_GETLONG(stream, valuep) ((*(stream)->ops->get_long)((stream), (valuep)))
#define MS_GETPOS(stream) ((*(stream)->ops->getpos)(stream))
#define MS_SETPOS(stream, pos) ((*(stream)->ops->setpos)((stream), (pos)))
#define MS_DESTROY(stream) ((*(stream)->ops->destroy)(stream))

/* Primitive procedures: encode, decode or free one value; false on failure. */
bool ms_long(struct mstream *stream, long *value);
bool ms_u_long(struct mstream *stream, unsigned long *value);
bool ms_int(struct mstream *stream, int *value);
bool ms_u_int(struct mstream *stream, unsigned *value);
bool ms_bool(struct mstream *stream, bool *value);
/* Enums travel as int: the caller's enum type must be int-sized. */
bool ms_enum(struct mstream *stream, int *value);

/*
 * A counted array of *countp elements of elsize bytes at *arrayp, each moved by
 * elproc. Decoding takes the count from the message and rejects more than maxcount;
 * with *arrayp NULL it allocates the array (freed again by MS_FREE).
 */
bool ms_array(struct mstream *stream, char **arrayp, unsigned *countp, unsigned maxcount,
	      unsigned elsize, ms_proc elproc);

#endif /* MARSHAL_MARSHAL_H */
