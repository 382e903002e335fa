/*
 * bench_profile.c — `bench/run profile`: what respec profile's instrumentation costs
 * (issue 15's goal: a profiled run at most 2x the program's time) and how long its
 * report takes, on the case studies' programs built with the value profiling
 * (examples/profile):
 *
 *   respec-pcap        libpcap's interpreter over the synthetic capture, read
 *                      CAPTURES times (tools/respec-pcap, engine interp):
 *                      "generic" respec-pcap-unprofiled, "profiled"
 *                      respec-pcap-profiled (the same sources, compiler and flags,
 *                      but the plugin and its library)
 *   rpc-calls          ECHO_INTS of 20 ints over loopback UDP to the real rpc-server,
 *                      CALLS times: "generic" rpc-calls with its generic client,
 *                      "profiled" the same client stack built with the profiling
 *
 * and in extra, the median wall time of `respec profile report` on the respec-pcap
 * profile (report_ms_median, of five runs), and the report's predicted speedup
 * checked against a measured one, for every filter of the BPF case study
 * (examples/bpf/filters.txt) over the synthetic capture:
 *
 *   predicted_speedup.<filter>  from `respec profile report --top 1 --measure 1`
 *                               on the profile of respec-pcap-profiled filtering
 *                               the capture once with libpcap's interpreter
 *   measured_speedup.<filter>   the median ns/packet respec-pcap reports for its
 *                               interp engine over that of its respec engine
 *                               (the filter specialized at run time), runs of the
 *                               CAPTURES captures alternating between the engines
 *                               (interp_ns.<filter>, respec_ns.<filter>); the
 *                               engines' match counts are checked equal
 *   prediction_ratio.<filter>   predicted over measured (issue 15's goal: within
 *                               0.5..2)
 *
 * and the same for the I/O predicates, on unmodified Debian programs reading a
 * 64 MiB text file (wc -l, grep -c, cat), and on byte_reader reading a 1 MiB
 * file one byte per read(2):
 *
 *   io_predicted_speedup.<program>  from the report on the profile the files
 *                               observer (respec profile --preload) wrote;
 *                               1 when it ranks no file (no saving)
 *   io_measured_speedup.<program>   the median CPU time (user + system) of the
 *                               program over that of the program under
 *                               librespec-io's shim (LD_PRELOAD), runs
 *                               alternating; outputs checked equal
 *   io_prediction_ratio.<program>   predicted over measured
 *
 * and the same for the Sun RPC case study: xdr_int with its stream's operations
 * table and operation stated, the facts the report measures on rpc-calls (a
 * pointer into the file-static xdrmem_ops, named by the program's symbol
 * tables, and a variant per value of the stream's operation):
 *
 *   rpc_predicted_speedup.xdr_int  from `respec profile report --top 3 --measure 3
 *                               --specs DIR` on the profile of rpc-calls-profiled
 *                               (500 calls of ECHO_INTS, 20 ints, UDP); its draft
 *                               spec must state the facts of
 *                               examples/rpc/xdr_int_fact_spec.c, checked
 *   rpc_measured_speedup.xdr_int   that spec's generic variant (xdr_int) over its
 *                               respec variants (one per operation), ns per
 *                               call, median of runs alternating between them,
 *                               each encoding, decoding and freeing 20 ints on a
 *                               memory stream XDR_ROUNDS times (thread CPU time),
 *                               the operations weighed by their shares of
 *                               xdr_int's calls in the profiled run (as the
 *                               prediction is); the encoded bytes and decoded
 *                               ints are checked equal
 *   rpc_prediction_ratio.xdr_int   predicted over measured
 *
 * Each sample runs the program once (wall time, the child on the harness's pinned
 * CPU); the variants' outputs are checked equal first (rpc-calls prints its time per
 * call: only the digest of the echoes is compared). The profiled runs write their
 * profile into a work directory, as a user's would.
 *
 * Then the cases writes-0 ... writes-unbounded: the feedback policy's curve, a
 * predicate under an adversarial writer (feedback_curve.c).
 */
#define _GNU_SOURCE
#include "feedback_curve.h"
#include <rpc/types.h>
#include <rpc/xdr.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct program_run {
	char **argv;
	char **envp;
	uint64_t digest;
};

