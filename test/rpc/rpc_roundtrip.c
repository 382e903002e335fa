/*
 * rpc_roundtrip.c — round-trip test of the Sun RPC case study: real clients and
 * servers talking over loopback UDP and TCP, with generic and specialized marshaling.
 *
 * It starts the rpc-server program twice (the generic and the respec stack) and, for
 * each transport, runs every client stack against every server — so specialized
 * clients talk to generic servers and the other way round, which holds only if both
 * put the same bytes on the wire. Each pairing calls RMIN on random pairs, ECHO_INTS
 * on every specialized size, the bounds and random counts (and expects an array over
 * its bound to be refused by the client), and ECHO_RECORD on random records; results
 * are checked against what was sent. A TCP client with the library's small default
 * buffers then sends large arrays, which span record fragments and reads, so that
 * the specialized stack's fallbacks run too. Both servers must still be running at
 * the end. Where the optimistic client is built (rpc_optimistic.h), it is a third
 * client stack: its calls run code specialized at run time for its handle. RPC_SERVER_PROGRAM in the environment names another server program.
 */
#include "rpc_stack.h"
#include "rpc_server_process.h"
#include "rpc_values.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RPC_CLIENT_DECLARE(generic_)
RPC_CLIENT_DECLARE(respec_)
#ifdef RPC_OPTIMISTIC
RPC_CLIENT_DECLARE(optimistic_)
#endif

struct client_stack {
	const char *name;
	CLIENT *(*open)(enum rpc_transport transport, unsigned short port);
	void (*close)(CLIENT *client);
	enum clnt_stat (*status)(CLIENT *client);
	const char *(*error)(CLIENT *client);
	bool (*rmin)(CLIENT *client, int a, int b, int *minimum);
	int (*echo_ints)(CLIENT *client, const int *values, unsigned count, int *echoed);
	bool (*echo_record)(CLIENT *client, const record *sent, record *echoed);
};

