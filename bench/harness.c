/*
 * harness.c — implementation of the benchmark harness (see harness.h and
 * bench/README.md for the protocol it follows).
 */
#define _GNU_SOURCE
#include "harness.h"
#include "variant_targets.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MAX_VARIANTS = 16 };

/* Sample length and round counts: long enough to swamp timer and scheduling noise,
 * short enough that a noisy neighbour's burst spoils few samples. */
#define FULL_SAMPLE_NS 5e6
#define QUICK_SAMPLE_NS 2e6
#define FULL_ROUNDS 101
#define QUICK_ROUNDS 21
#define FULL_WARMUP_ROUNDS 5
#define QUICK_WARMUP_ROUNDS 2

struct variant {
	const char *name;
	bench_run_fn run;
	bench_digest_fn digest;
	void *ctx;
	uint64_t iterations; /* per sample, from calibration */
	double *samples;     /* ns per operation, one per round */
	struct bench_stats stats;
};

struct bench_case {
	struct bench *bench;
	const char *name;
	uint64_t check_iterations;
	struct variant variants[MAX_VARIANTS];
	int nvariants;
};

struct extra {
	char *key;
	char *json_value; /* already encoded */
};

struct bench {
	const char *benchmark;
	const char *program;
	bool quick;
	const char *json_path;
	const char *cases_filter; /* --cases: only these cases (a partial run) */
	int rounds;
	uint64_t seed;
	uint64_t order_state; /* bench_shuffle's, from seed */
	double sample_ns;
	int pinned_cpu; /* -1 when not pinned */
	clockid_t clock;
	struct bench_case **cases;
	int ncases;
	struct extra *extras;
	int nextras;
	/* Per variant_targets[] entry: whether it was checked, and if this CPU cannot run
	 * it, the features it lacks (empty when it can). */
	bool target_checked[VARIANT_TARGETS_COUNT];
	char target_missing[VARIANT_TARGETS_COUNT][128];
};

static _Noreturn void die(const struct bench *bench, const char *fmt, ...)
{
	va_list args;
	fflush(stdout);
	fprintf(stderr, "%s: ", bench->program);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	exit(1);
}

static void *grow(const struct bench *bench, void *array, size_t count, size_t size)
{
	void *grown = realloc(array, (count + 1) * size);
	if (grown == NULL)
		die(bench, "out of memory");
	return grown;
}

static _Noreturn void usage(const char *program, bool cases_allowed)
{
	fprintf(stderr, "usage: %s [--quick] [--json FILE] [--rounds N] [--seed N]%s\n", program,
		cases_allowed ? " [--cases TEXT]\n"
				"  --cases TEXT  measure only the cases whose name contains TEXT (a partial\n"
				"                run: its JSON says so and is not for bench/results)"
			      : "");
	exit(2);
}

/* --cases only where the harness runs the cases (bench_create); a benchmark
 * that runs its own rounds gets the usage message for it. */
static struct bench_options parse_options(int argc, char **argv, bool cases_allowed)
{
	struct bench_options options = { 0 };
	bool seeded = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0) {
			options.quick = true;
		} else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
			options.json_path = argv[++i];
		} else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
			char *end;
			options.rounds = (int)strtol(argv[++i], &end, 10);
			if (*end != '\0' || options.rounds < 1)
				usage(argv[0], cases_allowed);
		} else if (cases_allowed && strcmp(argv[i], "--cases") == 0 && i + 1 < argc) {
			options.cases = argv[++i];
		} else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			char *end;
			errno = 0;
			options.seed = strtoull(argv[++i], &end, 10);
			if (*end != '\0' || errno != 0 || argv[i][0] == '-')
				usage(argv[0], cases_allowed);
			seeded = true;
		} else {
			usage(argv[0], cases_allowed);
		}
	}
	if (!seeded && getrandom(&options.seed, sizeof options.seed, 0) != sizeof options.seed)
		options.seed = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
	printf("%s: variant order seed %llu (replay it with --seed %llu)\n", argv[0],
	       (unsigned long long)options.seed, (unsigned long long)options.seed);
	fflush(stdout);
	return options;
}

struct bench_options bench_parse_options(int argc, char **argv)
{
	return parse_options(argc, argv, false);
}

