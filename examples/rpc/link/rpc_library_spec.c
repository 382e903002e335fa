/*
 * rpc_library_spec.c — the Sun RPC library's spec for its link-time rules
 * (librpc.rules): what respec link specializes when it compiles the library for
 * a client that makes UDP handles only.
 *
 * The client creates its handles with clntudp_create; the library's version
 * asks the port mapper with pmap_getport(..., IPPROTO_UDP) when no port is
 * given, and pmap_getport makes a TCP handle when its protocol argument is
 * TCP. Specialized here, with the protocol a constant, that branch is gone,
 * and with it the last path from the client's code to the TCP transport, its
 * record streams and its operations table: the rest of the compilation for
 * the client deletes them, and the transport's and the authenticator's
 * dispatch then has one target left (link/SingleTargetCalls.h).
 *
 * Two tables the library never writes are declared static, as the build-time
 * spec of the case study does for the memory stream's (../rpc_spec.c): the
 * memory stream's operations and AUTH_NONE's. The call header the
 * constructor marshals, and AUTH_NONE's credentials, then go through known
 * functions, and the stream's operation stays known across them.
 */
#include <respec/respec.h>
#include <rpc/rpc.h>

RESPEC_SPECIALIZE CLIENT *clntudp_create_for_client(struct sockaddr_in *raddr,
						    unsigned long program,
						    unsigned long version,
						    struct timeval wait_resend, int *sockp)
{
	respec_static_variable("xdr_mem.c:xdrmem_ops");
	respec_static_variable("auth_none.c:ops");
	return clntudp_create(raddr, program, version, wait_resend, sockp);
}