#define CLIENT_STACK(label, prefix)                                                        \
	{ label, prefix##rpc_client_open, prefix##rpc_client_close, prefix##rpc_client_status, \
	  prefix##rpc_client_error, prefix##rpc_client_rmin, prefix##rpc_client_echo_ints,     \
	  prefix##rpc_client_echo_record }

static const struct client_stack stacks[] = {
	CLIENT_STACK("generic", generic_),
	CLIENT_STACK("respec", respec_),
#ifdef RPC_OPTIMISTIC
	CLIENT_STACK("optimistic", optimistic_),
#endif
};

static const char *const transport_names[] = {"udp", "tcp", "tcp with small buffers"};

enum { RANDOM_PAIRS = 200, RANDOM_COUNTS = 24, RANDOM_RECORDS = 50 };

static int failures;

static void fail(const char *pairing, const char *what, const char *detail)
{
	fprintf(stderr, "FAIL %s: %s%s%s\n", pairing, what, detail ? ": " : "", detail ? detail : "");
	failures++;
}

static void check_rmin(const struct client_stack *stack, CLIENT *client, struct diff_rng *rng,
		       const char *pairing)
{
	for (int i = 0; i < RANDOM_PAIRS; i++) {
		pair p;
		rpc_random_pair(rng, &p);
		int minimum;
		if (!stack->rmin(client, p.int1, p.int2, &minimum)) {
			fail(pairing, "RMIN call", stack->error(client));
			return;
		}
		if (minimum != (p.int1 < p.int2 ? p.int1 : p.int2)) {
			fail(pairing, "RMIN result", NULL);
			return;
		}
	}
}

/* Echoes `count` random ints (into `sent`, back into `echoed`); false, with the
 * failure reported, unless they came back unchanged. */
static bool echo_random_ints(const struct client_stack *stack, CLIENT *client,
			     struct diff_rng *rng, unsigned count, int *sent, int *echoed,
			     const char *pairing)
{
	for (unsigned j = 0; j < count; j++)
		sent[j] = diff_rng_int32(rng);
	int received = stack->echo_ints(client, sent, count, echoed);
	if (received < 0) {
		fail(pairing, "ECHO_INTS call", stack->error(client));
		return false;
	}
	if ((unsigned)received != count || memcmp(sent, echoed, count * sizeof(int)) != 0) {
		fail(pairing, "ECHO_INTS result", NULL);
		return false;
	}
	return true;
}

static void check_echo_ints(const struct client_stack *stack, CLIENT *client,
			    struct diff_rng *rng, const char *pairing)
{
	static int sent[INTARRAY_MAX + 1], echoed[INTARRAY_MAX + 1];
	unsigned counts[RPC_SIZED_ENCODERS + 3 + RANDOM_COUNTS];
	unsigned n = 0;
	for (unsigned i = 0; i < RPC_SIZED_ENCODERS; i++)
		counts[n++] = rpc_array_sizes[i];
	counts[n++] = 0;
	counts[n++] = 1;
	counts[n++] = INTARRAY_MAX - 1;
	while (n < sizeof counts / sizeof counts[0])
		counts[n++] = (unsigned)diff_rng_below(rng, INTARRAY_MAX + 1);
	for (unsigned i = 0; i < n; i++) {
		if (!echo_random_ints(stack, client, rng, counts[i], sent, echoed, pairing))
			return;
	}
	/* Over the bound: the client's encoder refuses it, and nothing is sent. */
	if (stack->echo_ints(client, sent, INTARRAY_MAX + 1, echoed) >= 0)
		fail(pairing, "ECHO_INTS of INTARRAY_MAX + 1 ints", "accepted");
	else if (stack->status(client) != RPC_CANTENCODEARGS)
		fail(pairing, "ECHO_INTS of INTARRAY_MAX + 1 ints failed otherwise",
		     stack->error(client));
}

/* Arrays that span record fragments and reads (RPC_TCP_SMALL_BUFFERS): the
 * specialized stack's fallbacks. Few calls: each waits on delayed ACKs. */
static void check_large_arrays(const struct client_stack *stack, CLIENT *client,
			       struct diff_rng *rng, const char *pairing)
{
	static int sent[INTARRAY_MAX], echoed[INTARRAY_MAX];
	static const unsigned counts[] = {1000, 1001, INTARRAY_MAX};
	for (unsigned i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		if (!echo_random_ints(stack, client, rng, counts[i], sent, echoed, pairing))
			return;
	}
}

static bool records_equal(const record *a, const record *b)
{
	if (strcmp(a->name, b->name) != 0 || (a->origin == NULL) != (b->origin == NULL) ||
	    (a->origin != NULL && memcmp(a->origin, b->origin, sizeof *a->origin) != 0) ||
	    a->outline.kind != b->outline.kind)
		return false;
	switch (a->outline.kind) {
	case SHAPE_CIRCLE:
		return a->outline.shape_u.radius == b->outline.shape_u.radius;
	case SHAPE_RECT:
		return memcmp(&a->outline.shape_u.corner, &b->outline.shape_u.corner,
			      sizeof a->outline.shape_u.corner) == 0;
	case SHAPE_LABEL:
		return memcmp(a->outline.shape_u.label, b->outline.shape_u.label,
			      sizeof a->outline.shape_u.label) == 0;
	default:
		return true;
	}
}

static void check_echo_record(const struct client_stack *stack, CLIENT *client,
			      struct diff_rng *rng, const char *pairing)
{
	for (int i = 0; i < RANDOM_RECORDS; i++) {
		record sent, echoed;
		char name[RPC_NAME_ROOM];
		point origin;
		rpc_random_record(rng, &sent, name, &origin, 0);
		if (!stack->echo_record(client, &sent, &echoed)) {
			fail(pairing, "ECHO_RECORD call", stack->error(client));
			return;
		}
		bool equal = records_equal(&sent, &echoed);
		free(echoed.name);
		free(echoed.origin);
		if (!equal) {
			fail(pairing, "ECHO_RECORD result", NULL);
			return;
		}
	}
}

int main(void)
{
	/* RPC_SERVER_PROGRAM in the environment: another server program, e.g. one that
	 * respec layout laid out (test/rpc/layout-roundtrip). */
	const char *program = getenv("RPC_SERVER_PROGRAM");
	/* The servers: the generic and the respec stack (stacks[0] and [1]). */
	struct rpc_server_process servers[2];
	for (int s = 0; s < 2; s++)
		if (!rpc_server_start(&servers[s], program ? program : RPC_SERVER_PROGRAM,
				      stacks[s].name))
			return 1;
	struct diff_rng rng = {0x7e57};
	for (int t = RPC_UDP; t <= RPC_TCP_SMALL_BUFFERS; t++) {
		for (size_t c = 0; c < sizeof stacks / sizeof *stacks; c++) {
			for (int s = 0; s < 2; s++) {
				char pairing[96];
				snprintf(pairing, sizeof pairing, "%s client -> %s server over %s",
					 stacks[c].name, stacks[s].name, transport_names[t]);
				unsigned short port = t == RPC_UDP ? servers[s].udp_port
								   : servers[s].tcp_port;
				CLIENT *client = stacks[c].open((enum rpc_transport)t, port);
				if (client == NULL) {
					fail(pairing, "cannot create the client", NULL);
					continue;
				}
				int before = failures;
				if (t == RPC_TCP_SMALL_BUFFERS) {
					check_large_arrays(&stacks[c], client, &rng, pairing);
				} else {
					check_rmin(&stacks[c], client, &rng, pairing);
					check_echo_ints(&stacks[c], client, &rng, pairing);
					check_echo_record(&stacks[c], client, &rng, pairing);
				}
				stacks[c].close(client);
				printf("%s %s\n", failures == before ? "ok  " : "FAIL", pairing);
			}
		}
	}
	for (int s = 0; s < 2; s++)
		if (!rpc_server_stop(&servers[s]))
			failures++;
	if (failures != 0) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("all pairings agree\n");
	return 0;
}
