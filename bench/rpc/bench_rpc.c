/*
 * bench_rpc.c — the Sun RPC case study's benchmark (examples/rpc), after the Tempo
 * paper's Tables 1-4. `bench/run rpc` writes bench/results/rpc.json.
 *
 *   marshal-N          one client-side marshaling of ECHO_INTS's argument: N ints into
 *                      their XDR message in memory, for N in the paper's sizes.
 *                      Variants: generic (the spec compiled as is: xdrmem_create +
 *                      rpcgen's xdr_intarray on Sun RPC 4.0), respec, clang-lto,
 *                      libtirpc (the same on Debian's libtirpc), hand, memcpy (a copy
 *                      of the finished message: the physical limit), and
 *                      respec-unroll-250 (respec with --max-unroll=250); and
 *                      generic-v3, respec-v3, clang-lto-v3, hand-v3: the same four
 *                      built with -march=x86-64-v3 (left out by the harness on a CPU
 *                      that cannot run them). Each variant's time is also reported
 *                      over its own target's hand variant (time/hand).
 *   unmarshal-N        one server-side decoding of that message into a fresh array
 *                      (allocated by the decoder, freed after each call); the same
 *                      variants but memcpy and respec-unroll-250.
 *   roundtrip-udp-N,   one ECHO_INTS call of N ints from a real client to a real
 *   roundtrip-tcp-N    server (started here, another process) over loopback and back,
 *                      both sides generic or both sides respec (rpc_stack.h); and
 *                      optimistic: the optimistic client (rpc_optimistic.h: the
 *                      whole call specialized at run time for its handle) with the
 *                      respec server, so that it differs from respec in the client
 *                      only.
 *
 * Extra numbers: the client's user-space instructions per call (callgrind, by
 * rpc-client-instructions) for the generic, respec (marshaling specialized) and
 * optimistic clients; and the optimistic client's cost of a clnt_control
 * (CLSET_TIMEOUT) — the guard's replug to generic, then re-specialization for the
 * new state (a new timeout each time) or replug of code the specializer still has
 * (two timeouts in turn) — as medians.
 *
 * The extra object holds the code sizes of the encoders (rpc_code_sizes.h, measured
 * on the built objects) — the paper's Table 3.
 */
#define _GNU_SOURCE
#include "harness.h"
#include "rpc_code_sizes.h"
#include "rpc_server_process.h"
#include "rpc_spec.h"
#include "rpc_stack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RPC_SPEC_DECLARE(generic_)
RPC_SPEC_DECLARE(respec_)
RPC_SPEC_DECLARE(clang_lto_)
RPC_SPEC_DECLARE(hand_)
RPC_SPEC_DECLARE(respec_unroll_250_)
#ifdef HAVE_RPC_LIBTIRPC
RPC_SPEC_DECLARE(libtirpc_)
#endif
#ifdef HAVE_RPC_GENERIC_V3
RPC_SPEC_DECLARE(generic_v3_)
#endif
#ifdef HAVE_RPC_RESPEC_V3
RPC_SPEC_DECLARE(respec_v3_)
#endif
#ifdef HAVE_RPC_CLANG_LTO_V3
RPC_SPEC_DECLARE(clang_lto_v3_)
#endif
#ifdef HAVE_RPC_HAND_V3
RPC_SPEC_DECLARE(hand_v3_)
#endif
RPC_CLIENT_DECLARE(generic_)
RPC_CLIENT_DECLARE(respec_)
#ifdef RPC_OPTIMISTIC
#include "rpc_optimistic.h"
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
RPC_CLIENT_DECLARE(optimistic_)
bool optimistic_rpc_optimistic_set_policy(CLIENT *client, respec_policy_fn policy, void *arg);
#endif

typedef int (*sized_encoder)(char *buf, const intarray *a);
typedef int (*array_decoder)(const char *buf, unsigned len, intarray *a);

#define SIZED_ENCODERS_OF(prefix, size) prefix##encode_intarray_##size,
#define COUNT_SIZES(unused, size) +1
enum { SIZES = 0 RPC_ARRAY_SIZES(COUNT_SIZES, ) };
#define SIZE_VALUE(unused, size) size,
static const unsigned sizes[SIZES] = {RPC_ARRAY_SIZES(SIZE_VALUE, )};

struct encoder_variant {
	const char *name;
	sized_encoder encoders[SIZES];
};

