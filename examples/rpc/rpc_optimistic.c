/*
 * rpc_optimistic.c — the optimistic Sun RPC client (rpc_optimistic.h).
 *
 * Per attached handle: a plan (what the specialized code is for, besides the
 * handle's memory), a slot whose generic implementation is the library's call
 * and whose specialized one librespec-jit makes from rpc_call_spec.c, and a
 * predicate over the handle's terms with that slot depending on it.
 *
 *   call     optimistic_call: the slot. Its generic implementation, and the
 *            specialized code for a procedure not in the plan, is
 *            generic_call, which also notes the procedure; back outside the
 *            slot, the dispatcher adds noted procedures to the plan under a
 *            guard (a guard cannot be taken inside a call of the slot).
 *   guards   respec_guard_begin (the slot back to generic: no specialized call
 *            still runs), the write, respec_guard_end, which re-specializes
 *            for the new state (respecialize(), through the predicate's
 *            policy). The plan itself is such a term.
 *   destroy  the predicate invalidated (the slot generic for good), the
 *            handle's ops given back to the library, everything freed, and the
 *            library's destroy.
 *
 * One specializer serves the process (created on the first attach). It
 * specializes the code the program links: the library compiled by `respec
 * embed --replaces-sources` beside its bitcode (CMakeLists.txt), whose address
 * table binds the specialized code to this copy of the library.
 */
#include "rpc_optimistic.h"
#include "rpc_private.h"

#include <respec/jit.h>
#include <respec/memguard.h>
#include <respec/runtime.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

RESPEC_DECLARE_EMBEDDED_CODE(rpc_optimistic);

int _rpc_dtablesize(void);

/* Procedures noted by generic_call, waiting to be planned. */
#define RPC_NOTED_CALLS 4

struct optimistic_client {
	struct clnt_ops ops; /* what client->cl_ops points to: first, for the way back */
	CLIENT *client;
	enum rpc_optimistic_transport transport;
	struct rpc_call_plan plan;
	respec_slot slot;         /* the call */
	respec_slot freeres_slot; /* clnt_freeres, of the procedures' results */
	respec_predicate *predicate;
	respec_spid spid;
	bool established;
	/* Specialized code made for this handle, freed when it is destroyed. */
	void **code;
	unsigned ncode;
	pthread_mutex_t lock;       /* code, stats; held while specializing */
	pthread_mutex_t notes_lock; /* noted, and the plan's procedures (never held long) */
	_Atomic bool missed;  /* noted holds calls not yet planned */
	unsigned nnoted;
	struct rpc_known_call noted[RPC_NOTED_CALLS];
	respec_memguard *watches[2];
	struct rpc_optimistic_stats stats;
};

static pthread_once_t specializer_once = PTHREAD_ONCE_INIT;
static respec_jit *specializer;

static void create_specializer(void)
{
	specializer = RESPEC_JIT_CREATE_WITH_CODE(rpc_optimistic);
	/* A handle's call is specialized once and runs for as long as the
	 * handle's state holds: worth the full pipeline. */
	if (specializer)
		respec_jit_set_cleanup(specializer, RESPEC_JIT_CLEANUP_FULL);
	/* The library caches the descriptor table's size on first use: a term of
	 * the specialization, written only then. */
	_rpc_dtablesize();
}

static struct optimistic_client *attached(CLIENT *client)
{
	return (struct optimistic_client *)client->cl_ops;
}

static bool known(const struct rpc_known_call *calls, unsigned n, unsigned long proc,
		  xdrproc_t xargs, xdrproc_t xres)
{
	for (unsigned i = 0; i < n; i++)
		if (calls[i].proc == proc && calls[i].xargs == xargs && calls[i].xres == xres)
			return true;
	return false;
}

/* The slot's generic implementation: the library's call, noting a procedure
 * the plan does not have yet. */
