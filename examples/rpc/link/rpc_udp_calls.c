/*
 * rpc_udp_calls.c — the case study's client as a UDP-only, AUTH_NONE program: it
 * starts the rpc-server program, opens a UDP client (rpc_client.c built with
 * RPC_UDP_ONLY: no other transport, no credentials but the library's default
 * AUTH_NONE) and makes CALLS rounds of the three procedures — RMIN of two ints,
 * ECHO_INTS of COUNT ints, ECHO_RECORD of a record with a name, an optional point
 * and each kind of shape — checking every answer. It is linked twice, against the
 * Sun RPC library as it is and through `respec link` with the library's rules
 * (CMakeLists.txt); both must print the same digest.
 *
 *   rpc-udp-calls COUNT CALLS [SERVER_PROGRAM]
 *
 * Output, one line: "ns_per_round N digest D" (N: one round of the three calls).
 * Exit status 1 on any failed or wrong call.
 */
#include "rpc_server_process.h"
#include "rpc_stack.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

RPC_CLIENT_DECLARE()

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint32_t next(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state;
}

static uint64_t digest_word(uint64_t digest, uint32_t word)
{
	return (digest ^ word) * 1099511628211u; /* FNV-1a, a word at a time */
}

static bool same_record(const record *a, const record *b)
{
	if (strcmp(a->name, b->name) != 0 || (a->origin == NULL) != (b->origin == NULL) ||
	    (a->origin && (a->origin->x != b->origin->x || a->origin->y != b->origin->y)) ||
	    a->outline.kind != b->outline.kind)
		return false;
	switch (a->outline.kind) {
	case SHAPE_CIRCLE:
		return a->outline.shape_u.radius == b->outline.shape_u.radius;
	case SHAPE_RECT:
		return a->outline.shape_u.corner.x == b->outline.shape_u.corner.x &&
		       a->outline.shape_u.corner.y == b->outline.shape_u.corner.y;
	case SHAPE_LABEL:
		return memcmp(a->outline.shape_u.label, b->outline.shape_u.label, LABEL_SIZE) == 0;
	default:
		return true;
	}
}

/* One round: the three procedures on arguments drawn from state. */
static bool round_trip(CLIENT *client, unsigned count, uint32_t *state, uint64_t *digest,
		       uint64_t *elapsed)
{
	static int values[INTARRAY_MAX], echoed[INTARRAY_MAX];
	int a = (int)next(state), b = (int)next(state);
	for (unsigned i = 0; i < count; i++)
		values[i] = (int)next(state);
	char name[NAME_MAX_LENGTH + 1];
	unsigned length = next(state) % (NAME_MAX_LENGTH + 1);
	for (unsigned i = 0; i < length; i++)
		name[i] = (char)('a' + next(state) % 26);
	name[length] = '\0';
	point origin = {(int)next(state), (int)next(state)};
	record sent = {.name = name, .origin = next(state) % 2 ? &origin : NULL};
	sent.outline.kind = (shape_kind)(next(state) % 4);
	sent.outline.shape_u.corner = (point){(int)next(state), (int)next(state)};
	if (sent.outline.kind == SHAPE_LABEL)
		for (unsigned i = 0; i < LABEL_SIZE; i++)
			sent.outline.shape_u.label[i] = (char)next(state);

	int minimum;
	record back;
	uint64_t start = now_ns();
	bool rmin = rpc_client_rmin(client, a, b, &minimum);
	int received = rpc_client_echo_ints(client, values, count, echoed);
	bool echoed_record = rpc_client_echo_record(client, &sent, &back);
	*elapsed += now_ns() - start;

	if (!rmin || minimum != (a < b ? a : b) || received != (int)count ||
	    memcmp(values, echoed, count * sizeof *values) != 0 || !echoed_record ||
	    !same_record(&sent, &back)) {
		fprintf(stderr, "rpc-udp-calls: wrong answer (%s)\n", rpc_client_error(client));
		return false;
	}
	*digest = digest_word(*digest, (uint32_t)minimum);
	for (unsigned i = 0; i < count; i++)
		*digest = digest_word(*digest, (uint32_t)echoed[i]);
	for (const char *c = back.name; *c; c++)
		*digest = digest_word(*digest, (unsigned char)*c);
	*digest = digest_word(*digest, (uint32_t)back.outline.kind);
	free(back.name);
	free(back.origin);
	return true;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: rpc-udp-calls COUNT CALLS [SERVER_PROGRAM]\n");
		return 2;
	}
	unsigned count = (unsigned)strtoul(argv[1], NULL, 10);
	unsigned long calls = strtoul(argv[2], NULL, 10);
	if (count > INTARRAY_MAX || calls == 0) {
		fprintf(stderr, "rpc-udp-calls: COUNT at most %d, CALLS at least 1\n", INTARRAY_MAX);
		return 2;
	}
	struct rpc_server_process server;
	if (!rpc_server_start(&server, argc == 4 ? argv[3] : RPC_SERVER_PROGRAM, "generic"))
		return 1;
	CLIENT *client = rpc_client_open(RPC_UDP, server.udp_port);
	if (client == NULL)
		return 1;
	uint32_t state = 0x9e3779b9u;
	uint64_t digest = 14695981039346656037u, elapsed = 0;
	for (unsigned long call = 0; call < calls; call++)
		if (!round_trip(client, count, &state, &digest, &elapsed))
			return 1;
	rpc_client_close(client);
	if (!rpc_server_stop(&server))
		return 1;
	printf("ns_per_round %.1f digest %016llx\n", (double)elapsed / (double)calls,
	       (unsigned long long)digest);
	return 0;
}