/* splitmix64: a small generator whose whole state is one seedable word. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void bench_shuffle(uint64_t *state, int *order, int n)
{
	for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
		int j = (int)(next_random(state) % (uint64_t)(i + 1));
		int t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The q-quantile of n sorted values, interpolated between the nearest two. */
static double quantile(const double *sorted, int n, double q)
{
	double position = q * (n - 1);
	int below = (int)position;
	if (below + 1 >= n)
		return sorted[n - 1];
	return sorted[below] + (position - below) * (sorted[below + 1] - sorted[below]);
}

struct bench_stats bench_stats(const double *samples, int n)
{
	struct bench_stats stats = { .samples = n };
	double *sorted = malloc((size_t)n * sizeof *sorted);
	if (sorted == NULL || n < 1) {
		fprintf(stderr, "bench: %s\n", n < 1 ? "no samples" : "out of memory");
		exit(1);
	}
	memcpy(sorted, samples, (size_t)n * sizeof *sorted);
	qsort(sorted, (size_t)n, sizeof *sorted, compare_doubles);
	stats.median = quantile(sorted, n, 0.5);
	stats.min = sorted[0];
	stats.p10 = quantile(sorted, n, 0.1);
	stats.p90 = quantile(sorted, n, 0.9);
	free(sorted);
	return stats;
}

void bench_json_stats(FILE *out, const struct bench_stats *stats, int precision)
{
	fprintf(out,
		"\"ns_per_op\": %.*g, \"ns_per_op_min\": %.*g, \"ns_per_op_p10\": %.*g, "
		"\"ns_per_op_p90\": %.*g, \"samples\": %d",
		precision, stats->median, precision, stats->min, precision, stats->p10, precision,
		stats->p90, stats->samples);
}

struct bench *bench_create(const char *benchmark, int argc, char **argv)
{
	struct bench *bench = calloc(1, sizeof *bench);
	if (bench == NULL) {
		perror(argv[0]);
		exit(1);
	}
	struct bench_options options = parse_options(argc, argv, true);
	bench->benchmark = benchmark;
	bench->program = argv[0];
	bench->pinned_cpu = -1;
	bench->clock = CLOCK_MONOTONIC;
	bench->quick = options.quick;
	bench->json_path = options.json_path;
	bench->seed = options.seed;
	bench->cases_filter = options.cases;
	bench->order_state = options.seed;
	bench->rounds = options.rounds ? options.rounds : bench->quick ? QUICK_ROUNDS : FULL_ROUNDS;
	bench->sample_ns = bench->quick ? QUICK_SAMPLE_NS : FULL_SAMPLE_NS;
	return bench;
}

bool bench_quick(const struct bench *bench)
{
	return bench->quick;
}

uint64_t bench_seed(const struct bench *bench)
{
	return bench->seed;
}

void bench_use_thread_cpu_time(struct bench *bench)
{
	bench->clock = CLOCK_THREAD_CPUTIME_ID;
}

struct bench_case *bench_add_case(struct bench *bench, const char *name)
{
	struct bench_case *c = calloc(1, sizeof *c);
	if (c == NULL)
		die(bench, "out of memory");
	c->bench = bench;
	c->name = name;
	c->check_iterations = 1;
	bench->cases = grow(bench, bench->cases, (size_t)bench->ncases, sizeof *bench->cases);
	bench->cases[bench->ncases++] = c;
	return c;
}

void bench_case_check_iterations(struct bench_case *c, uint64_t iterations)
{
	c->check_iterations = iterations ? iterations : 1;
}

/* Whether this CPU can run variants built for target; checked once per target, and
 * the first time it cannot, says so. */
static bool target_runs_here(struct bench *bench, const struct variant_target *target)
{
	size_t t = (size_t)(target - variant_targets);
	if (!bench->target_checked[t]) {
		bench->target_checked[t] = true;
		if (!variant_target_check(target, bench->target_missing[t],
					  sizeof bench->target_missing[t])) {
			if (bench->target_missing[t][0] == '\0') /* cannot happen; keep it non-empty */
				snprintf(bench->target_missing[t], sizeof bench->target_missing[t], "?");
			printf("%s: skipping every *-%s variant (built for -march=%s): this CPU "
			       "lacks %s\n",
			       bench->benchmark, target->suffix, target->cpu, bench->target_missing[t]);
			fflush(stdout);
		}
	}
	return bench->target_missing[t][0] == '\0';
}

