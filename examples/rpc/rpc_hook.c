/*
 * rpc_hook.c — puts the specialized marshaling under the real Sun RPC client and
 * server. In the specialized stacks the rpcgen stubs' references to the XDR routines
 * of RPCBENCH's arguments and results (xdr_pair, xdr_int, xdr_intarray, xdr_record)
 * are renamed at link time to the rpc_hook_* routines below (the stubs and the
 * library stay unmodified; see CMakeLists.txt). The client library calls them with
 * its encoding stream for the arguments and its decoding stream for the reply, the
 * server library with its decoding stream for the arguments and its encoding stream
 * for the results — UDP's memory streams and TCP's record streams alike.
 *
 * A hook asks the library's stream for the value's wire bytes in one piece
 * (XDR_INLINE, the library's own fast-path interface, which both stream kinds
 * implement) and runs the specialized entry point (rpc_spec.c) on those bytes; the
 * stream has then moved past them, as if the generic routine had run. When the
 * stream cannot lend the bytes (a full record buffer, a value over its bound) the
 * generic routine runs on the stream instead. XDR_FREE, with which the library frees
 * decoded arguments and results, needs no bytes: it goes to the specialized freers
 * of the types that allocate (the pair and the int have nothing to free). The
 * entry points called are those of the variant named by RPC_HOOK_PREFIX (respec_ in
 * the respec stack).
 */
#include "rpc_spec.h"

#include <string.h>

#define RPC_HOOK_PASTE(prefix, name) prefix##name
#define RPC_HOOK_ENTRY(prefix, name) RPC_HOOK_PASTE(prefix, name)
#define ENTRY(name) RPC_HOOK_ENTRY(RPC_HOOK_PREFIX, name)

/* Expands RPC_HOOK_PREFIX before RPC_SPEC_DECLARE pastes it to the names. */
#define RPC_DECLARE_ENTRY_POINTS(prefix) RPC_SPEC_DECLARE(prefix)
RPC_DECLARE_ENTRY_POINTS(RPC_HOOK_PREFIX)

bool_t rpc_hook_xdr_pair(XDR *xdrs, pair *p);
bool_t rpc_hook_xdr_int(XDR *xdrs, int *v);
bool_t rpc_hook_xdr_intarray(XDR *xdrs, intarray *a);
bool_t rpc_hook_xdr_record(XDR *xdrs, record *r);

/* The stream's next size bytes, which it then moves past; NULL (and the stream
 * untouched) when it does not hold them in one piece. */
static char *lend_wire(XDR *xdrs, u_int size)
{
	return (char *)XDR_INLINE(xdrs, size);
}

bool_t rpc_hook_xdr_pair(XDR *xdrs, pair *p)
{
	char *wire;
	if (xdrs->x_op == XDR_ENCODE && (wire = lend_wire(xdrs, PAIR_WIRE_SIZE)) != NULL)
		return ENTRY(encode_pair)(wire, p) >= 0;
	if (xdrs->x_op == XDR_DECODE && (wire = lend_wire(xdrs, PAIR_WIRE_SIZE)) != NULL)
		return ENTRY(decode_pair)(wire, PAIR_WIRE_SIZE, p) >= 0;
	return xdr_pair(xdrs, p);
}

bool_t rpc_hook_xdr_int(XDR *xdrs, int *v)
{
	char *wire;
	if (xdrs->x_op == XDR_ENCODE && (wire = lend_wire(xdrs, INT_WIRE_SIZE)) != NULL)
		return ENTRY(encode_int)(wire, v) >= 0;
	if (xdrs->x_op == XDR_DECODE && (wire = lend_wire(xdrs, INT_WIRE_SIZE)) != NULL)
		return ENTRY(decode_int)(wire, INT_WIRE_SIZE, v) >= 0;
	return xdr_int(xdrs, v);
}

#define ENCODE_SIZED_CASE(unused, size) \
	case size:                      \
		return ENTRY(encode_intarray_##size)(wire, a);

/* The encoder specialized for the array's size, or the one for any count. */
static int encode_intarray_at(char *wire, const intarray *a)
{
	switch (a->intarray_len) {
		RPC_ARRAY_SIZES(ENCODE_SIZED_CASE, )
	default:
		return ENTRY(encode_intarray)(wire, INTARRAY_WIRE_SIZE(a->intarray_len), a);
	}
}

/*
 * Decoding an array: the count comes first and says how many bytes follow. The hook
 * borrows the count's unit, reads the count with the library's in-buffer macro
 * (IXDR_GET_U_INT32) only to borrow the elements' bytes right behind it, and gives
 * the decoder the whole array's wire bytes; the decoder reads and checks the count
 * again. A record stream may hold the elements in pieces (the message spans reads
 * or fragments): then they are copied out next to the count.
 */
static bool_t decode_intarray_from(XDR *xdrs, intarray *a)
{
	char *count_unit = lend_wire(xdrs, BYTES_PER_XDR_UNIT);
	if (count_unit == NULL)
		return xdr_intarray(xdrs, a);
	int32_t *peek = (int32_t *)count_unit;
	u_int count = IXDR_GET_U_INT32(peek);
	if (count > INTARRAY_MAX) /* rejected by the decoder on the count alone */
		return ENTRY(decode_intarray)(count_unit, BYTES_PER_XDR_UNIT, a) >= 0;
	u_int size = INTARRAY_WIRE_SIZE(count);
	/* Lent bytes are consecutive in the stream's buffer. */
	if (lend_wire(xdrs, size - BYTES_PER_XDR_UNIT) != NULL)
		return ENTRY(decode_intarray)(count_unit, size, a) >= 0;
	char wire[INTARRAY_WIRE_SIZE(INTARRAY_MAX)];
	memcpy(wire, count_unit, BYTES_PER_XDR_UNIT);
	if (!XDR_GETBYTES(xdrs, wire + BYTES_PER_XDR_UNIT, size - BYTES_PER_XDR_UNIT))
		size = BYTES_PER_XDR_UNIT; /* too short: fail as the generic routine would */
	return ENTRY(decode_intarray)(wire, size, a) >= 0;
}

bool_t rpc_hook_xdr_intarray(XDR *xdrs, intarray *a)
{
	char *wire;
	if (xdrs->x_op == XDR_ENCODE && a->intarray_len <= INTARRAY_MAX &&
	    (wire = lend_wire(xdrs, INTARRAY_WIRE_SIZE(a->intarray_len))) != NULL)
		return encode_intarray_at(wire, a) >= 0;
	if (xdrs->x_op == XDR_DECODE)
		return decode_intarray_from(xdrs, a);
	if (xdrs->x_op == XDR_FREE)
		return ENTRY(free_intarray)(a);
	return xdr_intarray(xdrs, a);
}

/*
 * A record's wire size is only known once it is encoded: it is encoded into a
 * buffer of the largest size and handed to the stream in one XDR_PUTBYTES. Its
 * decoding stays generic: its size is only known once decoded, and a record stream
 * cannot give back bytes lent in excess (XDR_SETPOS does not work on it).
 */
bool_t rpc_hook_xdr_record(XDR *xdrs, record *r)
{
	if (xdrs->x_op == XDR_ENCODE) {
		char wire[RECORD_WIRE_MAX];
		int size = ENTRY(encode_record)(wire, sizeof wire, r);
		if (size >= 0)
			return XDR_PUTBYTES(xdrs, wire, (u_int)size);
	}
	if (xdrs->x_op == XDR_FREE)
		return ENTRY(free_record)(r);
	return xdr_record(xdrs, r);
}