/* Only allocation fails here, and then nothing can be measured. */
static void *allocate(size_t count, size_t size)
{
	void *p = calloc(count, size);
	if (!p) {
		perror("bench-profile");
		exit(1);
	}
	return p;
}

static void run_program(void *ctx, uint64_t iterations)
{
	struct program_run *r = ctx;
	for (uint64_t i = 0; i < iterations; i++)
		r->digest = bench_spawn_digest(r->argv, r->envp, 0, false).digest;
}

static uint64_t program_digest(void *ctx)
{
	return ((struct program_run *)ctx)->digest;
}

/* A shell command, run by sh -c, with RESPEC_PROFILE_OUT set to profile_out when given. */
static struct program_run *command(const char *shell_command, const char *profile_out)
{
	struct program_run *r = allocate(1, sizeof *r);
	r->argv = allocate(4, sizeof *r->argv);
	r->argv[0] = "sh", r->argv[1] = "-c", r->argv[2] = (char *)shell_command;
	if (profile_out) {
		extern char **environ;
		size_t n = 0;
		while (environ[n])
			n++;
		r->envp = allocate(n + 2, sizeof *r->envp);
		memcpy(r->envp, environ, n * sizeof *r->envp);
		r->envp[n] = bench_text("RESPEC_PROFILE_OUT=%s", profile_out);
	}
	return r;
}

/* Standard output and error of a shell command; exits if it fails. */
static char *command_output(const char *shell_command)
{
	FILE *out = popen(bench_text("%s 2>&1", shell_command), "r");
	size_t size = 0;
	char *text = NULL;
	FILE *buffer = open_memstream(&text, &size);
	if (!out || !buffer) {
		perror("bench-profile: popen");
		exit(1);
	}
	for (int ch; (ch = fgetc(out)) != EOF;)
		fputc(ch, buffer);
	fclose(buffer);
	if (pclose(out) != 0) {
		fprintf(stderr, "bench-profile: failed: %s\n%s", shell_command, text);
		exit(1);
	}
	return text;
}

/* The number after `label` in text; exits when there is none. */
static double number_after(const char *text, const char *label, const char *command)
{
	const char *at = strstr(text, label);
	if (!at) {
		fprintf(stderr, "bench-profile: no '%s' in the output of %s:\n%s", label, command, text);
		exit(1);
	}
	return strtod(at + strlen(label), NULL);
}

/* The prediction of the report against respec-pcap's measured speedup, filter by
 * filter (the file comment says how). */