void bench_add_variant(struct bench_case *c, const char *variant, bench_run_fn run,
		       bench_digest_fn digest, void *ctx)
{
	const struct variant_target *target = variant_target_of(variant);
	if (target != NULL && !target_runs_here(c->bench, target))
		return;
	if (c->nvariants == MAX_VARIANTS) {
		fprintf(stderr, "bench: case '%s' has more than %d variants\n", c->name, MAX_VARIANTS);
		exit(1);
	}
	if (c->nvariants == 0 && strcmp(variant, "generic") != 0) {
		fprintf(stderr, "bench: case '%s': the first variant must be generic, not '%s'\n",
			c->name, variant);
		exit(1);
	}
	c->variants[c->nvariants++] = (struct variant){
		.name = variant, .run = run, .digest = digest, .ctx = ctx
	};
}

static char *json_string(const char *text)
{
	size_t length = 2;
	for (const char *p = text; *p; p++)
		length += 6;
	char *out = malloc(length + 1), *o = out;
	if (out == NULL)
		return NULL;
	*o++ = '"';
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '"' || *p == '\\')
			o += sprintf(o, "\\%c", *p);
		else if (*p < 0x20)
			o += sprintf(o, "\\u%04x", *p);
		else
			*o++ = (char)*p;
	}
	*o++ = '"';
	*o = '\0';
	return out;
}

static void add_extra(struct bench *bench, const char *key, char *json_value)
{
	char *key_copy = strdup(key);
	if (json_value == NULL || key_copy == NULL)
		die(bench, "out of memory");
	bench->extras = grow(bench, bench->extras, (size_t)bench->nextras, sizeof *bench->extras);
	bench->extras[bench->nextras++] = (struct extra){ key_copy, json_value };
}

void bench_extra_number(struct bench *bench, const char *key, double value)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%.6g", value);
	add_extra(bench, key, strdup(buf));
}

void bench_extra_string(struct bench *bench, const char *key, const char *value)
{
	add_extra(bench, key, json_string(value));
}

uint64_t bench_digest_bytes(uint64_t digest, const void *data, size_t nbytes)
{
	const unsigned char *bytes = data;
	for (size_t i = 0; i < nbytes; i++)
		digest = (digest ^ bytes[i]) * 0x100000001b3ULL;
	return digest;
}

static double now_ns(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

extern char **environ;

struct bench_program_run bench_spawn_digest(char *const argv[], char *const envp[],
					    int max_status, bool discard)
{
	int out[2];
	if (discard ? (out[0] = -1, out[1] = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0
		    : pipe2(out, O_CLOEXEC) != 0) {
		perror("bench: standard output of the program");
		exit(1);
	}
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, out[1], 1);
	struct bench_program_run run = {.digest = BENCH_DIGEST_INIT};
	double start = now_ns(CLOCK_MONOTONIC);
	pid_t pid;
	int error = posix_spawnp(&pid, argv[0], &actions, NULL, argv, envp ? envp : environ);
	posix_spawn_file_actions_destroy(&actions);
	close(out[1]);
	if (error) {
		fprintf(stderr, "bench: cannot run %s: %s\n", argv[0], strerror(error));
		exit(1);
	}
	char buf[65536];
	ssize_t n;
	if (discard)
		run.digest = 0;
	while (!discard && (n = read(out[0], buf, sizeof buf)) > 0)
		run.digest = bench_digest_bytes(run.digest, buf, (size_t)n);
	if (!discard)
		close(out[0]);
	int status = 0;
	struct rusage usage;
	if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) > max_status) {
		fprintf(stderr, "bench: %s failed (status %#x)\n", argv[0], status);
		exit(1);
	}
	run.wall_ns = now_ns(CLOCK_MONOTONIC) - start;
	run.cpu_ns = (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e9 +
		     (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e3;
	run.max_rss_kib = usage.ru_maxrss;
	return run;
}

static double time_sample(const struct bench *bench, const struct variant *v,
			  uint64_t iterations)
{
	double start = now_ns(bench->clock);
	v->run(v->ctx, iterations);
	return now_ns(bench->clock) - start;
}

void bench_pin_to_current_cpu(struct bench *bench)
{
	int cpu = sched_getcpu();
	if (cpu < 0)
		return;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) == 0)
		bench->pinned_cpu = cpu;
}

