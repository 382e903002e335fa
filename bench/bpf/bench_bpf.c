/*
 * bench_bpf.c — the BPF case study's benchmark: ns per packet of every filter of
 * examples/bpf/filters.txt on real and synthetic traffic, for libpcap's
 * interpreter and everything that replaces it, run side by side by the harness
 * (bench/harness.h: outputs checked against generic's first, interleaved rounds,
 * median and min).
 *
 * Variants (bench/README.md names):
 *   generic         the spec compiled with clang -O2: libpcap's bpf_filter.c
 *                   interpreting the program
 *   libpcap         bpf_filter() of the installed libpcap.so (what tcpdump runs)
 *   respec          the spec specialized by respec at build time
 *   respec-runtime  the program specialized at run time (examples/bpf/
 *                   runtime_filter.h); generation time reported apart
 *   clang-lto       the spec and bpf_filter.c through clang -O3 -flto
 *   hand            hand-written C (tcp port 80 only)
 *   dpdk-jit, bpfjit, kernel-jit   the JIT peers (peers.h), where they can run
 *
 * Cases: tcp-port-80/accept (IPv4/TCP packets to port 80) and tcp-port-80/reject
 * (IPv4/UDP), 256 packets each; trace-mix (tcp port 80 over the Ethernet packets
 * of tcpdump's test captures); and <filter>/tcpdump and <filter>/synthetic for
 * every filter (the synthetic mix exercises every branch of each). One operation
 * is one packet; the packets of a case are cycled in order.
 *
 * Before the interleaved runs, run-time specialization is measured on its own
 * (extra figures in the results file):
 *   runtime_gen_ms.<filter>   median time to specialize and compile the filter
 *                             in a running specializer (a program that takes
 *                             a new filter; the filter's earlier code is
 *                             released first, so no cache hit): CPU time of
 *                             the thread that asks (the compile runs in it)
 *   runtime_gen_ms            the largest of those; runtime_gen_ms_median
 *   runtime_gen_wall_ms.<filter>, runtime_gen_wall_ms, runtime_gen_wall_ms_median
 *                             the same as wall-clock latency, from the request
 *                             to callable code (the filters in an order
 *                             shuffled per repetition from the run's seed)
 *   runtime_gen_new_specializer_ms.<filter>   the same in a new specializer,
 *                             creating it (loading the bitcode) included;
 *                             runtime_gen_new_specializer_ms_median
 *   runtime_gen_first_ms      the first specialization of the process (cold;
 *                             runtime_gen_first_wall_ms: wall clock)
 *   runtime_jit_create_ms     loading the embedded bitcode, once per process
 *   runtime_1m_speedup        1M packets of tcp-port-80/accept through the
 *                             interpreter (generic) / generation in a running
 *                             specializer + the same packets through the code
 *   runtime_1m_speedup_vs_libpcap   the same against libpcap.so's bpf_filter
 *                             (Debian's build, gcc) as the interpreter
 *   runtime_1m_speedup_new_specializer   the same as runtime_1m_speedup with a
 *                             new specializer per run (bitcode load included)
 *   runtime_1m_speedup_trace_mix   runtime_1m_speedup over the trace mix
 *   runtime_1m_speedup_async_vs_libpcap   runtime_1m_speedup_vs_libpcap without
 *                             waiting for the compiler: libpcap.so's interpreter
 *                             serves from a slot until a worker thread replugs
 *                             it (wall clock; the compile runs on another CPU);
 *                             runtime_1m_async_interpreted_share: the share of
 *                             the packets the interpreter served
 *   runtime_break_even_packets.<filter>   packets of the synthetic mix after
 *                             which generating the code has paid for itself
 *   kernel_test_run_empty_ns  BPF_PROG_TEST_RUN's own cost per repetition,
 *                             included in kernel-jit's figures
 */
