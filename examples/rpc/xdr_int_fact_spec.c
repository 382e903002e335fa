/*
 * xdr_int_fact_spec.c — one function and its facts, as `respec profile report`
 * finds them on rpc-calls (examples/profile/README.md): xdr_int with its stream's
 * operations table known to be the memory stream's, a file-static variable of
 * xdr_mem.c named with respec_variable(), whose contents nothing writes (the
 * run wrote no struct xdr_ops: respec_static_variable), and a variant per value
 * of the stream's operation, a quasi-invariant of each stream. bench/run profile
 * measures these variants (generic, respec) against the report's predicted
 * speedup, and checks that the report's draft spec states the same facts.
 */
#include <rpc/types.h>
#include <rpc/xdr.h>
#include <respec/respec.h>

/* The variant's own memory stream: each variant holds its own xdrmem_ops. */
RESPEC_SPECIALIZE void memory_stream(XDR *xdrs, char *buffer, unsigned size, enum xdr_op op)
{
	xdrmem_create(xdrs, buffer, size, op);
}

#define XDR_INT_FOR(name, op)                                                          \
	RESPEC_SPECIALIZE bool_t name(XDR *xdrs, int *ip)                              \
	{                                                                              \
		respec_assume(xdrs->x_ops == respec_variable("xdr_mem.c:xdrmem_ops")); \
		respec_static_variable("xdr_mem.c:xdrmem_ops");                        \
		respec_assume(xdrs->x_op == op);                                       \
		return xdr_int(xdrs, ip);                                              \
	}

XDR_INT_FOR(xdr_int_encode, XDR_ENCODE)
XDR_INT_FOR(xdr_int_decode, XDR_DECODE)
XDR_INT_FOR(xdr_int_free, XDR_FREE)
