/*
 * rpc_optimistic_test.c — the optimistic Sun RPC client (examples/rpc/rpc_optimistic.h)
 * against a real server over loopback:
 *
 *   specialized  after the first call of each procedure, the handle's calls run
 *                specialized code (the slot is no longer generic), and every
 *                result matches what was sent (UDP and TCP);
 *   state        clnt_control(CLSET_TIMEOUT) switches a UDP handle between
 *                waiting for replies and the library's "message passing" mode
 *                (a zero timeout: send, return RPC_TIMEDOUT at once), which the
 *                specialized code folds in: each switch must be seen by the
 *                very next call — sequentially (re-specialized after every
 *                switch), and from another thread that switches while this one
 *                calls (under the default policy), where every call must
 *                behave as a state that was in force at some point during it;
 *   memguard     (argument "memguard") with RPC_OPTIMISTIC_MEMGUARD=report, a
 *                write to a UDP handle's cu_total behind the guards' back is
 *                reported; with enforce, a TCP handle's authenticator replaced
 *                behind their back is reported, turned into a guarded store,
 *                and the next call (read from the handle's send buffer) and
 *                those after re-specialization send the new credentials.
 */
#include "rpc_optimistic.h"
#include "rpc_private.h"
#include "rpc_server_process.h"
#include "rpc_stack.h"

#include <respec/memguard.h>

#include <arpa/inet.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

RPC_CLIENT_DECLARE(optimistic_)
/* rpc_optimistic.h's functions, as the optimistic stack exports them (with its prefix). */
bool optimistic_rpc_optimistic_specialized(CLIENT *client);
bool optimistic_rpc_optimistic_get_stats(CLIENT *client, struct rpc_optimistic_stats *out);
bool optimistic_rpc_optimistic_set_policy(CLIENT *client, respec_policy_fn policy, void *arg);
void optimistic_rpc_optimistic_set_auth(CLIENT *client, AUTH *auth);
AUTH *optimistic_authunix_create_default(void); /* the stack's library's */
#define rpc_optimistic_specialized optimistic_rpc_optimistic_specialized
#define rpc_optimistic_get_stats optimistic_rpc_optimistic_get_stats
#define rpc_optimistic_set_policy optimistic_rpc_optimistic_set_policy
#define rpc_optimistic_set_auth optimistic_rpc_optimistic_set_auth

#include "../jit/check.h"

static const struct timeval wait_for_replies = {25, 0};
static const struct timeval message_passing = {0, 0};

/* ECHO_INTS of n values; true if the echo matched. */
static bool echo(CLIENT *client, unsigned n, unsigned seed)
{
	int values[64], echoed[64];
	for (unsigned i = 0; i < n; i++)
		values[i] = (int)(seed * 2654435761u + i * 40503u);
	return optimistic_rpc_client_echo_ints(client, values, n, echoed) == (int)n &&
	       memcmp(values, echoed, n * sizeof *values) == 0;
}

static void test_specialized(enum rpc_transport transport, unsigned short port, const char *name)
{
	CLIENT *client = optimistic_rpc_client_open(transport, port);
	CHECK(client, "%s: open", name);
	if (!client)
		return;
	CHECK(!rpc_optimistic_specialized(client), "%s: generic before the first call", name);
	CHECK(echo(client, 20, 1), "%s: first echo", name);
	CHECK(rpc_optimistic_specialized(client), "%s: specialized after the first echo", name);
	int minimum = 0;
	CHECK(optimistic_rpc_client_rmin(client, 7, -3, &minimum) && minimum == -3, "%s: rmin",
	      name);
	for (unsigned i = 0; i < 500; i++) {
		CHECK(echo(client, i % 60, i), "%s: echo %u: %s", name, i,
		      optimistic_rpc_client_error(client));
		CHECK(optimistic_rpc_client_rmin(client, (int)i, 250, &minimum) &&
			      minimum == ((int)i < 250 ? (int)i : 250),
		      "%s: rmin %u", name, i);
	}
	struct rpc_optimistic_stats stats;
	CHECK(rpc_optimistic_get_stats(client, &stats) && stats.planned_calls == 2,
	      "%s: two procedures planned", name);
	CHECK(rpc_optimistic_specialized(client), "%s: still specialized", name);
	printf("%s: %u specializations, the last %.1f ms, %.1f ms in all\n", name,
	       stats.specializations, stats.last_specialize_ms, stats.total_specialize_ms);
	optimistic_rpc_client_close(client);
}