#define ENCODER_VARIANT(label, prefix) \
	{ label, { RPC_ARRAY_SIZES(SIZED_ENCODERS_OF, prefix) } }

static const struct encoder_variant encoder_variants[] = {
	ENCODER_VARIANT("generic", generic_),
	ENCODER_VARIANT("respec", respec_),
	ENCODER_VARIANT("clang-lto", clang_lto_),
#ifdef HAVE_RPC_LIBTIRPC
	ENCODER_VARIANT("libtirpc", libtirpc_),
#endif
	ENCODER_VARIANT("hand", hand_),
	ENCODER_VARIANT("respec-unroll-250", respec_unroll_250_),
#ifdef HAVE_RPC_GENERIC_V3
	ENCODER_VARIANT("generic-v3", generic_v3_),
#endif
#ifdef HAVE_RPC_RESPEC_V3
	ENCODER_VARIANT("respec-v3", respec_v3_),
#endif
#ifdef HAVE_RPC_CLANG_LTO_V3
	ENCODER_VARIANT("clang-lto-v3", clang_lto_v3_),
#endif
#ifdef HAVE_RPC_HAND_V3
	ENCODER_VARIANT("hand-v3", hand_v3_),
#endif
};

static const struct {
	const char *name;
	array_decoder decode;
} decoder_variants[] = {
	{"generic", generic_decode_intarray},
	{"respec", respec_decode_intarray},
	{"clang-lto", clang_lto_decode_intarray},
#ifdef HAVE_RPC_LIBTIRPC
	{"libtirpc", libtirpc_decode_intarray},
#endif
	{"hand", hand_decode_intarray},
#ifdef HAVE_RPC_GENERIC_V3
	{"generic-v3", generic_v3_decode_intarray},
#endif
#ifdef HAVE_RPC_RESPEC_V3
	{"respec-v3", respec_v3_decode_intarray},
#endif
#ifdef HAVE_RPC_CLANG_LTO_V3
	{"clang-lto-v3", clang_lto_v3_decode_intarray},
#endif
#ifdef HAVE_RPC_HAND_V3
	{"hand-v3", hand_v3_decode_intarray},
#endif
};

/* The arguments of every case, the same for every variant and run. */
static int values[INTARRAY_MAX];
/* Each size's finished message, as generic encodes it. */
static char messages[SIZES][INTARRAY_WIRE_SIZE(INTARRAY_MAX)];

static void *allocate(size_t size)
{
	void *p = calloc(1, size);
	if (p == NULL) {
		perror("bench-rpc");
		exit(1);
	}
	return p;
}

/*-- marshal-N ------------------------------------------------------------------*/

struct marshal_ctx {
	sized_encoder encode; /* NULL: memcpy of the finished message */
	unsigned which;
	intarray argument;
	int result;
	char message[INTARRAY_WIRE_SIZE(INTARRAY_MAX)];
};

static void marshal_run(void *opaque, uint64_t iterations)
{
	struct marshal_ctx *ctx = opaque;
	if (ctx->encode != NULL) {
		for (uint64_t i = 0; i < iterations; i++)
			ctx->result = ctx->encode(ctx->message, &ctx->argument);
	} else {
		unsigned size = INTARRAY_WIRE_SIZE(sizes[ctx->which]);
		for (uint64_t i = 0; i < iterations; i++) {
			memcpy(ctx->message, messages[ctx->which], size);
			/* Keeps the copy from being hoisted out of the loop. */
			__asm__ volatile("" : : "r"(ctx->message) : "memory");
			ctx->result = (int)size;
		}
	}
}

static uint64_t marshal_digest(void *opaque)
{
	struct marshal_ctx *ctx = opaque;
	uint64_t digest = bench_digest_bytes(BENCH_DIGEST_INIT, &ctx->result, sizeof ctx->result);
	return bench_digest_bytes(digest, ctx->message, INTARRAY_WIRE_SIZE(sizes[ctx->which]));
}

static void add_marshal_variant(struct bench_case *c, const char *name, sized_encoder encode,
				unsigned which)
{
	struct marshal_ctx *ctx = allocate(sizeof *ctx);
	ctx->encode = encode;
	ctx->which = which;
	ctx->argument.intarray_len = sizes[which];
	ctx->argument.intarray_val = values;
	bench_add_variant(c, name, marshal_run, marshal_digest, ctx);
}

/*-- unmarshal-N ----------------------------------------------------------------*/