static void compare_predictions(struct bench *bench, const char *work, const char *files,
				int repetitions)
{
	FILE *list = fopen(BPF_FILTERS, "r");
	if (!list) {
		perror("bench-profile: " BPF_FILTERS);
		exit(1);
	}
	char line[512];
	printf("predicted vs measured speedup of libpcap's filter (respec-pcap, %d runs each):\n",
	       repetitions);
	while (fgets(line, sizeof line, list)) {
		char *tab = strchr(line, '\t');
		if (line[0] == '#' || !tab)
			continue;
		*tab = '\0';
		const char *name = line;
		char *expression = bench_text("%s", tab + 1);
		expression[strcspn(expression, "\n")] = '\0';
		char *profile = bench_text("%s/%s.profile", work, name);
		command_output(bench_text("RESPEC_PROFILE_OUT=%s %s --engine=interp --quiet '%s' %s/synthetic-mix.pcap",
					  profile, RESPEC_PCAP_PROFILED, expression, BPF_TRACES));
		char *report = bench_text("%s profile report %s --top 1 --measure 1", RESPEC_TOOL_PATH, profile);
		double predicted = number_after(command_output(report), "predicted speedup ", report);

		double interp_ns[repetitions], respec_ns[repetitions];
		double matched[2] = { -1, -1 };
		for (int r = 0; r < repetitions; r++)
			for (int engine = 0; engine < 2; engine++) {
				const char *engine_name = engine ? "respec" : "interp";
				char *run = bench_text("%s --engine=%s '%s'%s", RESPEC_PCAP_JIT, engine_name,
						       expression, files);
				char *output = command_output(run);
				double ns = number_after(output, bench_text("engine %s: ", engine_name), run);
				/* "N packets in F files, M match": M */
				const char *totals = strstr(output, " packets in ");
				const char *count = totals ? strstr(totals, ", ") : NULL;
				double match = count ? strtod(count + 2, NULL) : -1;
				if (matched[engine] >= 0 && matched[engine] != match) {
					fprintf(stderr, "bench-profile: %s: match counts differ between runs\n", name);
					exit(1);
				}
				matched[engine] = match;
				(engine ? respec_ns : interp_ns)[r] = ns;
				free(output);
			}
		if (matched[0] != matched[1]) {
			fprintf(stderr, "bench-profile: %s: the engines match %.0f and %.0f packets\n", name,
				matched[0], matched[1]);
			exit(1);
		}
		double interp = bench_stats(interp_ns, repetitions).median;
		double respec = bench_stats(respec_ns, repetitions).median;
		double measured = interp / respec;
		printf("  %-18s predicted %5.2fx  measured %5.2fx (%.1f / %.1f ns/packet)  ratio %.2f\n",
		       name, predicted, measured, interp, respec, predicted / measured);
		bench_extra_number(bench, bench_text("predicted_speedup.%s", name), predicted);
		bench_extra_number(bench, bench_text("measured_speedup.%s", name), measured);
		bench_extra_number(bench, bench_text("prediction_ratio.%s", name), predicted / measured);
		bench_extra_number(bench, bench_text("interp_ns.%s", name), interp);
		bench_extra_number(bench, bench_text("respec_ns.%s", name), respec);
	}
	fclose(list);
}

/* A text file of about `bytes` bytes, lines a grep can count. */
static const char *write_text_file(const char *path, long bytes)
{
	FILE *out = fopen(path, "w");
	if (!out) {
		perror(path);
		exit(1);
	}
	for (long written = 0, line = 0; written < bytes; line++)
		written += fprintf(out, "line %ld of the text respec profile reads%s\n", line,
				   line % 7 ? "" : " (respec lima)");
	if (fclose(out) != 0) {
		perror(path);
		exit(1);
	}
	return path;
}

/* The report's predicted speedup for a program reading files, against its
 * measured one under librespec-io's shim (the file comment says how). */
static void compare_io_predictions(struct bench *bench, const char *work, int repetitions)
{
	const char *text = write_text_file(bench_text("%s/text.dat", work), 64L << 20);
	const char *small = write_text_file(bench_text("%s/small.dat", work), 1L << 20);
	struct {
		const char *name, *command;
	} programs[] = {
		{ "wc", bench_text("wc -l %s", text) },
		{ "grep", bench_text("grep -c 'respec lima' %s", text) },
		{ "cat", bench_text("cat %s", text) },
		{ "byte-reader", bench_text("%s %s", BYTE_READER, small) },
	};
	/* librespec-io measures its costs at its first decision and caches them:
	 * the observer then records them for the report. */
	command_output(bench_text("LD_PRELOAD=%s %s >/dev/null", IO_PRELOAD, programs[0].command));
	printf("predicted vs measured speedup of programs reading a 64 MiB file under "
	       "librespec-io (%d runs each):\n", repetitions);
	for (size_t p = 0; p < sizeof programs / sizeof programs[0]; p++) {
		const char *name = programs[p].name;
		char *profile = bench_text("%s/%s.profile", work, name);
		command_output(bench_text("RESPEC_PROFILE_OUT=%s LD_PRELOAD=%s %s >/dev/null", profile,
					  PROFILE_FILES, programs[p].command));
		char *report = bench_text("%s profile report %s.files --top 1", RESPEC_TOOL_PATH, profile);
		char *ranked = command_output(report);
		/* No candidate: specializing would not pay, the report predicts no gain
		 * (and librespec-io's own cost model declines such files too). */
		double predicted = strstr(ranked, " 0 candidate predicates")
					   ? 1.0
					   : number_after(ranked, "predicted speedup ", report);

		char *argv[] = { "sh", "-c", (char *)programs[p].command, NULL };
		extern char **environ;
		size_t n = 0;
		while (environ[n])
			n++;
		char **shimmed = allocate(n + 2, sizeof *shimmed);
		memcpy(shimmed, environ, n * sizeof *shimmed);
		shimmed[n] = bench_text("LD_PRELOAD=%s", IO_PRELOAD);
		double plain_ns[repetitions], shim_ns[repetitions];
		for (int r = 0; r < repetitions; r++) {
			struct bench_program_run plain = bench_spawn_digest(argv, NULL, 0, false);
			struct bench_program_run shim = bench_spawn_digest(argv, shimmed, 0, false);
			if (plain.digest != shim.digest) {
				fprintf(stderr, "bench-profile: %s prints differently under librespec-io\n", name);
				exit(1);
			}
			plain_ns[r] = plain.cpu_ns, shim_ns[r] = shim.cpu_ns;
		}
		double plain = bench_stats(plain_ns, repetitions).median;
		double shim = bench_stats(shim_ns, repetitions).median;
		double measured = plain / shim;
		printf("  %-6s predicted %5.2fx  measured %5.2fx (%.1f / %.1f ms CPU)  ratio %.2f\n", name,
		       predicted, measured, plain / 1e6, shim / 1e6, predicted / measured);
		bench_extra_number(bench, bench_text("io_predicted_speedup.%s", name), predicted);
		bench_extra_number(bench, bench_text("io_measured_speedup.%s", name), measured);
		bench_extra_number(bench, bench_text("io_prediction_ratio.%s", name), predicted / measured);
	}
}

