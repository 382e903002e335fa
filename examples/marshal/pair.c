/*
 * pair.c — marshaling procedure for struct pair (see pair.h).
 *
 * Besides moving the fields it validates the kind, because a kind outside the enum
 * would otherwise reach application code from an untrusted message.
 */
#include "pair.h"

bool ms_pair(struct mstream *stream, struct pair *pair)
{
	int kind = (int)pair->kind;
	if (!ms_int(stream, &pair->key))
		return false;
	if (!ms_u_int(stream, &pair->value))
		return false;
	if (!ms_long(stream, &pair->stamp))
		return false;
	if (!ms_bool(stream, &pair->valid))
		return false;
	if (!ms_enum(stream, &kind))
		return false;
	if (kind < 0 || kind >= PAIR_KIND_COUNT)
		return false;
	/* Encoding must not write: the caller's record may be read-only. */
	if (stream->op == MS_DECODE)
		pair->kind = (enum pair_kind)kind;
	return true;
}
