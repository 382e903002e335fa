/*
 * rpc_calls.c — the round trip of the case study as one program: starts the rpc-server
 * program with a stack, opens a client of the same stack, and makes CALLS ECHO_INTS
 * calls of COUNT ints over loopback, checking every echo; then prints the time per call
 * and a digest of what came back. The program `respec layout` lays out on top of
 * specialization (target rpc-layout), and the layout benchmark runs (bench/layout).
 *
 *   rpc-calls STACK TRANSPORT COUNT CALLS [SERVER_PROGRAM]
 *
 * STACK is generic or respec (client and server alike), TRANSPORT udp or tcp,
 * or, in rpc-calls-profiled (examples/profile), profiled: the generic client built
 * with respec profile's value profiling, against the generic server;
 * SERVER_PROGRAM the rpc-server to start (default: the build's). Output, one line:
 * "ns_per_call N digest D". Exit status 1 on any failed or wrong call.
 */
#include "rpc_server_process.h"
#include "rpc_stack.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

RPC_CLIENT_DECLARE(generic_)
RPC_CLIENT_DECLARE(respec_)
#ifdef RPC_PROFILED_STACK
RPC_CLIENT_DECLARE(profiled_)
#endif

/* The client functions of one stack. */
struct client_stack {
	const char *name, *server_stack;
	CLIENT *(*open)(enum rpc_transport, unsigned short);
	int (*echo_ints)(CLIENT *, const int *, unsigned, int *);
	const char *(*error)(CLIENT *);
	void (*close)(CLIENT *);
};

#define CLIENT_STACK(name, server, prefix)                                              \
	{ name, server, prefix##rpc_client_open, prefix##rpc_client_echo_ints,           \
	  prefix##rpc_client_error, prefix##rpc_client_close }

static const struct client_stack stacks[] = {
	CLIENT_STACK("generic", "generic", generic_),
	CLIENT_STACK("respec", "respec", respec_),
#ifdef RPC_PROFILED_STACK
	CLIENT_STACK("profiled", "generic", profiled_),
#endif
};

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int usage(void)
{
	fprintf(stderr, "usage: rpc-calls generic|respec udp|tcp COUNT CALLS [SERVER_PROGRAM]\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc < 5 || argc > 6)
		return usage();
	const struct client_stack *stack = NULL;
	for (size_t i = 0; i < sizeof stacks / sizeof stacks[0]; i++)
		if (strcmp(argv[1], stacks[i].name) == 0)
			stack = &stacks[i];
	if (stack == NULL)
		return usage();
	enum rpc_transport transport;
	if (strcmp(argv[2], "udp") == 0)
		transport = RPC_UDP;
	else if (strcmp(argv[2], "tcp") == 0)
		transport = RPC_TCP;
	else
		return usage();
	unsigned count = (unsigned)strtoul(argv[3], NULL, 10);
	unsigned long calls = strtoul(argv[4], NULL, 10);
	if (count > INTARRAY_MAX || calls == 0)
		return usage();

	struct rpc_server_process server;
	if (!rpc_server_start(&server, argc == 6 ? argv[5] : RPC_SERVER_PROGRAM,
			      stack->server_stack))
		return 1;
	CLIENT *client =
		stack->open(transport, transport == RPC_UDP ? server.udp_port : server.tcp_port);
	if (client == NULL)
		return 1;

	static int values[INTARRAY_MAX], echoed[INTARRAY_MAX];
	uint64_t digest = 14695981039346656037u; /* FNV-1a over the echoes */
	uint32_t state = 0x9e3779b9u;
	uint64_t elapsed = 0;
	for (unsigned long call = 0; call < calls; call++) {
		for (unsigned i = 0; i < count; i++) {
			state = state * 1664525u + 1013904223u;
			values[i] = (int)state;
		}
		uint64_t start = now_ns();
		int received = stack->echo_ints(client, values, count, echoed);
		elapsed += now_ns() - start;
		if (received != (int)count || memcmp(values, echoed, count * sizeof(int)) != 0) {
			fprintf(stderr, "rpc-calls: call %lu: %s\n", call,
				received < 0 ? stack->error(client) : "wrong echo");
			return 1;
		}
		for (unsigned i = 0; i < count; i++)
			digest = (digest ^ (uint32_t)echoed[i]) * 1099511628211u;
	}
	stack->close(client);
	if (!rpc_server_stop(&server))
		return 1;
	printf("ns_per_call %.1f digest %016llx\n", (double)elapsed / (double)calls,
	       (unsigned long long)digest);
	return 0;
}