/* The facts the report's draft spec for xdr_int must state: those of
 * examples/rpc/xdr_int_fact_spec.c, whose variants are measured. */
static const char *const xdr_int_facts[] = {
	"respec_assume(xdrs->x_ops == respec_variable(\"xdr_mem.c:xdrmem_ops\"));",
	"respec_static_variable(\"xdr_mem.c:xdrmem_ops\");",
	"respec_assume(xdrs->x_op == 0);",
	"respec_assume(xdrs->x_op == 1);",
	"respec_assume(xdrs->x_op == 2);",
};

typedef void memory_stream_fn(XDR *, char *, unsigned, enum xdr_op);
typedef bool_t xdr_int_fn(XDR *, int *);
void generic_memory_stream(XDR *, char *, unsigned, enum xdr_op);
void respec_memory_stream(XDR *, char *, unsigned, enum xdr_op);
bool_t generic_xdr_int_encode(XDR *, int *), generic_xdr_int_decode(XDR *, int *),
	generic_xdr_int_free(XDR *, int *);
bool_t respec_xdr_int_encode(XDR *, int *), respec_xdr_int_decode(XDR *, int *),
	respec_xdr_int_free(XDR *, int *);

/* A variant of xdr_int_fact_spec.c: its memory stream, and its xdr_int for
 * each operation (XDR_ENCODE, XDR_DECODE, XDR_FREE). */
struct xdr_int_variant {
	memory_stream_fn *stream;
	xdr_int_fn *for_op[3];
};

static const struct xdr_int_variant generic_xdr_int = {
	generic_memory_stream,
	{ generic_xdr_int_encode, generic_xdr_int_decode, generic_xdr_int_free } };
static const struct xdr_int_variant respec_xdr_int = {
	respec_memory_stream, { respec_xdr_int_encode, respec_xdr_int_decode, respec_xdr_int_free } };

enum { XDR_INTS = 20, XDR_ROUNDS = 100000 };

/* ns per xdr_int call of a variant on a memory stream of operation op, 20 ints
 * at a time, XDR_ROUNDS times: from ints to bytes (encode), from bytes to ints
 * (decode), or freeing ints. Each round creates its stream (xdrmem_create, in
 * both variants the library's own), as each call and reply does in rpc-calls:
 * its time is in both, and pulls the ratio towards 1. */
static double time_xdr_int(const struct xdr_int_variant *v, enum xdr_op op,
			   char bytes[4 * XDR_INTS], int ints[XDR_INTS])
{
	struct timespec start, end;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
	for (int round = 0; round < XDR_ROUNDS; round++) {
		XDR xdrs;
		v->stream(&xdrs, bytes, 4 * XDR_INTS, op);
		for (int i = 0; i < XDR_INTS; i++)
			v->for_op[op](&xdrs, &ints[i]);
		__asm__ volatile("" ::: "memory"); /* each round's results are used */
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end);
	return ((double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec)) /
	       ((double)XDR_INTS * XDR_ROUNDS);
}