/* A call in message-passing mode returns RPC_TIMEDOUT without a reply. */
static bool waits_for_reply(CLIENT *client)
{
	int minimum;
	if (optimistic_rpc_client_rmin(client, 1, 2, &minimum))
		return true;
	return false;
}

static void set_total_timeout(CLIENT *client, struct timeval timeout)
{
	CHECK(clnt_control(client, CLSET_TIMEOUT, (char *)&timeout), "clnt_control");
}

/* Re-specialized after every switch (the always policy: the default one would
 * soon keep a handle switched this often generic, which is as correct). */
static void test_state_sequential(unsigned short port)
{
	CLIENT *client = optimistic_rpc_client_open(RPC_UDP, port);
	if (!client)
		return;
	CHECK(rpc_optimistic_set_policy(client, respec_policy_always, NULL), "policy");
	for (int round = 0; round < 20; round++) {
		set_total_timeout(client, message_passing);
		CHECK(!waits_for_reply(client) && optimistic_rpc_client_status(client) == RPC_TIMEDOUT,
		      "round %d: message passing: the next call does not wait", round);
		set_total_timeout(client, wait_for_replies);
		CHECK(waits_for_reply(client), "round %d: the next call waits for its reply", round);
		CHECK(rpc_optimistic_specialized(client), "round %d: specialized again", round);
	}
	optimistic_rpc_client_close(client);
}

/* The switching thread: state k is in force from the end of switch k to the start
 * of switch k + 1; even k waits for replies. */
struct switcher {
	CLIENT *client;
	_Atomic unsigned completed; /* switches done */
	_Atomic bool switching;     /* switch `completed + 1` under way */
	_Atomic bool stop;
};

static void *switch_states(void *arg)
{
	struct switcher *s = arg;
	while (!atomic_load(&s->stop)) {
		unsigned next = atomic_load(&s->completed) + 1;
		atomic_store(&s->switching, true);
		set_total_timeout(s->client, next % 2 ? message_passing : wait_for_replies);
		atomic_store(&s->completed, next);
		atomic_store(&s->switching, false);
		usleep(500);
	}
	return NULL;
}

static void test_state_concurrent(unsigned short port)
{
	struct switcher s = {.client = optimistic_rpc_client_open(RPC_UDP, port)};
	if (!s.client)
		return;
	CHECK(waits_for_reply(s.client), "the first call");
	pthread_t thread;
	pthread_create(&thread, NULL, switch_states, &s);
	unsigned calls = 0, strict = 0, each_state[2] = {0, 0};
	while (atomic_load(&s.completed) < 400) {
		unsigned before = atomic_load(&s.completed);
		bool busy_before = atomic_load(&s.switching);
		bool waited = waits_for_reply(s.client);
		bool busy_after = atomic_load(&s.switching);
		unsigned after = atomic_load(&s.completed);
		/* States in force at some point of the call. */
		unsigned first = before, last = after + (busy_after || busy_before);
		bool allowed = false;
		for (unsigned k = first; k <= last; k++)
			allowed |= (k % 2 == 0) == waited;
		CHECK(allowed, "a call %s while only states %u..%u were in force",
		      waited ? "waited" : "did not wait", first, last);
		calls++;
		strict += first == last;
		each_state[waited]++;
	}
	atomic_store(&s.stop, true);
	pthread_join(thread, NULL);
	printf("concurrent switches: %u calls (%u within one state), %u waited, %u did not\n",
	       calls, strict, each_state[1], each_state[0]);
	CHECK(strict > 100 && each_state[0] > 20 && each_state[1] > 20,
	      "both states exercised within one state each");
	optimistic_rpc_client_close(s.client);
}

/* MemGuard's report of a write behind the guards' back, read from `report`. */
static bool reported(int report, const char *term)
{
	respec_memguard_flush();
	char text[8192];
	ssize_t n = read(report, text, sizeof text - 1);
	text[n > 0 ? n : 0] = '\0';
	char expected[128];
	snprintf(expected, sizeof expected, "unguarded write to term \"%s\"", term);
	return strstr(text, expected) != NULL;
}

