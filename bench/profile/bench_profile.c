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
 * profile (report_ms_median, of five runs).
 *
 * Each sample runs the program once (wall time, the child on the harness's pinned
 * CPU); the variants' outputs are checked equal first (rpc-calls prints its time per
 * call: only the digest of the echoes is compared). The profiled runs write their
 * profile into a work directory, as a user's would.
 */
#define _GNU_SOURCE
#include "harness.h"
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

	int status = bench_run(bench);
	if (system(bench_text("rm -rf %s", work)) != 0)
		fprintf(stderr, "bench-profile: could not remove %s\n", work);
	return status;
}
