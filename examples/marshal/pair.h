/*
 * pair.h — an application record and its marshaling procedure, in the form an
 * interface compiler (rpcgen-style) emits for a small struct: one procedure per
 * type, calling the library's primitives field by field.
 */
#ifndef MARSHAL_PAIR_H
#define MARSHAL_PAIR_H

#include "marshal.h"

enum pair_kind { PAIR_PLAIN, PAIR_COUNTER, PAIR_TIMESTAMP, PAIR_KIND_COUNT };

struct pair {
	int key;
	unsigned value;
	long stamp;
	bool valid;
	enum pair_kind kind;
};

/* Bytes one pair occupies on the wire. */
#define PAIR_WIRE_SIZE (5 * MS_UNIT)

bool ms_pair(struct mstream *stream, struct pair *pair);

#endif /* MARSHAL_PAIR_H */
