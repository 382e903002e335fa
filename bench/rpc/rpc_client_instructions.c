/*
 * rpc_client_instructions.c — the client's own work per call, for bench-rpc: one
 * client stack calls ECHO_INTS of COUNT ints CALLS times inside measured_calls(),
 * which bench-rpc runs under callgrind with collection toggled on in that function
 * only: the user-space instructions the client process executes per call (the
 * library, the stubs and the specialized code; not the kernel, not the server).
 * The warm-up calls before it make the optimistic client plan the procedure and
 * specialize it.
 *
 *   rpc-client-instructions generic|respec|optimistic udp|tcp COUNT CALLS
 *
 * The server runs the respec stack for the respec and optimistic clients, the
 * generic one for the generic client (as in bench-rpc's round trips). Exit status 1
 * on any failed or wrong call.
 */
#include "rpc_server_process.h"
#include "rpc_stack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RPC_CLIENT_DECLARE(generic_)
RPC_CLIENT_DECLARE(respec_)
RPC_CLIENT_DECLARE(optimistic_)

typedef int (*echo_fn)(CLIENT *, const int *, unsigned, int *);

static int values[INTARRAY_MAX], echoed[INTARRAY_MAX];

__attribute__((noinline)) static int call_echo(echo_fn echo, CLIENT *client, unsigned count,
					       unsigned long calls)
{
	int wrong = 0;
	for (unsigned long call = 0; call < calls; call++)
		wrong |= echo(client, values, count, echoed) != (int)count;
	return wrong;
}

/* What callgrind counts (--toggle-collect=measured_calls). */
__attribute__((noinline)) static int measured_calls(echo_fn echo, CLIENT *client, unsigned count,
						    unsigned long calls)
{
	return call_echo(echo, client, count, calls);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: rpc-client-instructions generic|respec|optimistic udp|tcp "
				"COUNT CALLS\n");
		return 2;
	}
	const char *stack = argv[1];
	enum rpc_transport transport = strcmp(argv[2], "tcp") == 0 ? RPC_TCP : RPC_UDP;
	unsigned count = (unsigned)strtoul(argv[3], NULL, 10);
	unsigned long calls = strtoul(argv[4], NULL, 10);
	CLIENT *(*open)(enum rpc_transport, unsigned short) = generic_rpc_client_open;
	echo_fn echo = generic_rpc_client_echo_ints;
	if (strcmp(stack, "respec") == 0)
		open = respec_rpc_client_open, echo = respec_rpc_client_echo_ints;
	else if (strcmp(stack, "optimistic") == 0)
		open = optimistic_rpc_client_open, echo = optimistic_rpc_client_echo_ints;
	if (count > INTARRAY_MAX || calls == 0)
		return 2;
	for (unsigned i = 0; i < count; i++)
		values[i] = (int)(i * 2654435761u);

	struct rpc_server_process server;
	if (!rpc_server_start(&server, RPC_SERVER_PROGRAM,
			      strcmp(stack, "generic") == 0 ? "generic" : "respec"))
		return 1;
	CLIENT *client = open(transport, transport == RPC_UDP ? server.udp_port : server.tcp_port);
	if (!client)
		return 1;
	int wrong = call_echo(echo, client, count, 3); /* warm-up: not counted */
	wrong |= measured_calls(echo, client, count, calls);
	wrong |= memcmp(values, echoed, count * sizeof *values) != 0;
	if (wrong)
		fprintf(stderr, "rpc-client-instructions: a call failed or echoed wrong\n");
	rpc_server_stop(&server);
	return wrong;
}
