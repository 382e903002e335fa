/*
 * rpc_client.c — the client program of the case study, written as any Sun RPC
 * application is: it creates a client handle for the server and calls the stubs
 * rpcgen generated (rmin_1, echo_ints_1, echo_record_1), freeing each result with
 * clnt_freeres. It is compiled into both stacks (rpc_stack.h); what differs between
 * them is only which XDR routines the stubs end up calling.
 */
#include "rpc_stack.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>

RPC_CLIENT_DECLARE()

/* How long the UDP client waits before retransmitting. */
static const struct timeval udp_retry_wait = {1, 0};

static void cap_descriptor_limit(void)
{
	struct rlimit limit;
	if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur > FD_SETSIZE) {
		limit.rlim_cur = FD_SETSIZE;
		setrlimit(RLIMIT_NOFILE, &limit);
	}
}

CLIENT *rpc_client_open(enum rpc_transport transport, unsigned short port)
{
	cap_descriptor_limit();
	struct sockaddr_in server;
	memset(&server, 0, sizeof server);
	server.sin_family = AF_INET;
	server.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	server.sin_port = htons(port);
	int sock = RPC_ANYSOCK;
	/* 0 asks the library for its default size. */
	unsigned buffer_size = transport == RPC_TCP ? RPC_TCP_BUFFER_SIZE : 0;
#ifdef RPC_UDP_ONLY
	/* The UDP-only client (link/: the library linked for a client that makes no
	 * other transport). */
	(void)buffer_size;
	CLIENT *client = transport == RPC_UDP ? clntudp_create(&server, RPCBENCH_PROG,
							       RPCBENCH_VERS, udp_retry_wait, &sock)
					      : NULL;
#else
	CLIENT *client = transport == RPC_UDP
				 ? clntudp_create(&server, RPCBENCH_PROG, RPCBENCH_VERS,
						  udp_retry_wait, &sock)
				 : clnttcp_create(&server, RPCBENCH_PROG, RPCBENCH_VERS, &sock,
						  buffer_size, buffer_size);
#endif
	if (client == NULL)
		fprintf(stderr, "rpc client (%s): cannot create: RPC status %d, errno %d\n",
			transport == RPC_UDP ? "udp" : "tcp", (int)rpc_createerr.cf_stat,
			rpc_createerr.cf_error.re_errno);
	return client;
}

void rpc_client_close(CLIENT *client)
{
	clnt_destroy(client);
}

enum clnt_stat rpc_client_status(CLIENT *client)
{
	struct rpc_err error;
	clnt_geterr(client, &error);
	return error.re_status;
}

const char *rpc_client_error(CLIENT *client)
{
	static char description[64];
	struct rpc_err error;
	clnt_geterr(client, &error);
	snprintf(description, sizeof description, "RPC status %d (enum clnt_stat), errno %d",
		 (int)error.re_status, error.re_errno);
	return description;
}

bool rpc_client_rmin(CLIENT *client, int a, int b, int *minimum)
{
	pair arguments = {a, b};
	int *result = rmin_1(&arguments, client);
	if (result == NULL)
		return false;
	*minimum = *result;
	return true;
}

int rpc_client_echo_ints(CLIENT *client, const int *values, unsigned count, int *echoed)
{
	/* The argument is only read; the stubs take it non-const. */
	intarray arguments = {count, (int *)values};
	intarray *result = echo_ints_1(&arguments, client);
	if (result == NULL)
		return -1;
	unsigned received = result->intarray_len;
	/* An empty array decodes to a null intarray_val: memcpy may not be given one. */
	if (received > 0 && received <= count)
		memcpy(echoed, result->intarray_val, received * sizeof *echoed);
	clnt_freeres(client, (xdrproc_t)xdr_intarray, (char *)result);
	return received <= count ? (int)received : -1;
}

bool rpc_client_echo_record(CLIENT *client, const record *sent, record *echoed)
{
	record *result = echo_record_1((record *)sent, client);
	if (result == NULL)
		return false;
	bool copied = true;
	*echoed = *result;
	echoed->name = strdup(result->name);
	copied &= echoed->name != NULL;
	if (result->origin != NULL) {
		echoed->origin = malloc(sizeof *echoed->origin);
		copied &= echoed->origin != NULL;
		if (echoed->origin != NULL)
			*echoed->origin = *result->origin;
	}
	clnt_freeres(client, (xdrproc_t)xdr_record, (char *)result);
	return copied;
}