static enum clnt_stat generic_call(const struct rpc_call_plan *plan, CLIENT *client,
				   unsigned long proc, xdrproc_t xargs, caddr_t argsp,
				   xdrproc_t xres, caddr_t resp, const struct timeval *timeout)
{
	struct optimistic_client *o = attached(client);
	/* plan_noted_calls grows the plan while generic calls run. */
	pthread_mutex_lock(&o->notes_lock);
	if (plan->ncalls < RPC_PLAN_CALLS && !known(plan->calls, plan->ncalls, proc, xargs, xres) &&
	    o->nnoted < RPC_NOTED_CALLS && !known(o->noted, o->nnoted, proc, xargs, xres)) {
		o->noted[o->nnoted++] = (struct rpc_known_call){proc, xargs, xres};
		atomic_store_explicit(&o->missed, true, memory_order_relaxed);
	}
	pthread_mutex_unlock(&o->notes_lock);
	return plan->transport->cl_call(client, proc, xargs, argsp, xres, resp, *timeout);
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static bool authnone_as_mirrored(AUTH *auth)
{
	const struct authnone_private *singleton = (const struct authnone_private *)auth;
	return auth == authnone_create() && singleton->mcnt > 0 &&
	       singleton->mcnt <= RPC_AUTHNONE_MARSHAL_SIZE;
}

/* Code of `slot` (the call's or freeres') for the handle as it is now, or NULL
 * (with a message) to stay generic. Called with o->lock held, and with the
 * predicate not holding. */
static respec_fn specialize(struct optimistic_client *o, const respec_slot *slot)
{
	o->plan.authnone = authnone_as_mirrored(o->client->cl_auth);
	bool call = slot == &o->slot;
	struct respec_arg args[] = {
		RESPEC_STATIC_MEMORY(&o->plan, sizeof o->plan), RESPEC_STATIC_VALUE(o->client),
		RESPEC_DYNAMIC, RESPEC_DYNAMIC, RESPEC_DYNAMIC, RESPEC_DYNAMIC, RESPEC_DYNAMIC,
		RESPEC_DYNAMIC};
	const char *spec = call ? (o->transport == RPC_OPTIMISTIC_UDP ? "rpc_call_udp" : "rpc_call_tcp")
				: "rpc_freeres";
	unsigned nargs = call ? sizeof args / sizeof *args : 4;
	double start = now_ms();
	void *code = respec_jit_specialize(specializer, spec, args, nargs);
	if (!code) {
		fprintf(stderr, "rpc optimistic: %s stays generic: %s\n", spec,
			respec_jit_error(specializer));
		return NULL;
	}
	double ms = now_ms() - start;
	o->stats.last_specialize_ms = ms;
	o->stats.total_specialize_ms += ms;
	o->stats.specializations++;
	bool seen = false;
	for (unsigned i = 0; i < o->ncode; i++)
		seen |= o->code[i] == code;
	void **grown = seen ? o->code : realloc(o->code, (o->ncode + 1) * sizeof *grown);
	if (!seen && grown) {
		grown[o->ncode++] = code;
		o->code = grown;
	}
	return RESPEC_FN(code);
}

static respec_fn respecialize(respec_predicate *pred, respec_slot *slot, void *arg)
{
	(void)pred;
	struct optimistic_client *o = arg;
	pthread_mutex_lock(&o->lock);
	respec_fn code = specialize(o, slot);
	pthread_mutex_unlock(&o->lock);
	return code;
}

static void guard_failed(const char *what, int err)
{
	fprintf(stderr, "rpc optimistic: %s: guard failed (%s): %s\n", what, strerror(err),
		respec_last_error());
	abort();
}

/* Moves the noted procedures into the plan; the first time, establishes the
 * predicate with code for them. Outside any call of the slot. */
static void plan_noted_calls(struct optimistic_client *o)
{
	pthread_mutex_lock(&o->lock);
	bool established = o->established;
	pthread_mutex_unlock(&o->lock);
	/* The guard first: respecialize() takes o->lock inside it. */
	int err = established ? respec_guard_begin(o->predicate) : 0;
	if (err)
		guard_failed("planning a procedure", err);
	pthread_mutex_lock(&o->notes_lock);
	for (unsigned i = 0; i < o->nnoted && o->plan.ncalls < RPC_PLAN_CALLS; i++)
		if (!known(o->plan.calls, o->plan.ncalls, o->noted[i].proc, o->noted[i].xargs,
			   o->noted[i].xres))
			o->plan.calls[o->plan.ncalls++] = o->noted[i];
	o->nnoted = 0;
	atomic_store_explicit(&o->missed, false, memory_order_relaxed);
	pthread_mutex_unlock(&o->notes_lock);
	pthread_mutex_lock(&o->lock);
	o->stats.planned_calls = o->plan.ncalls;
	respec_fn call = established ? NULL : specialize(o, &o->slot);
	respec_fn freeres = established || !call ? NULL : specialize(o, &o->freeres_slot);
	pthread_mutex_unlock(&o->lock);
	if (established) {
		respec_guard_end(o->predicate);
	} else if (freeres) {
		if (respec_predicate_add_slot(o->predicate, &o->slot, call) != 0 ||
		    respec_predicate_add_slot(o->predicate, &o->freeres_slot, freeres) != 0 ||
		    respec_predicate_establish(o->predicate) != 0) {
			fprintf(stderr, "rpc optimistic: cannot establish: %s\n", respec_last_error());
			return;
		}
		pthread_mutex_lock(&o->lock);
		o->established = true;
		pthread_mutex_unlock(&o->lock);
	}
}

static enum clnt_stat optimistic_call(CLIENT *client, unsigned long proc, xdrproc_t xargs,
				      caddr_t argsp, xdrproc_t xres, caddr_t resp,
				      struct timeval timeout)
{
	struct optimistic_client *o = attached(client);
	enum clnt_stat status = RESPEC_CALL(&o->slot, rpc_call_fn, &o->plan, client, proc, xargs,
					    argsp, xres, resp, &timeout);
	if (RESPEC_UNLIKELY(atomic_load_explicit(&o->missed, memory_order_relaxed)))
		plan_noted_calls(o);
	return status;
}

/* The slot's generic implementation of clnt_freeres. */
static bool_t generic_freeres(const struct rpc_call_plan *plan, CLIENT *client, xdrproc_t xres,
			      caddr_t resp)
{
	return plan->transport->cl_freeres(client, xres, resp);
}

static bool_t optimistic_freeres(CLIENT *client, xdrproc_t xres, caddr_t resp)
{
	struct optimistic_client *o = attached(client);
	return RESPEC_CALL(&o->freeres_slot, rpc_freeres_fn, &o->plan, client, xres, resp);
}

/* Requests that only read the handle need no guard. */
static bool reads_only(int request)
{
	switch (request) {
	case CLGET_TIMEOUT:
	case CLGET_SERVER_ADDR:
	case CLGET_RETRY_TIMEOUT:
		return true;
	default:
		return false;
	}
}

static bool_t optimistic_control(CLIENT *client, int request, char *info)
{
	struct optimistic_client *o = attached(client);
	if (reads_only(request))
		return o->plan.transport->cl_control(client, request, info);
	int err = respec_guard_begin(o->predicate);
	if (err)
		guard_failed("clnt_control", err);
	bool_t done = o->plan.transport->cl_control(client, request, info);
	respec_guard_end(o->predicate);
	return done;
}

void rpc_optimistic_set_auth(CLIENT *client, AUTH *auth)
{
	RESPEC_GUARDED_STORE(attached(client)->spid, client->cl_auth, auth);
}

static void stop_watching(struct optimistic_client *o)
{
	respec_memguard_flush(); /* reports of this handle's terms written out first */
	for (size_t i = 0; i < sizeof o->watches / sizeof *o->watches; i++)
		if (o->watches[i])
			respec_memguard_unwatch(o->watches[i]);
}

static void optimistic_destroy(CLIENT *client)
{
	struct optimistic_client *o = attached(client);
	respec_predicate_invalidate(o->predicate);
	stop_watching(o);
	respec_predicate_destroy(o->predicate);
	respec_slot_destroy(&o->slot);
	respec_slot_destroy(&o->freeres_slot);
	for (unsigned i = 0; i < o->ncode; i++)
		respec_jit_release(specializer, o->code[i]);
	client->cl_ops = (struct clnt_ops *)o->plan.transport;
	pthread_mutex_destroy(&o->lock);
	pthread_mutex_destroy(&o->notes_lock);
	free(o->code);
	free(o);
	CLNT_DESTROY(client);
}

/* The library's layout, as rpc_private.h mirrors it, seen in a live handle. */
static bool laid_out_as_mirrored(CLIENT *client, enum rpc_optimistic_transport transport)
{
	if (transport == RPC_OPTIMISTIC_UDP) {
		struct cu_data *cu = (struct cu_data *)client->cl_private;
		return cu->cu_outbuf == &cu->cu_inbuf[cu->cu_recvsz] &&
		       cu->cu_outxdrs.x_base == cu->cu_outbuf &&
		       cu->cu_outxdrs.x_private + cu->cu_outxdrs.x_handy ==
			       cu->cu_outbuf + cu->cu_sendsz;
	}
	struct ct_data *ct = (struct ct_data *)client->cl_private;
	struct rpc_record_stream *record = (struct rpc_record_stream *)ct->ct_xdrs.x_private;
	return record->tcp_handle == (char *)ct && record->in_size == record->recvsize &&
	       record->out_boundry == record->out_base + record->sendsize &&
	       record->in_base == record->out_base + record->sendsize &&
	       record->out_base >= record->the_buffer &&
	       record->out_base < record->the_buffer + BYTES_PER_XDR_UNIT;
}


/*
 * MemGuard over the handle's terms that the library's interface and the
 * program write (rpc_optimistic.h): the timeouts clnt_control sets, and the
 * authenticator. With hardware watchpoints, in both modes (enforce: right
 * after the write), never pages: a UDP handle's private data shares its page
 * with the receive buffer, which recvfrom(2) writes (a read-only page would
 * fail it with EFAULT), and the call itself writes next to the terms (a TCP
 * handle's ct_wait beside ct_waitset), which a page trap could only tell
 * apart by stepping every such write. x86 has 4 debug registers; a timeval
 * takes 2.
 */
static void watch_terms(struct optimistic_client *o)
{
	const char *mode = getenv("RPC_OPTIMISTIC_MEMGUARD");
	if (!mode || !*mode)
		return;
	unsigned flags = RESPEC_MEMGUARD_WATCHPOINT |
			 (strcmp(mode, "enforce") == 0 ? RESPEC_MEMGUARD_ENFORCE : 0);
	CLIENT *client = o->client;
	struct term {
		void *at;
		size_t size;
		const char *name;
	} terms[2];
	if (o->transport == RPC_OPTIMISTIC_UDP) {
		struct cu_data *cu = (struct cu_data *)client->cl_private;
		terms[0] = (struct term){&cu->cu_total, sizeof cu->cu_total, "struct cu_data::cu_total"};
		terms[1] = (struct term){&cu->cu_wait, sizeof cu->cu_wait, "struct cu_data::cu_wait"};
	} else {
		struct ct_data *ct = (struct ct_data *)client->cl_private;
		terms[0] = (struct term){&ct->ct_waitset, sizeof ct->ct_waitset,
					 "struct ct_data::ct_waitset"};
		terms[1] = (struct term){&client->cl_auth, sizeof client->cl_auth, "CLIENT::cl_auth"};
	}
	for (size_t i = 0; i < 2; i++) {
		o->watches[i] = respec_memguard_watch(
			terms[i].at, terms[i].size, o->predicate, terms[i].name,
			flags);
		if (!o->watches[i])
			fprintf(stderr, "rpc optimistic: MemGuard cannot watch %s: %s\n",
				terms[i].name, respec_last_error());
	}
}

bool rpc_optimistic_attach(CLIENT *client, enum rpc_optimistic_transport transport)
{
	pthread_once(&specializer_once, create_specializer);
	if (!specializer) {
		fprintf(stderr, "rpc optimistic: no specializer: the handle stays generic\n");
		return false;
	}
	if (!laid_out_as_mirrored(client, transport)) {
		fprintf(stderr, "rpc optimistic: the handle is not laid out as rpc_private.h "
				"says: it stays generic\n");
		return false;
	}
	struct optimistic_client *o = calloc(1, sizeof *o);
	if (!o)
		return false;
	o->ops = *client->cl_ops;
	o->ops.cl_call = optimistic_call;
	o->ops.cl_control = optimistic_control;
	o->ops.cl_destroy = optimistic_destroy;
	o->ops.cl_freeres = optimistic_freeres;
	o->client = client;
	o->transport = transport;
	o->plan.transport = client->cl_ops;
	o->plan.generic = generic_call;
	pthread_mutex_init(&o->lock, NULL);
	pthread_mutex_init(&o->notes_lock, NULL);
	o->predicate = respec_predicate_create(transport == RPC_OPTIMISTIC_UDP ? "rpc udp handle"
									       : "rpc tcp handle");
	if (!o->predicate ||
	    respec_slot_init(&o->slot, "clnt_call", RESPEC_PROTOCOL_DEFAULT,
			     RESPEC_FN(generic_call)) != 0 ||
	    respec_slot_init(&o->freeres_slot, "clnt_freeres", RESPEC_PROTOCOL_DEFAULT,
			     RESPEC_FN(generic_freeres)) != 0 ||
	    respec_predicate_watch(o->predicate, &o->spid) != 0 ||
	    respec_predicate_set_respecialize(o->predicate, respecialize, o) != 0) {
		fprintf(stderr, "rpc optimistic: %s\n", respec_last_error());
		if (o->predicate)
			respec_predicate_destroy(o->predicate);
		free(o);
		return false;
	}
	watch_terms(o);
	client->cl_ops = &o->ops;
	return true;
}

CLIENT *rpc_optimistic_clntudp_create(struct sockaddr_in *raddr, unsigned long program,
				      unsigned long version, struct timeval wait, int *sockp)
{
	CLIENT *client = clntudp_create(raddr, program, version, wait, sockp);
	if (client)
		rpc_optimistic_attach(client, RPC_OPTIMISTIC_UDP);
	return client;
}

CLIENT *rpc_optimistic_clnttcp_create(struct sockaddr_in *raddr, unsigned long program,
				      unsigned long version, int *sockp, unsigned sendsz,
				      unsigned recvsz)
{
	CLIENT *client = clnttcp_create(raddr, program, version, sockp, sendsz, recvsz);
	if (client)
		rpc_optimistic_attach(client, RPC_OPTIMISTIC_TCP);
	return client;
}

bool rpc_optimistic_get_stats(CLIENT *client, struct rpc_optimistic_stats *out)
{
	if (client->cl_ops->cl_call != optimistic_call)
		return false;
	struct optimistic_client *o = attached(client);
	pthread_mutex_lock(&o->lock);
	*out = o->stats;
	pthread_mutex_unlock(&o->lock);
	return true;
}

bool rpc_optimistic_set_policy(CLIENT *client, respec_policy_fn policy, void *arg)
{
	if (client->cl_ops->cl_call != optimistic_call)
		return false;
	return respec_predicate_set_policy(attached(client)->predicate, policy, arg) == 0;
}

bool rpc_optimistic_specialized(CLIENT *client)
{
	if (client->cl_ops->cl_call != optimistic_call)
		return false;
	return respec_slot_current(&attached(client)->slot) != RESPEC_FN(generic_call);
}