#include "filter_compile.h"
#include "harness.h"
#include "peers.h"
#include "runtime_filter.h"
#include "trace.h"
#include "bpf_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef u_int (*match_fn)(const u_char *packet, u_int wirelen, u_int buflen);

#define DECLARE(prefix, name) u_int prefix##match_##name(const u_char *, u_int, u_int);
#define DECLARE_GENERIC(name, expression) DECLARE(generic_, name)
#define DECLARE_CLANG_LTO(name, expression) DECLARE(clang_lto_, name)
FILTER_LIST(DECLARE_GENERIC)
FILTER_LIST(DECLARE_CLANG_LTO)
#ifdef HAVE_BPF_RESPEC
#define DECLARE_RESPEC(name, expression) DECLARE(respec_, name)
FILTER_LIST(DECLARE_RESPEC)
#define VARIANT_RESPEC(name) respec_match_##name
#else
#define VARIANT_RESPEC(name) NULL
#endif
#ifdef HAVE_BPF_HAND
DECLARE(hand_, tcp_port_80)
#endif

struct bench_filter {
	const char *name, *expression;
	match_fn generic, clang_lto, respec;
	struct bpf_program program;
	bpf_match_fn runtime; /* NULL without run-time specialization */
};

#define FILTER_ENTRY(filter, text)                                                        \
	{ .name = #filter, .expression = text, .generic = generic_match_##filter,        \
	  .clang_lto = clang_lto_match_##filter, .respec = VARIANT_RESPEC(filter) },
static struct bench_filter filters[] = { FILTER_LIST(FILTER_ENTRY) };
enum { NFILTERS = sizeof filters / sizeof filters[0] };

/* ---- variants: a packet cursor and what filters the packets ---- */

struct static_variant {
	struct packet_cursor cursor; /* first: packet_cursor_digest reads it */
	match_fn match;
};

static void static_run(void *opaque, uint64_t iterations)
{
	struct static_variant *variant = opaque;
	for (uint64_t i = 0; i < iterations; i++) {
		size_t index = packet_cursor_advance(&variant->cursor);
		const struct trace_packet *packet = &variant->cursor.packets[index];
		variant->cursor.verdicts[index] =
			variant->match(packet->data, packet->wirelen, packet->caplen);
	}
}

/* libpcap's bpf_filter and run-time specialized code take the program too. */
struct program_variant {
	struct packet_cursor cursor; /* first */
	bpf_match_fn match;
	const struct bpf_insn *insns;
};

static void program_run(void *opaque, uint64_t iterations)
{
	struct program_variant *variant = opaque;
	for (uint64_t i = 0; i < iterations; i++) {
		size_t index = packet_cursor_advance(&variant->cursor);
		const struct trace_packet *packet = &variant->cursor.packets[index];
		variant->cursor.verdicts[index] =
			variant->match(variant->insns, packet->data, packet->wirelen, packet->caplen);
	}
}

static uint64_t packet_cursor_digest(void *opaque)
{
	const struct packet_cursor *cursor = opaque;
	return bench_digest_bytes(BENCH_DIGEST_INIT, cursor->verdicts,
				  cursor->count * sizeof *cursor->verdicts);
}

static void *checked(void *pointer)
{
	if (pointer == NULL) {
		perror("bench-bpf");
		exit(1);
	}
	return pointer;
}

static struct packet_cursor new_cursor(const struct trace *packets)
{
	return (struct packet_cursor){
		.packets = packets->packets,
		.count = packets->count,
		.verdicts = checked(calloc(packets->count, sizeof(u_int))),
	};
}

static void add_static(struct bench_case *c, const char *variant, const struct trace *packets,
		       match_fn match)
{
	struct static_variant *ctx = checked(malloc(sizeof *ctx));
	*ctx = (struct static_variant){ new_cursor(packets), match };
	bench_add_variant(c, variant, static_run, packet_cursor_digest, ctx);
}

static void add_program(struct bench_case *c, const char *variant, const struct trace *packets,
			bpf_match_fn match, const struct bench_filter *filter)
{
	struct program_variant *ctx = checked(malloc(sizeof *ctx));
	*ctx = (struct program_variant){ new_cursor(packets), match, filter->program.bf_insns };
	bench_add_variant(c, variant, program_run, packet_cursor_digest, ctx);
}

typedef void *(*peer_create_fn)(const struct bpf_program *, const struct packet_cursor *, char *,
				size_t);

/* Adds a JIT peer if it can run this case with libpcap's verdicts; otherwise
 * says why it is left out (the harness would stop at a differing output). */
static void add_peer(struct bench_case *c, const char *case_name, const char *variant,
		     const struct trace *packets, const struct bench_filter *filter,
		     peer_create_fn create, bench_run_fn run)
{
	char why[512];
	struct packet_cursor cursor = new_cursor(packets);
	void *ctx = create(&filter->program, &cursor, why, sizeof why);
	if (ctx == NULL) {
		printf("%s: %s left out: %s\n", case_name, variant, why);
		free(cursor.verdicts);
		return;
	}
	run(ctx, packets->count);
	size_t differ = 0;
	for (size_t i = 0; i < packets->count; i++) {
		const struct trace_packet *p = &packets->packets[i];
		differ += cursor.verdicts[i] !=
			  bpf_filter(filter->program.bf_insns, p->data, p->wirelen, p->caplen);
	}
	if (differ) {
		printf("%s: %s left out: %zu of %zu verdicts differ from libpcap's (its packet "
		       "model has one length)\n", case_name, variant, differ, packets->count);
		return;
	}
	bench_add_variant(c, variant, run, packet_cursor_digest, ctx);
}

static void add_case(struct bench *bench, const char *name, const struct bench_filter *filter,
		     const struct trace *packets)
{
	if (packets->count == 0) {
		fprintf(stderr, "bench-bpf: case %s has no packets\n", name);
		exit(1);
	}
	struct bench_case *c = bench_add_case(bench, name);
	bench_case_check_iterations(c, packets->count);
	add_static(c, "generic", packets, filter->generic);
	add_program(c, "libpcap", packets, bpf_filter, filter);
	if (filter->respec != NULL)
		add_static(c, "respec", packets, filter->respec);
	if (filter->runtime != NULL)
		add_program(c, "respec-runtime", packets, filter->runtime, filter);
	add_static(c, "clang-lto", packets, filter->clang_lto);
#ifdef HAVE_BPF_HAND
	if (strcmp(filter->name, "tcp_port_80") == 0)
		add_static(c, "hand", packets, hand_match_tcp_port_80);
#endif
#ifdef HAVE_DPDK_JIT
	add_peer(c, name, "dpdk-jit", packets, filter, dpdk_jit_create, dpdk_jit_run);
#endif
#ifdef HAVE_BPFJIT
	add_peer(c, name, "bpfjit", packets, filter, bpfjit_create, bpfjit_run);
#endif
	add_peer(c, name, "kernel-jit", packets, filter, kernel_jit_create, kernel_jit_run);
}

/* ---- inputs ---- */

static void load_file(struct trace *trace, const char *path)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	if (trace_add_file(trace, path, errbuf) != 0) {
		fprintf(stderr, "bench-bpf: %s\n", errbuf);
		exit(1);
	}
}