static void cross_check(const struct bench *bench, const struct bench_case *c, const char *when)
{
	const struct variant *generic = &c->variants[0];
	uint64_t expected = generic->digest(generic->ctx);
	for (int i = 1; i < c->nvariants; i++) {
		const struct variant *v = &c->variants[i];
		uint64_t actual = v->digest(v->ctx);
		if (actual != expected)
			die(bench,
			    "case '%s': the output of variant '%s' differs from generic's %s "
			    "(digest %#llx, generic %#llx); no timings are reported",
			    c->name, v->name, when, (unsigned long long)actual,
			    (unsigned long long)expected);
	}
}

static uint64_t calibrate(const struct bench *bench, const struct variant *v)
{
	uint64_t iterations = 1;
	for (;;) {
		double ns = time_sample(bench, v, iterations);
		/* A quarter of the target is long enough to extrapolate from. */
		if (ns >= bench->sample_ns / 4 || iterations >= (UINT64_C(1) << 40)) {
			double scaled = (double)iterations * bench->sample_ns / (ns > 1 ? ns : 1);
			return scaled < 1 ? 1 : (uint64_t)scaled;
		}
		iterations *= 8;
	}
}

static void measure_case(struct bench *bench, struct bench_case *c)
{
	if (c->nvariants == 0)
		die(bench, "case '%s' has no variants", c->name);
	/* The outputs must agree before anything is timed. */
	for (int i = 0; i < c->nvariants; i++)
		c->variants[i].run(c->variants[i].ctx, c->check_iterations);
	cross_check(bench, c, "before timing");

	for (int i = 0; i < c->nvariants; i++) {
		struct variant *v = &c->variants[i];
		v->iterations = calibrate(bench, v);
		v->samples = calloc((size_t)bench->rounds, sizeof *v->samples);
		if (v->samples == NULL)
			die(bench, "out of memory");
	}
	int warmup = bench->quick ? QUICK_WARMUP_ROUNDS : FULL_WARMUP_ROUNDS;
	for (int round = 0; round < warmup; round++)
		for (int i = 0; i < c->nvariants; i++)
			time_sample(bench, &c->variants[i], c->variants[i].iterations);
	int order[MAX_VARIANTS];
	for (int i = 0; i < c->nvariants; i++)
		order[i] = i;
	for (int round = 0; round < bench->rounds; round++) {
		bench_shuffle(&bench->order_state, order, c->nvariants);
		for (int i = 0; i < c->nvariants; i++) {
			struct variant *v = &c->variants[order[i]];
			v->samples[round] = time_sample(bench, v, v->iterations) / (double)v->iterations;
		}
	}
	/* Timing ran every variant many more times; a drifting state would show here. */
	cross_check(bench, c, "after timing");
	for (int i = 0; i < c->nvariants; i++)
		c->variants[i].stats = bench_stats(c->variants[i].samples, bench->rounds);
}

void bench_describe_machine(char *out, size_t size)
{
	char model[256] = "unknown CPU";
	FILE *cpuinfo = fopen("/proc/cpuinfo", "r");
	if (cpuinfo != NULL) {
		char line[512];
		while (fgets(line, sizeof line, cpuinfo) != NULL) {
			char *colon = strchr(line, ':');
			if (strncmp(line, "model name", 10) == 0 && colon != NULL) {
				char *value = colon + 1 + strspn(colon + 1, " \t");
				value[strcspn(value, "\n")] = '\0';
				snprintf(model, sizeof model, "%s", value);
				break;
			}
		}
		fclose(cpuinfo);
	}
	struct utsname uts;
	const char *kernel = uname(&uts) == 0 ? uts.release : "unknown";
	snprintf(out, size, "%s, %ld cores, Linux %s", model, sysconf(_SC_NPROCESSORS_ONLN),
		 kernel);
}

static const struct variant *find_variant(const struct bench_case *c, const char *name)
{
	for (int i = 0; i < c->nvariants; i++)
		if (strcmp(c->variants[i].name, name) == 0)
			return &c->variants[i];
	return NULL;
}

