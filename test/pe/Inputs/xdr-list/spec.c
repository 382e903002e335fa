/* Encodes and decodes an intlist through a memory stream of the real Sun RPC
 * library; the stream's operation and ops table are known, the list is not. */
#include "intlist.h"

#include <respec/respec.h>

int encode_list(char *buf, unsigned len, intlist *l);
int decode_list(const char *buf, unsigned len, intlist *l);

static int run(XDR *stream, const char *buf, unsigned len, enum xdr_op op, intlist *l)
{
	xdrmem_create(stream, (char *)buf, len, op);
	respec_static_memory(stream->x_ops, sizeof *stream->x_ops);
	return xdr_intlist(stream, l) ? (int)XDR_GETPOS(stream) : -1;
}

RESPEC_SPECIALIZE int encode_list(char *buf, unsigned len, intlist *l)
{
	XDR stream;
	return run(&stream, buf, len, XDR_ENCODE, l);
}

RESPEC_SPECIALIZE int decode_list(const char *buf, unsigned len, intlist *l)
{
	XDR stream;
	return run(&stream, buf, len, XDR_DECODE, l);
}
