/*
 * rpc_call_spec.c — the run-time spec of the optimistic client (rpc_optimistic.h):
 * one whole Sun RPC client call — the call header, the credentials and the
 * arguments marshaled, the message sent, the wait for the reply, the reply
 * received, decoded and checked, the results decoded — specialized for one
 * client handle as it is now.
 *
 * librespec-jit specializes it with the plan as static memory and the handle
 * as a static address; everything else is dynamic. What the specialization
 * takes as fixed is declared below, term by term: the transport's operations
 * table, the handle's authenticator and private data, the fields of that
 * private data that only the handle's creation and clnt_control write (the
 * socket, the server's address, the timeouts, the stream's operations and
 * buffer, the marshaled call header), the authenticator's operations (and all
 * of AUTH_NONE's singleton), and three tables of the library: the null
 * verifier, the reply's discriminants and the descriptor table size. These
 * are the predicate's terms: rpc_optimistic.c guards every write of the
 * library's interface to them and re-specializes after it. Everything the
 * call itself changes — the transaction id, the stream's position, the error
 * status — stays dynamic: the specialized code tracks only what it stores
 * there itself (pe/HostMemory.cpp).
 *
 * One more fact, about the outgoing stream: the library leaves it with its
 * position plus the room left equal to the buffer's end (xdr_mem.c keeps that
 * sum on every operation). Checked on entry, the position is then set to the
 * buffer's start with the room that keeps the sum, which changes nothing the
 * call can observe (its first step, XDR_SETPOS, reads only the sum), and the
 * specializer knows the stream's position from there on: every overflow check
 * of the arguments' marshaling is decided. A TCP handle's record stream is
 * simpler: between calls its output is empty, which is checked and stored
 * back unchanged. A stream found otherwise takes the generic call.
 *
 * The procedures in the plan are compared with the call's: a planned one runs
 * its specialized marshaling, any other the library's generic call. The same
 * for clnt_freeres, which frees what a call decoded (rpc_freeres).
 */
#include "rpc_optimistic.h"
#include "rpc_private.h"

#include <respec/respec.h>

#include <stddef.h>

static void declare_handle(const struct rpc_call_plan *plan, CLIENT *client)
{
	respec_static_memory(plan->transport, sizeof *plan->transport);
	respec_static_memory(&client->cl_auth, sizeof client->cl_auth);
	respec_static_memory(&client->cl_private, sizeof client->cl_private);
	AUTH *auth = client->cl_auth;
	respec_static_memory(&auth->ah_ops, sizeof auth->ah_ops);
	respec_static_memory(auth->ah_ops, sizeof *auth->ah_ops);
	if (plan->authnone) {
		respec_static_variable("auth_none.c:authnone_private");
		respec_static_memory(auth, sizeof(struct authnone_private));
	}
	respec_static_variable("_null_auth");
	respec_static_variable("rpc_prot.c:reply_dscrm");
	respec_static_variable("rpc_dtablesize.c:_rpc_dtablesize.size");
}

static enum clnt_stat call_planned(const struct rpc_call_plan *plan, CLIENT *client,
				   unsigned long proc, xdrproc_t xargs, caddr_t argsp,
				   xdrproc_t xres, caddr_t resp, const struct timeval *timeout)
{
	for (unsigned i = 0; i < plan->ncalls; i++) {
		const struct rpc_known_call *known = &plan->calls[i];
		if (proc == known->proc && xargs == known->xargs && xres == known->xres)
			return plan->transport->cl_call(client, known->proc, known->xargs, argsp,
							known->xres, resp, *timeout);
	}
	return plan->generic(plan, client, proc, xargs, argsp, xres, resp, timeout);
}