static void compile_filters(void)
{
	pcap_t *handle = pcap_open_dead(DLT_EN10MB, BPF_CASE_SNAPLEN);
	for (size_t f = 0; f < NFILTERS; f++)
		bpf_compile_or_exit(handle, filters[f].expression, &filters[f].program);
	pcap_close(handle);
}

static const struct bench_filter *find_filter(const char *name)
{
	for (size_t f = 0; f < NFILTERS; f++)
		if (strcmp(filters[f].name, name) == 0)
			return &filters[f];
	fprintf(stderr, "bench-bpf: no filter %s\n", name);
	exit(1);
}

/* ---- run-time specialization, measured apart ---- */

/* CPU time of this thread, as the harness measures here: generation runs in the
 * calling thread, and a neighbour holding the CPU does not count. */
static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *values, size_t n)
{
	qsort(values, n, sizeof *values, compare_doubles);
	return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

static void extra_per_filter(struct bench *bench, const char *key, const char *filter,
			     double value)
{
	char name[128];
	snprintf(name, sizeof name, "%s.%s", key, filter);
	bench_extra_number(bench, name, value);
}

#ifdef RESPEC_BPF_RUNTIME
enum { GEN_REPETITIONS = 5, RUN_REPETITIONS = 7, RUN_PACKETS = 1000000 };

/* Filters RUN_PACKETS packets, cycling; returns the number accepted. */
static uint64_t run_static(match_fn match, const struct trace *packets)
{
	uint64_t accepted = 0;
	for (size_t i = 0, index = 0; i < RUN_PACKETS; i++) {
		const struct trace_packet *p = &packets->packets[index];
		accepted += match(p->data, p->wirelen, p->caplen) != 0;
		index = index + 1 == packets->count ? 0 : index + 1;
	}
	return accepted;
}

static uint64_t run_program(bpf_match_fn match, const struct bpf_insn *insns,
			    const struct trace *packets)
{
	uint64_t accepted = 0;
	for (size_t i = 0, index = 0; i < RUN_PACKETS; i++) {
		const struct trace_packet *p = &packets->packets[index];
		accepted += match(insns, p->data, p->wirelen, p->caplen) != 0;
		index = index + 1 == packets->count ? 0 : index + 1;
	}
	return accepted;
}

/* Specializes the filter with `jit`; exits with a message on failure. */
static bpf_match_fn specialize_or_exit(respec_jit *jit, const struct bench_filter *filter)
{
	bpf_match_fn match = bpf_runtime_specialize(jit, &filter->program);
	if (match == NULL) {
		fprintf(stderr, "bench-bpf: run-time specialization of '%s': %s\n",
			filter->expression, respec_jit_error(jit));
		exit(1);
	}
	return match;
}

/* Wall-clock time: latency, and in an asynchronous run the compile is another
 * thread's work. */
static double wall_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Time to specialize and compile the filter in a running specializer, CPU time of
 * this thread to *cpu_ms and wall clock to *wall: its code from an earlier request
 * is released first, so this is a real compile. */
static void generation_ms(respec_jit *jit, const struct bench_filter *filter, double *cpu_ms,
			  double *wall)
{
	double start = now_ms(), wall_start = wall_ms();
	bpf_match_fn match = specialize_or_exit(jit, filter);
	*wall = wall_ms() - wall_start;
	*cpu_ms = now_ms() - start;
	if (respec_jit_release(jit, (void *)match) != 0) {
		fprintf(stderr, "bench-bpf: %s\n", respec_jit_error(jit));
		exit(1);
	}
}

/* Time to load the bitcode into a new specializer and specialize the filter. */
static double new_specializer_ms(const struct bench_filter *filter)
{
	double start = now_ms();
	respec_jit *jit = bpf_runtime_create();
	if (jit == NULL)
		exit(1);
	specialize_or_exit(jit, filter);
	double ms = now_ms() - start;
	respec_jit_destroy(jit);
	return ms;
}

/* Exits with a message unless `who` accepted as many packets as the interpreter. */
static void check_accepted(const struct bench_filter *filter, const char *who,
			   uint64_t accepted, uint64_t expected)
{
	if (accepted == expected)
		return;
	fprintf(stderr, "bench-bpf: '%s': %s accepted %llu packets, the interpreter %llu\n",
		filter->expression, who, (unsigned long long)accepted,
		(unsigned long long)expected);
	exit(1);
}

/*
 * RUN_PACKETS packets through an interpreter (libpcap.so's bpf_filter, or with
 * NULL the filter's generic variant) and through run-time specialized code,
 * generation included, interleaved RUN_REPETITIONS times. Generation is
 * that of a running specializer (`jit`; the filter's code is released after
 * each run), or with `jit` NULL, of one created for each run (bitcode load
 * included). Returns interpreter time / (generation + specialized run), by
 * medians; the per-packet figures go to *interp_ns and *specialized_ns,
 * generation to *gen_ms.
 */
static double one_million_run(respec_jit *jit, bpf_match_fn interpreter,
			      const struct bench_filter *filter, const struct trace *packets,
			      double *interp_ns, double *specialized_ns, double *gen_ms)
{
	double interp[RUN_REPETITIONS], total[RUN_REPETITIONS], gen[RUN_REPETITIONS],
		specialized[RUN_REPETITIONS];
	for (int r = 0; r < RUN_REPETITIONS; r++) {
		double start = now_ms();
		uint64_t expected = interpreter
					    ? run_program(interpreter, filter->program.bf_insns, packets)
					    : run_static(filter->generic, packets);
		interp[r] = now_ms() - start;

		start = now_ms();
		respec_jit *run_jit = jit != NULL ? jit : bpf_runtime_create();
		if (run_jit == NULL)
			exit(1);
		bpf_match_fn match = specialize_or_exit(run_jit, filter);
		double generated = now_ms();
		uint64_t accepted = run_program(match, filter->program.bf_insns, packets);
		double end = now_ms();
		total[r] = end - start;
		gen[r] = generated - start;
		specialized[r] = end - generated;
		if (jit != NULL)
			respec_jit_release(jit, (void *)match);
		else
			respec_jit_destroy(run_jit);
		check_accepted(filter, "run-time specialized code", accepted, expected);
	}
	double interp_ms = median(interp, RUN_REPETITIONS);
	*interp_ns = interp_ms * 1e6 / RUN_PACKETS;
	*specialized_ns = median(specialized, RUN_REPETITIONS) * 1e6 / RUN_PACKETS;
	*gen_ms = median(gen, RUN_REPETITIONS);
	return interp_ms / median(total, RUN_REPETITIONS);
}

enum { ASYNC_BATCH_PACKETS = 256 };

/* RUN_PACKETS packets through the slot, one entry per batch as respec-pcap
 * does; returns the number accepted, the packets the interpreter served go to
 * *interpreted. */
static uint64_t run_slot(respec_slot *slot, const struct bpf_insn *insns,
			 const struct trace *packets, uint64_t *interpreted)
{
	uint64_t accepted = 0;
	*interpreted = 0;
	for (size_t done = 0, index = 0, batch; done < RUN_PACKETS; done += batch) {
		batch = RUN_PACKETS - done < ASYNC_BATCH_PACKETS ? RUN_PACKETS - done
								 : ASYNC_BATCH_PACKETS;
		bpf_match_fn match = (bpf_match_fn)respec_enter(slot);
		for (size_t i = 0; i < batch; i++) {
			const struct trace_packet *p = &packets->packets[index];
			accepted += match(insns, p->data, p->wirelen, p->caplen) != 0;
			index = index + 1 == packets->count ? 0 : index + 1;
		}
		respec_exit(slot);
		if (match == match_program)
			*interpreted += batch;
	}
	return accepted;
}

/*
 * RUN_PACKETS packets as a program that never waits for the compiler runs
 * them (runtime_filter.h, respec-pcap --engine=auto): the request is queued
 * with the first packet, libpcap's interpreter (match_program, clang -O2)
 * serves from a slot until `jit`'s worker thread replugs it to the specialized
 * code. Interleaved RUN_REPETITIONS times with the interpreter alone; both in
 * wall-clock time, since the compile runs on another thread. Returns
 * interpreter / asynchronous run by medians; the interpreter's ns per packet
 * go to *interp_ns, the median share of packets it served in the asynchronous
 * run to *interpreted_share.
 */
static double one_million_run_async(respec_jit *jit, const struct bench_filter *filter,
				    const struct trace *packets, double *interp_ns,
				    double *interpreted_share)
{
	double interp[RUN_REPETITIONS], total[RUN_REPETITIONS], share[RUN_REPETITIONS];
	const struct bpf_insn *insns = filter->program.bf_insns;
	for (int r = 0; r < RUN_REPETITIONS; r++) {
		double start = wall_ms();
		uint64_t expected = run_program(match_program, insns, packets);
		interp[r] = wall_ms() - start;

		respec_slot slot = { 0 };
		uint64_t interpreted;
		if (respec_slot_init(&slot, "bench-bpf filter", RESPEC_PROTOCOL_EPOCH,
				     RESPEC_FN(match_program)) != 0) {
			fprintf(stderr, "bench-bpf: %s\n", respec_last_error());
			exit(1);
		}
		start = wall_ms();
		if (bpf_runtime_specialize_async(jit, &filter->program, &slot) != 0) {
			fprintf(stderr, "bench-bpf: %s\n", respec_jit_error(jit));
			exit(1);
		}
		uint64_t accepted = run_slot(&slot, insns, packets, &interpreted);
		total[r] = wall_ms() - start;
		share[r] = (double)interpreted / RUN_PACKETS;

		respec_jit_wait(jit);
		respec_fn code = respec_slot_current(&slot);
		if (code == RESPEC_FN(match_program) ||
		    respec_replug(&slot, RESPEC_FN(match_program)) != 0 ||
		    respec_jit_release(jit, (void *)code) != 0 || respec_slot_destroy(&slot) != 0) {
			fprintf(stderr, "bench-bpf: '%s': the asynchronous specialization did not "
					"complete and unplug cleanly\n", filter->expression);
			exit(1);
		}
		check_accepted(filter, "the asynchronous run", accepted, expected);
	}
	double interp_ms = median(interp, RUN_REPETITIONS);
	*interp_ns = interp_ms * 1e6 / RUN_PACKETS;
	*interpreted_share = median(share, RUN_REPETITIONS);
	return interp_ms / median(total, RUN_REPETITIONS);
}

static void report_one_million(struct bench *bench, const char *key, const char *what,
			       double speedup, double interp_ns, double gen_ms,
			       double specialized_ns)
{
	printf("1M packets, %s: interpreter %.1f ns/packet; generation %.2f ms + specialized "
	       "%.1f ns/packet: %.2fx\n", what, interp_ns, gen_ms, specialized_ns, speedup);
	bench_extra_number(bench, key, speedup);
}

static void measure_runtime(struct bench *bench, const struct trace *accept,
			    const struct trace *trace_mix, const struct trace *synthetic)
{
	double start = now_ms();
	respec_jit *jit = bpf_runtime_create();
	if (jit == NULL)
		exit(1);
	bench_extra_number(bench, "runtime_jit_create_ms", now_ms() - start);
	/* The variants' code: the first specialization of the process is the cold one. */
	for (size_t f = 0; f < NFILTERS; f++) {
		double wall_start = wall_ms();
		start = now_ms();
		filters[f].runtime = specialize_or_exit(jit, &filters[f]);
		if (f == 0) {
			bench_extra_number(bench, "runtime_gen_first_ms", now_ms() - start);
			bench_extra_number(bench, "runtime_gen_first_wall_ms", wall_ms() - wall_start);
		}
	}

	/* A second specializer generates and releases; the variants' code stays. */
	respec_jit *running = bpf_runtime_create();
	if (running == NULL)
		exit(1);
	double gen[NFILTERS][GEN_REPETITIONS], gen_wall[NFILTERS][GEN_REPETITIONS],
		fresh[NFILTERS][GEN_REPETITIONS], medians[NFILTERS], wall_medians[NFILTERS],
		fresh_medians[NFILTERS], worst = 0, worst_wall = 0;
	uint64_t order_state = bench_seed(bench);
	int order[NFILTERS];
	for (size_t f = 0; f < NFILTERS; f++)
		order[f] = (int)f;
	for (int r = 0; r < GEN_REPETITIONS; r++) {
		bench_shuffle(&order_state, order, NFILTERS);
		for (size_t i = 0; i < NFILTERS; i++) {
			int f = order[i];
			generation_ms(running, &filters[f], &gen[f][r], &gen_wall[f][r]);
			fresh[f][r] = new_specializer_ms(&filters[f]);
		}
	}
	printf("run-time generation, ms (median of %d): running specializer, CPU time / wall "
	       "clock; new specializer (bitcode load included), CPU time\n", GEN_REPETITIONS);
	for (size_t f = 0; f < NFILTERS; f++) {
		medians[f] = median(gen[f], GEN_REPETITIONS);
		wall_medians[f] = median(gen_wall[f], GEN_REPETITIONS);
		fresh_medians[f] = median(fresh[f], GEN_REPETITIONS);
		worst = medians[f] > worst ? medians[f] : worst;
		worst_wall = wall_medians[f] > worst_wall ? wall_medians[f] : worst_wall;
		printf("  %-18s %6.2f / %6.2f  %6.2f  (%u instructions)\n", filters[f].name,
		       medians[f], wall_medians[f], fresh_medians[f], filters[f].program.bf_len);
		extra_per_filter(bench, "runtime_gen_ms", filters[f].name, medians[f]);
		extra_per_filter(bench, "runtime_gen_wall_ms", filters[f].name, wall_medians[f]);
		extra_per_filter(bench, "runtime_gen_new_specializer_ms", filters[f].name,
				 fresh_medians[f]);
	}
	bench_extra_number(bench, "runtime_gen_ms", worst);
	bench_extra_number(bench, "runtime_gen_ms_median", median(medians, NFILTERS));
	bench_extra_number(bench, "runtime_gen_wall_ms", worst_wall);
	bench_extra_number(bench, "runtime_gen_wall_ms_median", median(wall_medians, NFILTERS));
	bench_extra_number(bench, "runtime_gen_new_specializer_ms_median",
			   median(fresh_medians, NFILTERS));

	const struct bench_filter *tcp80 = find_filter("tcp_port_80");
	double interp_ns, specialized_ns, gen_ms, speedup;
	speedup = one_million_run(running, NULL, tcp80, accept,
				  &interp_ns, &specialized_ns, &gen_ms);
	report_one_million(bench, "runtime_1m_speedup", "tcp-port-80/accept", speedup, interp_ns,
			   gen_ms, specialized_ns);
	speedup = one_million_run(running, bpf_filter, tcp80, accept,
				  &interp_ns, &specialized_ns, &gen_ms);
	report_one_million(bench, "runtime_1m_speedup_vs_libpcap",
			   "tcp-port-80/accept, libpcap.so's interpreter", speedup, interp_ns,
			   gen_ms, specialized_ns);
	speedup = one_million_run(NULL, NULL, tcp80, accept, &interp_ns,
				  &specialized_ns, &gen_ms);
	report_one_million(bench, "runtime_1m_speedup_new_specializer",
			   "tcp-port-80/accept, new specializer", speedup, interp_ns, gen_ms,
			   specialized_ns);
	double interpreted_share;
	speedup = one_million_run_async(running, tcp80, accept, &interp_ns, &interpreted_share);
	printf("1M packets, tcp-port-80/accept, asynchronous, libpcap.so's interpreter (wall "
	       "clock): interpreter %.1f ns/packet, it served %.1f%% of the packets while the "
	       "code was generated: %.2fx\n", interp_ns, interpreted_share * 100, speedup);
	bench_extra_number(bench, "runtime_1m_speedup_async_vs_libpcap", speedup);
	bench_extra_number(bench, "runtime_1m_async_interpreted_share", interpreted_share);
	speedup = one_million_run(running, NULL, tcp80, trace_mix,
				  &interp_ns, &specialized_ns, &gen_ms);
	report_one_million(bench, "runtime_1m_speedup_trace_mix", "trace-mix", speedup, interp_ns,
			   gen_ms, specialized_ns);

	printf("break-even on the synthetic mix (packets after which generation has paid):\n");
	for (size_t f = 0; f < NFILTERS; f++) {
		one_million_run(running, NULL, &filters[f],
				synthetic, &interp_ns, &specialized_ns, &gen_ms);
		double saved_ns = interp_ns - specialized_ns;
		double packets = saved_ns > 0 ? gen_ms * 1e6 / saved_ns : -1;
		printf("  %-18s %10.0f  (%.1f -> %.1f ns/packet)\n", filters[f].name, packets,
		       interp_ns, specialized_ns);
		extra_per_filter(bench, "runtime_break_even_packets", filters[f].name, packets);
	}
	respec_jit_destroy(running);
}
#endif

int main(int argc, char **argv)
{
	struct bench *bench = bench_create("bpf", argc, argv);
	/* Filtering computes without blocking (kernel-jit's test runs are this
	 * thread's system time): samples count only the time we held the CPU. */
	bench_use_thread_cpu_time(bench);
	compile_filters();

	struct trace accept = { 0 }, reject = { 0 }, synthetic = { 0 }, trace_mix = { 0 };
	load_file(&accept, BPF_SYNTHETIC_DIR "/tcp80-accept.pcap");
	load_file(&reject, BPF_SYNTHETIC_DIR "/tcp80-reject.pcap");
	load_file(&synthetic, BPF_SYNTHETIC_DIR "/synthetic-mix.pcap");
	if (trace_add_directory(&trace_mix, BPF_TCPDUMP_TESTS) != 0 || trace_mix.files == 0) {
		fprintf(stderr, "bench-bpf: no tcpdump test captures in %s\n", BPF_TCPDUMP_TESTS);
		return 1;
	}
	trace_keep_linktype(&trace_mix, DLT_EN10MB);
	printf("trace-mix: %zu Ethernet packets of %u tcpdump test captures; synthetic mix: %zu "
	       "packets\n", trace_mix.count, trace_mix.files, synthetic.count);

#ifdef RESPEC_BPF_RUNTIME
	measure_runtime(bench, &accept, &trace_mix, &synthetic);
#else
	printf("respec-runtime left out: built without run-time specialization\n");
#endif
#ifndef HAVE_DPDK_JIT
	printf("dpdk-jit left out: bench-bpf was built without DPDK (libdpdk-dev)\n");
#endif
#ifndef HAVE_BPFJIT
	printf("bpfjit left out: bench-bpf was built without the bpfjit crate (cargo)\n");
#endif
	struct packet_cursor empty_cursor = new_cursor(&accept);
	double empty_ns = kernel_jit_empty_program_ns(&empty_cursor);
	if (empty_ns >= 0)
		bench_extra_number(bench, "kernel_test_run_empty_ns", empty_ns);

	const struct bench_filter *tcp80 = find_filter("tcp_port_80");
	add_case(bench, "tcp-port-80/accept", tcp80, &accept);
	add_case(bench, "tcp-port-80/reject", tcp80, &reject);
	add_case(bench, "trace-mix", tcp80, &trace_mix);
	for (size_t f = 0; f < NFILTERS; f++) {
		char name[128], *dash;
		for (int set = 0; set < 2; set++) {
			if (set == 0 && &filters[f] == tcp80)
				continue; /* that is trace-mix */
			snprintf(name, sizeof name, "%s/%s", filters[f].name,
				 set == 0 ? "tcpdump" : "synthetic");
			while ((dash = strchr(name, '_')) != NULL)
				*dash = '-';
			add_case(bench, strdup(name), &filters[f], set == 0 ? &trace_mix : &synthetic);
		}
	}
	return bench_run(bench);
}