/* The report's prediction for xdr_int on rpc-calls against the measured
 * speedup of the same function and facts (the file comment says how). */
static void compare_rpc_prediction(struct bench *bench, const char *work, int repetitions)
{
	char *profile = bench_text("%s/rpc-predict.profile", work);
	char *specs = bench_text("%s/rpc-specs", work);
	command_output(bench_text("RESPEC_PROFILE_OUT=%s %s profiled udp 20 500", profile,
				  RPC_CALLS_PROFILED));
	char *report = bench_text("%s profile report %s --top 3 --measure 3 --specs %s", RESPEC_TOOL_PATH,
				  profile, specs);
	char *output = command_output(report);
	char *fact = strstr(output, "xdr_int: xdrs->x_ops == respec_variable(");
	if (!fact) {
		fprintf(stderr, "bench-profile: the report on rpc-calls names no xdrs->x_ops fact:\n%s",
			output);
		exit(1);
	}
	/* Its entry only: its lines are indented, the next entry's title is not. */
	for (char *line = strchr(fact, '\n'); line; line = strchr(line + 1, '\n'))
		if (line[1] != ' ') {
			line[1] = '\0';
			break;
		}
	double predicted = number_after(fact, "predicted speedup ", report);
	/* The run's share of each operation in xdr_int's calls, which the
	 * prediction weighs the variants by: "xdrs->x_op == 0 (29.4%), 1 (...), 2 (...)". */
	double share[3];
	const char *shares = strstr(fact, "xdrs->x_op == 0 (");
	for (int op = 0; op < 3; op++) {
		const char *at = shares ? strstr(shares, bench_text("%d (", op)) : NULL;
		if (!at) {
			fprintf(stderr, "bench-profile: no share of x_op %d in:\n%s", op, fact);
			exit(1);
		}
		share[op] = strtod(at + 3, NULL) / 100;
	}
	char *draft = command_output(bench_text("cat %s/xdr_int_spec.c", specs));
	for (size_t i = 0; i < sizeof xdr_int_facts / sizeof *xdr_int_facts; i++)
		if (!strstr(draft, xdr_int_facts[i])) {
			fprintf(stderr, "bench-profile: the draft spec does not state %s:\n%s",
				xdr_int_facts[i], draft);
			exit(1);
		}

	int values[XDR_INTS];
	for (int i = 0; i < XDR_INTS; i++)
		values[i] = (int)((unsigned)i * 2654435761u) ^ (i << 7);
	double generic_ns[repetitions], respec_ns[repetitions];
	for (int r = 0; r < repetitions; r++) {
		generic_ns[r] = respec_ns[r] = 0;
		char generic_bytes[4 * XDR_INTS], respec_bytes[4 * XDR_INTS];
		int generic_ints[XDR_INTS], respec_ints[XDR_INTS];
		for (enum xdr_op op = XDR_ENCODE; op <= XDR_FREE; op++) {
			if (op == XDR_ENCODE) {
				memcpy(generic_ints, values, sizeof values);
				memcpy(respec_ints, values, sizeof values);
			}
			generic_ns[r] += share[op] * time_xdr_int(&generic_xdr_int, op, generic_bytes,
								  generic_ints);
			respec_ns[r] += share[op] * time_xdr_int(&respec_xdr_int, op, respec_bytes,
								 respec_ints);
			if (memcmp(generic_bytes, respec_bytes, sizeof generic_bytes) != 0 ||
			    memcmp(generic_ints, respec_ints, sizeof generic_ints) != 0 ||
			    memcmp(generic_ints, values, sizeof values) != 0) {
				fprintf(stderr, "bench-profile: xdr_int's variants disagree\n");
				exit(1);
			}
		}
	}
	double generic = bench_stats(generic_ns, repetitions).median;
	double respec = bench_stats(respec_ns, repetitions).median;
	double measured = generic / respec;
	printf("predicted vs measured speedup of xdr_int with its stream's operations table "
	       "and operation stated\n(the operations weighed by the run's shares: encode %.1f%%, "
	       "decode %.1f%%, free %.1f%%):\n  predicted %.2fx  measured %.2fx (%.2f / %.2f ns per "
	       "call)  ratio %.2f\n",
	       100 * share[0], 100 * share[1], 100 * share[2], predicted, measured, generic, respec,
	       predicted / measured);
	bench_extra_number(bench, "rpc_predicted_speedup.xdr_int", predicted);
	bench_extra_number(bench, "rpc_measured_speedup.xdr_int", measured);
	bench_extra_number(bench, "rpc_prediction_ratio.xdr_int", predicted / measured);
	bench_extra_number(bench, "rpc_generic_ns.xdr_int", generic);
	bench_extra_number(bench, "rpc_respec_ns.xdr_int", respec);
}