/*
 * The variant named base (e.g. "hand") built for the same target as v: "hand" for a
 * variant of the baseline target, "hand-v3" for respec-v3; NULL if c has none.
 */
static const struct variant *same_target_variant(const struct bench_case *c,
						 const struct variant *v, const char *base)
{
	const struct variant_target *target = variant_target_of(v->name);
	char name[128];
	if (target != NULL)
		snprintf(name, sizeof name, "%s-%s", base, target->suffix);
	else
		snprintf(name, sizeof name, "%s", base);
	return find_variant(c, name);
}

/* Whether any variant of c has a same-target variant named base to compare with. */
static bool case_compares_with(const struct bench_case *c, const char *base)
{
	for (int i = 0; i < c->nvariants; i++)
		if (same_target_variant(c, &c->variants[i], base) != NULL)
			return true;
	return false;
}

static void print_ratio_column(const struct bench_case *c, const struct variant *v,
			       const char *base)
{
	const struct variant *reference = same_target_variant(c, v, base);
	if (reference != NULL)
		printf(" %13.2f", v->stats.median / reference->stats.median);
	else
		printf(" %13s", "-");
}

static void print_table(const struct bench *bench, const char *machine)
{
	printf("\n%s on %s", bench->benchmark, machine);
	if (bench->pinned_cpu >= 0)
		printf(" (pinned to CPU %d)", bench->pinned_cpu);
	else
		printf(" (not pinned)");
	printf("\n%d interleaved rounds (order seed %llu) of ~%.0f ms of %s per variant%s\n",
	       bench->rounds, (unsigned long long)bench->seed, bench->sample_ns / 1e6,
	       bench->clock == CLOCK_MONOTONIC ? "wall-clock time" : "thread CPU time",
	       bench->quick ? ", quick run" : "");
	for (int ci = 0; ci < bench->ncases; ci++) {
		const struct bench_case *c = bench->cases[ci];
		const struct variant *generic = &c->variants[0];
		bool by_respec = case_compares_with(c, "respec");
		bool by_hand = case_compares_with(c, "hand");
		printf("\ncase %s\n", c->name);
		printf("  %-18s %14s %14s %21s %12s", "variant", "median ns/op", "min ns/op",
		       "p10-p90 ns/op", "vs generic");
		if (by_respec)
			printf(" %13s", "time/respec");
		if (by_hand)
			printf(" %13s", "time/hand");
		printf("\n");
		for (int i = 0; i < c->nvariants; i++) {
			const struct variant *v = &c->variants[i];
			printf("  %-18s %14.3f %14.3f %10.3f-%-10.3f %11.2fx", v->name, v->stats.median,
			       v->stats.min, v->stats.p10, v->stats.p90,
			       generic->stats.median / v->stats.median);
			if (by_respec)
				print_ratio_column(c, v, "respec");
			if (by_hand)
				print_ratio_column(c, v, "hand");
			printf("\n");
		}
	}
	printf("\n(vs generic: how many times faster than generic, by medians; "
	       "time/respec: above 1 means respec is faster; time/hand: below 1 means faster "
	       "than hand-written code; both against the variant built for the same target: "
	       "respec-v3 and hand-v3 for a *-v3 variant)\n");
	for (size_t t = 0; t < VARIANT_TARGETS_COUNT; t++)
		if (bench->target_checked[t] && bench->target_missing[t][0] != '\0')
			printf("(not run: the *-%s variants, built for -march=%s; this CPU lacks %s)\n",
			       variant_targets[t].suffix, variant_targets[t].cpu,
			       bench->target_missing[t]);
}

