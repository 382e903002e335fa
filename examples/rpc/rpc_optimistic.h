/*
 * rpc_optimistic.h — optimistic specialization of the Sun RPC client call
 * (Synthetix's method, on the real library): a client handle's calls run code
 * specialized at run time for what the handle is now — its transport and
 * socket, server address, timeouts, stream, authenticator, and the XDR
 * routines of each procedure called on it — and guards put the generic code
 * back whenever any of that changes.
 *
 * Attaching a handle replaces its operations table (cl_ops) with the
 * handle's own, whose entries are:
 *   call     through a librespec slot: the specialized call (rpc_call_spec.c,
 *            specialized by librespec-jit), or the library's own call;
 *   freeres  the same for clnt_freeres, which frees decoded results;
 *   control  a guard around the library's clnt_control: a request that may
 *            change the handle (CLSET_TIMEOUT, CLSET_RETRY_TIMEOUT, ...) breaks
 *            the specialization, and it is made again for the new state;
 *   destroy  detaches (the specialized code is freed), then the library's;
 *   the rest the library's own.
 * The program's calls (clnt_call, the rpcgen stubs) need no change; nor does
 * the library. A write to the handle that does not go through the library's
 * interface is the program's to guard: rpc_optimistic_set_auth for cl_auth.
 *
 * The first call of each procedure (procedure number and XDR routines) runs
 * the library's call and adds the procedure to the handle's plan, under a
 * guard: from the next call on, the specialized code serves it.
 *
 * RPC_OPTIMISTIC_MEMGUARD=report|enforce in the environment watches, with
 * MemGuard (respec/memguard.h), the handle's terms that the library's
 * interface and the program write (a UDP handle's timeouts; a TCP handle's
 * timeout flag and authenticator): every write that bypasses the guards is
 * reported, or in enforce mode also turned into a guarded store (right after
 * the write: hardware watchpoints, rpc_optimistic.c says why).
 */
#ifndef RPC_OPTIMISTIC_H
#define RPC_OPTIMISTIC_H

#include <respec/runtime.h>
#include <rpc/rpc.h>

#include <stdbool.h>

/* The procedures a handle's specialized code serves. */
#define RPC_PLAN_CALLS 8

struct rpc_known_call {
	unsigned long proc;
	xdrproc_t xargs;
	xdrproc_t xres;
};

struct rpc_call_plan;
typedef enum clnt_stat (*rpc_call_fn)(const struct rpc_call_plan *plan, CLIENT *client,
				      unsigned long proc, xdrproc_t xargs, caddr_t argsp,
				      xdrproc_t xres, caddr_t resp, const struct timeval *timeout);
typedef bool_t (*rpc_freeres_fn)(const struct rpc_call_plan *plan, CLIENT *client,
				 xdrproc_t xres, caddr_t resp);

/* What a handle's specialized code is specialized for, besides the handle's
 * own memory: static memory of the specialization (rpc_call_spec.c). */
struct rpc_call_plan {
	const struct clnt_ops *transport; /* the library's ops of the handle */
	rpc_call_fn generic;              /* the library's call, for procedures not planned */
	int authnone;                     /* cl_auth is AUTH_NONE's authenticator */
	unsigned ncalls;
	struct rpc_known_call calls[RPC_PLAN_CALLS];
};

enum rpc_optimistic_transport { RPC_OPTIMISTIC_UDP, RPC_OPTIMISTIC_TCP };

/* Attaches `client`, a handle of the library's UDP or TCP client; false (with
 * a message on stderr, the handle left as it was) when it cannot be: the
 * specializer is unavailable, or the handle is not laid out as rpc_private.h
 * says. */
bool rpc_optimistic_attach(CLIENT *client, enum rpc_optimistic_transport transport);

/* The library's create functions, with the new handle attached (or left
 * generic, with the message, when it cannot be). */
CLIENT *rpc_optimistic_clntudp_create(struct sockaddr_in *raddr, unsigned long program,
				      unsigned long version, struct timeval wait, int *sockp);
CLIENT *rpc_optimistic_clnttcp_create(struct sockaddr_in *raddr, unsigned long program,
				      unsigned long version, int *sockp, unsigned sendsz,
				      unsigned recvsz);

/* client->cl_auth = auth, guarded. */
void rpc_optimistic_set_auth(CLIENT *client, AUTH *auth);

/* The handle's feedback policy (respec/runtime.h): by default librespec's,
 * which keeps a handle whose state changes faster than re-specializing pays
 * generic for a while. */
bool rpc_optimistic_set_policy(CLIENT *client, respec_policy_fn policy, void *arg);

/* What an attached handle's specialization has done. */
struct rpc_optimistic_stats {
	unsigned specializations;   /* code made for a new state */
	unsigned planned_calls;     /* procedures in the plan */
	double last_specialize_ms;  /* the last one, including compilation */
	double total_specialize_ms;
};
bool rpc_optimistic_get_stats(CLIENT *client, struct rpc_optimistic_stats *out);

/* The handle's call now runs specialized code (for the diagnostic tests). */
bool rpc_optimistic_specialized(CLIENT *client);

#endif /* RPC_OPTIMISTIC_H */