static CLIENT *open_watched(enum rpc_transport transport, unsigned short port, const char *mode)
{
	setenv("RPC_OPTIMISTIC_MEMGUARD", mode, 1);
	CLIENT *client = optimistic_rpc_client_open(transport, port);
	unsetenv("RPC_OPTIMISTIC_MEMGUARD");
	if (client)
		CHECK(waits_for_reply(client) && rpc_optimistic_specialized(client),
		      "%s: specialized after the first call", mode);
	return client;
}

/* The credentials' flavor in the last call a TCP handle sent, from its record
 * stream's buffer: after the record mark and five words of call header. */
static int last_credentials(CLIENT *client)
{
	struct ct_data *ct = (struct ct_data *)client->cl_private;
	struct rpc_record_stream *record = (struct rpc_record_stream *)ct->ct_xdrs.x_private;
	uint32_t flavor;
	memcpy(&flavor, record->out_base + 7 * BYTES_PER_XDR_UNIT, sizeof flavor);
	return (int)ntohl(flavor);
}

/* Report: a UDP handle's timeout written without clnt_control. */
static void test_memguard_report(unsigned short port, int report)
{
	CLIENT *client = open_watched(RPC_UDP, port, "report");
	if (!client)
		return;
	struct cu_data *cu = (struct cu_data *)client->cl_private;
	cu->cu_total = message_passing; /* no guard: a bug MemGuard must catch */
	CHECK(reported(report, "struct cu_data::cu_total"), "report: the write is reported");
	optimistic_rpc_client_close(client);
}

/* Enforce: a TCP handle's authenticator replaced without rpc_optimistic_set_auth.
 * The next call, and those after it is specialized again, send the new
 * credentials. */
static void test_memguard_enforce(unsigned short port, int report)
{
	CLIENT *client = open_watched(RPC_TCP, port, "enforce");
	if (!client)
		return;
	CHECK(last_credentials(client) == AUTH_NONE, "enforce: AUTH_NONE at first");
	AUTH *none = client->cl_auth;
	client->cl_auth = optimistic_authunix_create_default(); /* no guard */
	CHECK(reported(report, "CLIENT::cl_auth"), "enforce: the write is reported");
	CHECK(echo(client, 20, 7) && last_credentials(client) == AUTH_UNIX,
	      "enforce: the next call sends the new credentials");
	bool again = false;
	for (int i = 0; i < 20000 && !again; i++) {
		CHECK(echo(client, 20, (unsigned)i) && last_credentials(client) == AUTH_UNIX,
		      "enforce: call %d sends the new credentials", i);
		again = rpc_optimistic_specialized(client);
		usleep(1000);
	}
	CHECK(again, "enforce: specialized again, for the new authenticator");
	CHECK(echo(client, 60, 9) && last_credentials(client) == AUTH_UNIX,
	      "enforce: the specialized code sends the new credentials");
	AUTH *unix_auth = client->cl_auth;
	rpc_optimistic_set_auth(client, none);
	auth_destroy(unix_auth);
	CHECK(echo(client, 20, 11) && last_credentials(client) == AUTH_NONE,
	      "guarded: back to AUTH_NONE");
	optimistic_rpc_client_close(client);
}

static void test_memguard(unsigned short udp_port, unsigned short tcp_port)
{
	int report[2];
	if (pipe(report) != 0)
		return;
	respec_memguard_set_report_fd(report[1]);
	test_memguard_report(udp_port, report[0]);
	test_memguard_enforce(tcp_port, report[0]);
	respec_memguard_set_report_fd(2);
	close(report[0]);
	close(report[1]);
}

int main(int argc, char **argv)
{
	bool memguard = argc > 1 && strcmp(argv[1], "memguard") == 0;
	struct rpc_server_process server;
	if (!rpc_server_start(&server, RPC_SERVER_PROGRAM, "generic"))
		return 1;
	if (memguard) {
		test_memguard(server.udp_port, server.tcp_port);
	} else {
		test_specialized(RPC_UDP, server.udp_port, "udp");
		test_specialized(RPC_TCP, server.tcp_port, "tcp");
		test_state_sequential(server.udp_port);
		test_state_concurrent(server.udp_port);
	}
	if (!rpc_server_stop(&server))
		failures++;
	printf("%s\n", failures ? "FAILED" : "all optimistic client tests passed");
	return failures != 0;
}