struct unmarshal_ctx {
	array_decoder decode;
	unsigned which;
	int result;
	int decoded[INTARRAY_MAX];
};

static void unmarshal_run(void *opaque, uint64_t iterations)
{
	struct unmarshal_ctx *ctx = opaque;
	unsigned size = INTARRAY_WIRE_SIZE(sizes[ctx->which]);
	for (uint64_t i = 0; i < iterations; i++) {
		intarray a = {0, NULL};
		ctx->result = ctx->decode(messages[ctx->which], size, &a);
		if (i + 1 == iterations && a.intarray_val != NULL)
			memcpy(ctx->decoded, a.intarray_val, a.intarray_len * sizeof(int));
		free(a.intarray_val);
	}
}

static uint64_t unmarshal_digest(void *opaque)
{
	struct unmarshal_ctx *ctx = opaque;
	uint64_t digest = bench_digest_bytes(BENCH_DIGEST_INIT, &ctx->result, sizeof ctx->result);
	return bench_digest_bytes(digest, ctx->decoded, sizes[ctx->which] * sizeof(int));
}

/*-- roundtrip-{udp,tcp}-N ------------------------------------------------------*/

struct roundtrip_ctx {
	CLIENT *client;
	int (*echo_ints)(CLIENT *client, const int *values, unsigned count, int *echoed);
	const char *(*error)(CLIENT *client);
	unsigned count;
	int received;
	int echoed[INTARRAY_MAX];
};

static void roundtrip_run(void *opaque, uint64_t iterations)
{
	struct roundtrip_ctx *ctx = opaque;
	for (uint64_t i = 0; i < iterations; i++) {
		ctx->received = ctx->echo_ints(ctx->client, values, ctx->count, ctx->echoed);
		if (ctx->received < 0) {
			fprintf(stderr, "bench-rpc: ECHO_INTS failed: %s\n", ctx->error(ctx->client));
			exit(1);
		}
	}
}

static uint64_t roundtrip_digest(void *opaque)
{
	struct roundtrip_ctx *ctx = opaque;
	uint64_t digest =
		bench_digest_bytes(BENCH_DIGEST_INIT, &ctx->received, sizeof ctx->received);
	return bench_digest_bytes(digest, ctx->echoed, ctx->count * sizeof(int));
}

static void add_roundtrip_variant(struct bench_case *c, const char *name, CLIENT *client,
				  int (*echo_ints)(CLIENT *, const int *, unsigned, int *),
				  const char *(*error)(CLIENT *), unsigned count)
{
	struct roundtrip_ctx *ctx = allocate(sizeof *ctx);
	ctx->client = client;
	ctx->echo_ints = echo_ints;
	ctx->error = error;
	ctx->count = count;
	bench_add_variant(c, name, roundtrip_run, roundtrip_digest, ctx);
}

static CLIENT *open_client(CLIENT *(*open)(enum rpc_transport, unsigned short),
			   enum rpc_transport transport, unsigned short port)
{
	CLIENT *client = open(transport, port);
	if (client == NULL)
		exit(1);
	return client;
}

#ifdef RPC_OPTIMISTIC
/*-- the optimistic client's extra numbers ---------------------------------------*/

/* The client's instructions per call: rpc-client-instructions under callgrind,
 * counting only its measured calls. valgrind 3.19 cannot read DWARF 5: it runs a
 * copy without debug information. 0 when valgrind is missing or the run fails. */
static double client_instructions(const char *stack, const char *transport, unsigned count,
				  unsigned calls)
{
	static char program[256];
	if (!program[0]) {
		snprintf(program, sizeof program, "/tmp/rpc-client-instructions.%d", (int)getpid());
		char command[1024];
		snprintf(command, sizeof command, "%s/llvm-objcopy --strip-debug %s %s", RPC_LLVM_BIN,
			 RPC_CLIENT_INSTRUCTIONS, program);
		if (system(command) != 0)
			return 0;
	}
	char out[128], command[1024];
	snprintf(out, sizeof out, "/tmp/rpc-callgrind.%d.out", (int)getpid());
	snprintf(command, sizeof command,
		 "valgrind --tool=callgrind --callgrind-out-file=%s --toggle-collect=measured_calls "
		 "--smc-check=all-non-file %s %s %s %u %u >/dev/null 2>&1",
		 out, program, stack, transport, count, calls);
	double per_call = 0;
	if (system(command) == 0) {
		FILE *f = fopen(out, "r");
		char line[256];
		while (f && fgets(line, sizeof line, f))
			if (strncmp(line, "summary: ", 9) == 0)
				per_call = strtod(line + 9, NULL) / calls;
		if (f)
			fclose(f);
	}
	unlink(out);
	return per_call;
}