RESPEC_SPECIALIZE enum clnt_stat rpc_call_udp(const struct rpc_call_plan *plan, CLIENT *client,
					      unsigned long proc, xdrproc_t xargs, caddr_t argsp,
					      xdrproc_t xres, caddr_t resp,
					      const struct timeval *timeout)
{
	declare_handle(plan, client);
	struct cu_data *cu = (struct cu_data *)client->cl_private;
	respec_static_memory(cu, offsetof(struct cu_data, cu_error));
	respec_static_memory(&cu->cu_outxdrs.x_ops, sizeof cu->cu_outxdrs.x_ops);
	respec_static_memory(&cu->cu_outxdrs.x_base, sizeof cu->cu_outxdrs.x_base);
	respec_static_memory(&cu->cu_xdrpos,
			     offsetof(struct cu_data, cu_inbuf) - offsetof(struct cu_data, cu_xdrpos));
	respec_static_memory(cu->cu_outxdrs.x_ops, sizeof *cu->cu_outxdrs.x_ops);

	XDR *out = &cu->cu_outxdrs;
	if (out->x_private + out->x_handy != cu->cu_outbuf + cu->cu_sendsz)
		return plan->generic(plan, client, proc, xargs, argsp, xres, resp, timeout);
	out->x_private = cu->cu_outbuf;
	out->x_handy = cu->cu_sendsz;
	return call_planned(plan, client, proc, xargs, argsp, xres, resp, timeout);
}

RESPEC_SPECIALIZE enum clnt_stat rpc_call_tcp(const struct rpc_call_plan *plan, CLIENT *client,
					      unsigned long proc, xdrproc_t xargs, caddr_t argsp,
					      xdrproc_t xres, caddr_t resp,
					      const struct timeval *timeout)
{
	declare_handle(plan, client);
	struct ct_data *ct = (struct ct_data *)client->cl_private;
	respec_static_memory(&ct->ct_sock, sizeof ct->ct_sock);
	respec_static_memory(&ct->ct_waitset, sizeof ct->ct_waitset);
	/* The marshaled call header after its transaction id, which each call changes. */
	respec_static_memory(&ct->ct_mcall[4], RPC_MCALL_MSG_SIZE - 4 + sizeof ct->ct_mpos);
	respec_static_memory(&ct->ct_xdrs.x_ops, sizeof ct->ct_xdrs.x_ops);
	respec_static_memory(&ct->ct_xdrs.x_private, sizeof ct->ct_xdrs.x_private);
	respec_static_memory(ct->ct_xdrs.x_ops, sizeof *ct->ct_xdrs.x_ops);
	struct rpc_record_stream *record = (struct rpc_record_stream *)ct->ct_xdrs.x_private;
	respec_static_memory(record, offsetof(struct rpc_record_stream, out_finger));
	respec_static_memory(&record->out_boundry, sizeof record->out_boundry);
	respec_static_memory(&record->readit, offsetof(struct rpc_record_stream, in_finger) -
						      offsetof(struct rpc_record_stream, readit));
	respec_static_memory(&record->sendsize, sizeof record->sendsize + sizeof record->recvsize);

	char *first = record->out_base + BYTES_PER_XDR_UNIT;
	if (record->out_finger != first || record->frag_header != (uint32_t *)record->out_base)
		return plan->generic(plan, client, proc, xargs, argsp, xres, resp, timeout);
	record->out_finger = first;
	record->frag_header = (uint32_t *)record->out_base;
	return call_planned(plan, client, proc, xargs, argsp, xres, resp, timeout);
}

RESPEC_SPECIALIZE bool_t rpc_freeres(const struct rpc_call_plan *plan, CLIENT *client,
				     xdrproc_t xres, caddr_t resp)
{
	respec_static_memory(plan->transport, sizeof *plan->transport);
	respec_static_memory(&client->cl_private, sizeof client->cl_private);
	for (unsigned i = 0; i < plan->ncalls; i++)
		if (xres == plan->calls[i].xres)
			return plan->transport->cl_freeres(client, plan->calls[i].xres, resp);
	return plan->transport->cl_freeres(client, xres, resp);
}