static bool write_json(const struct bench *bench, const char *machine)
{
	FILE *out = fopen(bench->json_path, "w");
	if (out == NULL) {
		fprintf(stderr, "%s: cannot write %s: %s\n", bench->program, bench->json_path,
			strerror(errno));
		return false;
	}
	char *name = json_string(bench->benchmark), *machine_json = json_string(machine);
	fprintf(out, "{\n  \"benchmark\": %s,\n  \"machine\": %s,\n  \"quick\": %s,\n  \"rows\": [",
		name, machine_json, bench->quick ? "true" : "false");
	free(name);
	free(machine_json);
	const char *separator = "\n";
	for (int ci = 0; ci < bench->ncases; ci++) {
		const struct bench_case *c = bench->cases[ci];
		char *case_json = json_string(c->name);
		for (int i = 0; i < c->nvariants; i++) {
			const struct variant *v = &c->variants[i];
			char *variant_json = json_string(v->name);
			fprintf(out, "%s    {\"case\": %s, \"variant\": %s, ", separator, case_json,
				variant_json);
			bench_json_stats(out, &v->stats, 6);
			/* A variant built for another target names it, and every variant is
			 * compared with the hand variant of its own target, if there is one. */
			const struct variant_target *target = variant_target_of(v->name);
			if (target != NULL)
				fprintf(out, ", \"target\": \"%s\"", target->cpu);
			const struct variant *hand = same_target_variant(c, v, "hand");
			if (hand != NULL)
				fprintf(out, ", \"time_per_hand\": %.6g, \"time_per_hand_min\": %.6g",
					v->stats.median / hand->stats.median, v->stats.min / hand->stats.min);
			fprintf(out, "}");
			free(variant_json);
			separator = ",\n";
		}
		free(case_json);
	}
	fprintf(out, "\n  ],\n  \"extra\": {");
	separator = "\n";
	for (int i = 0; i < bench->nextras; i++) {
		char *key = json_string(bench->extras[i].key);
		fprintf(out, "%s    %s: %s", separator, key, bench->extras[i].json_value);
		free(key);
		separator = ",\n";
	}
	fprintf(out, "\n  }\n}\n");
	if (fclose(out) != 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", bench->program, bench->json_path,
			strerror(errno));
		return false;
	}
	printf("wrote %s\n", bench->json_path);
	return true;
}

int bench_run(struct bench *bench)
{
	if (bench->pinned_cpu < 0)
		bench_pin_to_current_cpu(bench);
	if (bench->cases_filter) {
		int kept = 0;
		for (int i = 0; i < bench->ncases; i++)
			if (strstr(bench->cases[i]->name, bench->cases_filter))
				bench->cases[kept++] = bench->cases[i];
		if (kept == 0)
			die(bench, "--cases: no case name contains the text given");
		bench->ncases = kept;
		bench_extra_string(bench, "cases", bench_text("partial run: only the cases "
							      "containing \"%s\"",
							      bench->cases_filter));
	}
	for (int i = 0; i < bench->ncases; i++) {
		printf("%s: measuring case %s (%d variants)\n", bench->benchmark,
		       bench->cases[i]->name, bench->cases[i]->nvariants);
		fflush(stdout);
		measure_case(bench, bench->cases[i]);
	}

	bench_extra_number(bench, "rounds", bench->rounds);
	bench_extra_number(bench, "sample_ms", bench->sample_ns / 1e6);
	char seed[32]; /* exactly: %g would round a 64-bit seed */
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)bench->seed);
	add_extra(bench, "seed", strdup(seed));
	bench_extra_string(bench, "clock",
			   bench->clock == CLOCK_MONOTONIC ? "wall (monotonic)" : "thread CPU time");
	for (size_t t = 0; t < VARIANT_TARGETS_COUNT; t++) {
		if (!bench->target_checked[t])
			continue;
		char key[64], value[256];
		snprintf(key, sizeof key, "target %s", variant_targets[t].cpu);
		if (bench->target_missing[t][0] == '\0')
			snprintf(value, sizeof value, "run (the *-%s variants)",
				 variant_targets[t].suffix);
		else
			snprintf(value, sizeof value,
				 "not run: this CPU lacks %s (the *-%s variants are missing)",
				 bench->target_missing[t], variant_targets[t].suffix);
		bench_extra_string(bench, key, value);
	}
	if (bench->pinned_cpu >= 0)
		bench_extra_number(bench, "pinned_cpu", bench->pinned_cpu);
	else
		bench_extra_string(bench, "pinned_cpu", "none");

	char machine[512];
	bench_describe_machine(machine, sizeof machine);
	print_table(bench, machine);
	if (bench->json_path != NULL && !write_json(bench, machine))
		return 1;
	return 0;
}

char *bench_text(const char *format, ...)
{
	va_list args;
	va_start(args, format);
	char *s;
	if (vasprintf(&s, format, args) < 0) {
		perror("bench: vasprintf");
		exit(1);
	}
	va_end(args);
	return s;
}
