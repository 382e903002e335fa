/*
 * harness.h — the benchmark harness every respec case study links.
 *
 * It implements the protocol of bench/README.md once: a benchmark program registers
 * cases, each with variants (the first must be "generic"); the harness checks that
 * every variant's output matches generic's before timing anything, calibrates each
 * variant to samples of a few milliseconds, warms up, runs the variants interleaved
 * round by round on one pinned CPU, in an order shuffled afresh each round from the
 * run's seed (A C B, B A C, ...), and reports the median, minimum, 10th and 90th
 * percentiles of ns per operation side by side and in the results JSON.
 *
 * A variant is a run function, which performs `iterations` operations, and a digest
 * function, which summarizes the output the operations left in the variant's
 * context. The digest must depend only on the case's inputs, not on how many
 * iterations ran (digest the output of the last operation, say), because it is
 * compared across variants both before and after timing.
 */
#ifndef RESPEC_BENCH_HARNESS_H
#define RESPEC_BENCH_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef void (*bench_run_fn)(void *ctx, uint64_t iterations);
typedef uint64_t (*bench_digest_fn)(void *ctx);

struct bench;
struct bench_case;

/*
 * The command line every benchmark takes: --quick (a reduced run, well under a
 * minute), --json FILE (write the results file), --rounds N (override the round
 * count; 0 when not given), --seed N (the seed of the variants' order in every
 * round; without it a fresh one). Prints the seed so that a run's order can be
 * replayed. Exits with a usage message on anything else. bench_create also takes
 * --cases TEXT (measure only the cases whose name contains TEXT); this function,
 * for a benchmark that runs its own rounds, does not.
 */
struct bench_options {
	bool quick;
	const char *json_path;
	int rounds;
	uint64_t seed;
	const char *cases; /* --cases TEXT (bench_create only): the cases named with TEXT */
};
struct bench_options bench_parse_options(int argc, char **argv);

/*
 * Puts order[0..n) in a random order (every permutation equally likely), drawing
 * from *state, which a benchmark seeds with bench_options.seed and passes to every
 * call: one call per round gives each round its own order, the same again for the
 * same seed.
 */
void bench_shuffle(uint64_t *state, int *order, int n);

/*
 * What the results JSON reports of a variant's samples (ns per operation, one per
 * round): the median ("ns_per_op"), minimum ("ns_per_op_min"), 10th and 90th
 * percentiles ("ns_per_op_p10", "ns_per_op_p90", interpolated between the nearest
 * samples) and how many samples there were ("samples").
 */
struct bench_stats {
	double median, min, p10, p90;
	int samples;
};
struct bench_stats bench_stats(const double *samples, int n);
/* Those five fields as JSON members, `"ns_per_op": ..., ..., "samples": N`, no
 * braces, for a row of a results file; precision in significant digits. */
void bench_json_stats(FILE *out, const struct bench_stats *stats, int precision);

/* "CPU model, N cores, Linux release": the results file's `machine`. */
void bench_describe_machine(char *out, size_t size);

/* A benchmark run by this harness, configured from the command line
 * (bench_parse_options). */
struct bench *bench_create(const char *benchmark, int argc, char **argv);
bool bench_quick(const struct bench *bench);
/* The run's seed (--seed N or a fresh one), for a benchmark that orders more
 * measurements of its own with bench_shuffle. */
uint64_t bench_seed(const struct bench *bench);

/*
 * Times samples by the CPU time of the calling thread instead of the wall clock, so
 * that time a neighbour holds our CPU does not count. Only for cases that compute
 * without blocking or waiting on other threads: time spent waiting would vanish.
 */
void bench_use_thread_cpu_time(struct bench *bench);

/* Pins the process to the CPU it runs on now, so that samples do not migrate
 * between cores; bench_run does it before timing if nobody did. Call it earlier
 * when processes or threads started before bench_run must share that CPU. */
void bench_pin_to_current_cpu(struct bench *bench);

/* Case names are stable identifiers: results are compared across runs by them. */
struct bench_case *bench_add_case(struct bench *bench, const char *name);
/*
 * How many operations each variant runs before the outputs are first compared
 * (default 1): a case that cycles through n inputs sets n so that the check covers
 * all of them before any timing.
 */
void bench_case_check_iterations(struct bench_case *c, uint64_t iterations);
/*
 * Variant names follow bench/README.md (generic, respec, clang-lto, hand, ...). A name
 * ending in a target's suffix (examples/variant_targets.h: respec-v3 is respec built
 * with -march=x86-64-v3) marks a variant built for that target: if this CPU cannot run
 * it, the variant is left out (not called, not reported) and the run says which
 * features are missing, on the console and in the results' extra object ("target
 * x86-64-v3"). The report compares every variant with the respec and hand variants of
 * its own target (time/respec, time/hand; the JSON rows carry "target",
 * "time_per_hand" by medians and "time_per_hand_min" by minimums); "vs generic" is
 * always against the case's generic.
 */
void bench_add_variant(struct bench_case *c, const char *variant, bench_run_fn run,
		       bench_digest_fn digest, void *ctx);

/* Benchmark-specific figures for the results file's "extra" object. */
void bench_extra_number(struct bench *bench, const char *key, double value);
void bench_extra_string(struct bench *bench, const char *key, const char *value);

/*
 * Cross-checks, times and reports every case. Returns the process exit status:
 * 0, or non-zero after a clear message if outputs differ or the JSON cannot be
 * written.
 */
int bench_run(struct bench *bench);

/* A formatted string on the heap (never freed: benchmarks build their commands
 * with it); exits with a message if memory runs out. */
char *bench_text(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* Folds bytes into a digest (FNV-1a); start from BENCH_DIGEST_INIT. */
#define BENCH_DIGEST_INIT 0xcbf29ce484222325ULL
uint64_t bench_digest_bytes(uint64_t digest, const void *data, size_t nbytes);

/* One run of a program (bench_spawn_digest). */
struct bench_program_run {
	uint64_t digest;  /* of its standard output */
	double cpu_ns;    /* user + system CPU time */
	double wall_ns;   /* from spawn to exit */
	long max_rss_kib; /* peak resident set */
};

/*
 * Runs argv[0] (searched in PATH) with argv, in environment envp (NULL: this
 * process's), its standard output digested, or sent to /dev/null when discard is
 * set (digest 0: for timing a program whose output was checked in another run).
 * Exits with a message naming it if it cannot start, is killed, or exits with a
 * status above max_status.
 */
struct bench_program_run bench_spawn_digest(char *const argv[], char *const envp[],
					    int max_status, bool discard);

#endif /* RESPEC_BENCH_HARNESS_H */