static void add_client_instructions(struct bench *bench)
{
	if (system("valgrind --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "bench-rpc: no valgrind: client instructions not measured\n");
		return;
	}
	static const unsigned counts[] = {20, 1000};
	const char *stacks[] = {"generic", "respec", "optimistic"};
	for (unsigned c = 0; c < (bench_quick(bench) ? 1 : 2); c++)
		for (int t = 0; t < 2; t++)
			for (int s = 0; s < 3; s++) {
				const char *transport = t ? "tcp" : "udp";
				double n = client_instructions(stacks[s], transport, counts[c], 200);
				char key[128];
				snprintf(key, sizeof key, "client instructions per call: %s %s %u",
					 stacks[s], transport, counts[c]);
				bench_extra_number(bench, key, n);
				printf("%s: %.0f\n", key, n);
			}
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median ms of `n` clnt_control(CLSET_TIMEOUT) on an optimistic handle that
 * re-specializes after every guard; `fresh`: a timeout never set before each time. */
static double control_ms(CLIENT *client, int n, bool fresh)
{
	double ms[64];
	for (int i = 0; i < n; i++) {
		struct timeval timeout = {fresh ? 1000 + i : 25 + i % 2, 0};
		double start = now_ms();
		clnt_control(client, CLSET_TIMEOUT, (char *)&timeout);
		ms[i] = now_ms() - start;
		int echoed[20];
		if (optimistic_rpc_client_echo_ints(client, values, 20, echoed) != 20)
			exit(1);
	}
	qsort(ms, (size_t)n, sizeof *ms, compare_doubles);
	return ms[n / 2];
}

static void add_respecialization_costs(struct bench *bench, const struct rpc_server_process *server)
{
	for (int t = RPC_UDP; t <= RPC_TCP; t++) {
		CLIENT *client = open_client(optimistic_rpc_client_open, (enum rpc_transport)t,
					     t == RPC_UDP ? server->udp_port : server->tcp_port);
		optimistic_rpc_optimistic_set_policy(client, respec_policy_always, NULL);
		int echoed[20];
		if (optimistic_rpc_client_echo_ints(client, values, 20, echoed) != 20)
			exit(1);
		int n = bench_quick(bench) ? 5 : 21;
		double fresh = control_ms(client, n, true), cached = control_ms(client, n, false);
		const char *name = t == RPC_UDP ? "udp" : "tcp";
		char key[128];
		snprintf(key, sizeof key, "clnt_control ms, re-specialized: %s", name);
		bench_extra_number(bench, key, fresh);
		snprintf(key, sizeof key, "clnt_control ms, code still held: %s", name);
		bench_extra_number(bench, key, cached);
		printf("clnt_control on the optimistic %s client: %.2f ms re-specializing, %.3f ms "
		       "with code still held\n", name, fresh, cached);
		optimistic_rpc_client_close(client);
	}
}
#endif

/*-------------------------------------------------------------------------------*/

static void add_code_sizes(struct bench *bench)
{
	for (size_t i = 0; i < sizeof rpc_code_sizes / sizeof rpc_code_sizes[0]; i++) {
		char key[128];
		snprintf(key, sizeof key, "code bytes: %s %s", rpc_code_sizes[i].variant,
			 rpc_code_sizes[i].what);
		bench_extra_number(bench, key, rpc_code_sizes[i].bytes);
	}
}

int main(int argc, char **argv)
{
	struct bench *bench = bench_create("rpc", argc, argv);

	uint64_t state = 0x5eed;
	for (int i = 0; i < INTARRAY_MAX; i++) {
		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		values[i] = (int)(uint32_t)(state >> 32);
	}
	for (unsigned which = 0; which < SIZES; which++) {
		intarray a = {sizes[which], values};
		generic_encode_intarray(messages[which], INTARRAY_WIRE_SIZE(sizes[which]), &a);
	}

	/* The servers run in their own processes, started before the clients exist, on
	 * the CPU the harness pins this process to (now): on a small VM, waking a server on
	 * another, idle virtual CPU costs tens of microseconds of jitter per message,
	 * while on one CPU a round trip is two context switches and the work itself. */
	bench_pin_to_current_cpu(bench);
	struct rpc_server_process generic_server, respec_server;
	if (!rpc_server_start(&generic_server, RPC_SERVER_PROGRAM, "generic") ||
	    !rpc_server_start(&respec_server, RPC_SERVER_PROGRAM, "respec"))
		return 1;
	CLIENT *clients[2][3]; /* [transport][0 generic, 1 respec, 2 optimistic] */
	for (int t = RPC_UDP; t <= RPC_TCP; t++) {
		clients[t][0] = open_client(generic_rpc_client_open, (enum rpc_transport)t,
					    t == RPC_UDP ? generic_server.udp_port
							 : generic_server.tcp_port);
		clients[t][1] = open_client(respec_rpc_client_open, (enum rpc_transport)t,
					    t == RPC_UDP ? respec_server.udp_port
							 : respec_server.tcp_port);
#ifdef RPC_OPTIMISTIC
		clients[t][2] = open_client(optimistic_rpc_client_open, (enum rpc_transport)t,
					    t == RPC_UDP ? respec_server.udp_port
							 : respec_server.tcp_port);
#endif
	}

	char name[64];
	for (unsigned which = 0; which < SIZES; which++) {
		snprintf(name, sizeof name, "marshal-%u", sizes[which]);
		struct bench_case *c = bench_add_case(bench, strdup(name));
		for (size_t v = 0; v < sizeof encoder_variants / sizeof encoder_variants[0]; v++)
			add_marshal_variant(c, encoder_variants[v].name,
					    encoder_variants[v].encoders[which], which);
		add_marshal_variant(c, "memcpy", NULL, which);
	}
	for (unsigned which = 0; which < SIZES; which++) {
		snprintf(name, sizeof name, "unmarshal-%u", sizes[which]);
		struct bench_case *c = bench_add_case(bench, strdup(name));
		for (size_t v = 0; v < sizeof decoder_variants / sizeof decoder_variants[0]; v++) {
			struct unmarshal_ctx *ctx = allocate(sizeof *ctx);
			ctx->decode = decoder_variants[v].decode;
			ctx->which = which;
			bench_add_variant(c, decoder_variants[v].name, unmarshal_run,
					  unmarshal_digest, ctx);
		}
	}
	for (int t = RPC_UDP; t <= RPC_TCP; t++) {
		for (unsigned which = 0; which < SIZES; which++) {
			snprintf(name, sizeof name, "roundtrip-%s-%u", t == RPC_UDP ? "udp" : "tcp",
				 sizes[which]);
			struct bench_case *c = bench_add_case(bench, strdup(name));
			add_roundtrip_variant(c, "generic", clients[t][0], generic_rpc_client_echo_ints,
					      generic_rpc_client_error, sizes[which]);
			add_roundtrip_variant(c, "respec", clients[t][1], respec_rpc_client_echo_ints,
					      respec_rpc_client_error, sizes[which]);
#ifdef RPC_OPTIMISTIC
			add_roundtrip_variant(c, "optimistic", clients[t][2],
					      optimistic_rpc_client_echo_ints,
					      optimistic_rpc_client_error, sizes[which]);
#endif
		}
	}

	bench_extra_string(bench, "marshal-N op",
			   "encode_intarray_N: N ints into their XDR message in memory");
	bench_extra_string(bench, "unmarshal-N op",
			   "decode_intarray: that message into a fresh array (malloc'ed by the "
			   "decoder, freed each call)");
	bench_extra_string(bench, "roundtrip op",
			   "ECHO_INTS of N ints, real client and server processes over loopback; "
			   "generic = both sides generic, respec = both sides respec, "
			   "optimistic = the optimistic client with the respec server");
	bench_extra_string(bench, "roundtrip placement",
			   "client and both servers pinned to the same CPU");
	add_code_sizes(bench);
#ifdef RPC_OPTIMISTIC
	add_respecialization_costs(bench, &respec_server);
	add_client_instructions(bench);
#endif
	int status = bench_run(bench);

	for (int t = RPC_UDP; t <= RPC_TCP; t++) {
		generic_rpc_client_close(clients[t][0]);
		respec_rpc_client_close(clients[t][1]);
#ifdef RPC_OPTIMISTIC
		optimistic_rpc_client_close(clients[t][2]);
#endif
	}
	rpc_server_stop(&generic_server);
	rpc_server_stop(&respec_server);
	return status;
}