static void add_variant(struct bench_case *c, const char *variant, struct program_run *r)
{
	bench_add_variant(c, variant, run_program, program_digest, r);
}

int main(int argc, char **argv)
{
	struct bench *bench = bench_create("profile", argc, argv);
	bool quick = bench_quick(bench);
	char work[] = "/tmp/respec-bench-profile-XXXXXX";
	if (!mkdtemp(work)) {
		perror("bench-profile: mkdtemp");
		return 1;
	}

	int captures = quick ? 2 : 10;
	char *files = bench_text("%s", "");
	for (int i = 0; i < captures; i++)
		files = bench_text("%s %s/synthetic-mix.pcap", files, BPF_TRACES);
	const char *filter = "'tcp port 80 and (tcp[tcpflags] & tcp-syn) != 0'";
	char *pcap_profile = bench_text("%s/respec-pcap.profile", work);
	struct bench_case *c =
		bench_add_case(bench, bench_text("respec-pcap, %d,000 packets", captures * 20));
	add_variant(c, "generic",
		    command(bench_text("%s --engine=interp --quiet %s%s", RESPEC_PCAP, filter, files), NULL));
	add_variant(c, "profiled",
		    command(bench_text("%s --engine=interp --quiet %s%s", RESPEC_PCAP_PROFILED, filter, files),
			    pcap_profile));

	int calls = quick ? 500 : 5000;
	/* Only the echoes' digest is compared: the time per call differs. */
	const char *keep_digest = "| sed 's/^ns_per_call [0-9.]* //'";
	c = bench_add_case(bench, bench_text("rpc-calls, udp, 20 ints, %d calls", calls));
	add_variant(c, "generic",
		    command(bench_text("%s generic udp 20 %d %s", RPC_CALLS, calls, keep_digest), NULL));
	add_variant(c, "profiled",
		    command(bench_text("%s profiled udp 20 %d %s", RPC_CALLS_PROFILED, calls, keep_digest),
			    bench_text("%s/rpc-calls.profile", work)));

	/* The report reads the respec-pcap profile: make it once before timing. */
	struct program_run *make_profile =
		command(bench_text("%s --engine=interp --quiet %s%s", RESPEC_PCAP_PROFILED, filter, files),
			pcap_profile);
	run_program(make_profile, 1);
	/* The report has no variant to compare with: its time goes to extra. */
	struct program_run *report =
		command(bench_text("%s profile report %s >/dev/null", RESPEC_TOOL_PATH, pcap_profile), NULL);
	double report_ms[5];
	for (int i = 0; i < 5; i++)
		report_ms[i] = bench_spawn_digest(report->argv, NULL, 0, false).wall_ns / 1e6;
	struct bench_stats report_stats = bench_stats(report_ms, 5);
	bench_extra_number(bench, "report_ms_median", report_stats.median);
	compare_predictions(bench, work, files, quick ? 3 : 11);
	compare_io_predictions(bench, work, quick ? 3 : 11);
	compare_rpc_prediction(bench, work, quick ? 3 : 11);
	feedback_curve_add(bench);

	int status = bench_run(bench);
	feedback_curve_print_stats();
	if (system(bench_text("rm -rf %s", work)) != 0)
		fprintf(stderr, "bench-profile: could not remove %s\n", work);
	return status;
}
