/*
 * bench_link.c — the batch half of `bench/run link` (bench_link.py runs it first): what
 * respec link's choices buy on real batch programs
 * (issue 17's demonstrations). The electric malloc (examples/electric): Lua 5.4's
 * lua and luac linked with glibc's malloc ("generic"), through respec link with
 * --property short-running (the rules choose the arena allocator: "respec"), and
 * with jemalloc (a peer). Each sample runs the program once (wall time of the
 * child, on the harness's pinned CPU, which the child inherits); outputs are
 * digested and checked equal across variants before timing. The peak resident
 * set of each variant, from one run before the timed ones (it does not vary from
 * run to run), is reported in extra (max_rss_kib.CASE/VARIANT).
 */
#define _GNU_SOURCE
#include "harness.h"
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *const variants[] = {"generic", "respec", "jemalloc"};
enum { VARIANTS = 3 };

struct program_run {
	const char *case_name;
	const char *variant;
	char *argv[8];
	const char *output_file; /* digested instead of stdout when set */
	uint64_t digest;
	long max_rss_kib;
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static uint64_t digest_fd(int fd, uint64_t digest)
{
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		digest = bench_digest_bytes(digest, buf, (size_t)n);
	return digest;
}

static void run_program(void *ctx, uint64_t iterations)
{
	struct program_run *r = ctx;
	for (uint64_t i = 0; i < iterations; i++) {
		int out[2];
		if (pipe(out))
			die("pipe");
		posix_spawn_file_actions_t actions;
		posix_spawn_file_actions_init(&actions);
		posix_spawn_file_actions_adddup2(&actions, out[1], 1);
		posix_spawn_file_actions_addclose(&actions, out[0]);
		pid_t pid;
		if (posix_spawn(&pid, r->argv[0], &actions, NULL, r->argv, environ))
			die(r->argv[0]);
		close(out[1]);
		uint64_t digest = digest_fd(out[0], BENCH_DIGEST_INIT);
		close(out[0]);
		int status;
		struct rusage usage;
		if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			fprintf(stderr, "bench-link: %s failed\n", r->argv[0]);
			exit(1);
		}
		posix_spawn_file_actions_destroy(&actions);
		if (r->output_file) {
			FILE *f = fopen(r->output_file, "rb");
			if (!f)
				die(r->output_file);
			digest = digest_fd(fileno(f), BENCH_DIGEST_INIT);
			fclose(f);
		}
		r->digest = digest;
		r->max_rss_kib = usage.ru_maxrss;
	}
}

static uint64_t program_digest(void *ctx)
{
	return ((struct program_run *)ctx)->digest;
}

static char *text(const char *format, ...) __attribute__((format(printf, 1, 2)));
static char *text(const char *format, ...)
{
	va_list args;
	va_start(args, format);
	char *s;
	if (vasprintf(&s, format, args) < 0)
		die("vasprintf");
	va_end(args);
	return s;
}

/* One case: program PROG (lua or luac) with arguments, in every variant. */
static struct program_run *add_case(struct bench *bench, const char *name, const char *prog,
				    const char *const *args, int nargs, const char *work)
{
	struct bench_case *c = bench_add_case(bench, name);
	struct program_run *runs = calloc(VARIANTS, sizeof *runs);
	for (int v = 0; v < VARIANTS; v++) {
		struct program_run *r = &runs[v];
		r->case_name = name;
		r->variant = variants[v];
		int argc = 0;
		r->argv[argc++] = text("%s/electric-%s-%s", ELECTRIC_BIN_DIR, prog, variants[v]);
		for (int i = 0; i < nargs; i++) {
			/* "{out}": a file of this variant's own, digested after the run. */
			if (strcmp(args[i], "{out}") == 0) {
				r->output_file = text("%s/%s-%s.out", work, name, variants[v]);
				r->argv[argc++] = (char *)r->output_file;
			} else {
				r->argv[argc++] = (char *)args[i];
			}
		}
		r->argv[argc] = NULL;
		bench_add_variant(c, variants[v], run_program, program_digest, r);
	}
	return runs;
}

int main(int argc, char **argv)
{
	struct bench *bench = bench_create("link", argc, argv);
	bool quick = bench_quick(bench);
	char work[] = "/tmp/respec-bench-link-XXXXXX";
	if (!mkdtemp(work))
		die("mkdtemp");

	/* luac's input: a generated source of many small functions. */
	char *source = text("%s/source.lua", work);
	char *generate = text("%s/electric-lua-generic %s/generate_source.lua %d %s", ELECTRIC_BIN_DIR,
			      ELECTRIC_PROGRAMS_DIR, quick ? 10000 : 50000, source);
	if (system(generate) != 0)
		die("generating luac's input");

	char *trees = text("%s/binary_trees.lua", ELECTRIC_PROGRAMS_DIR);
	char *words = text("%s/word_counts.lua", ELECTRIC_PROGRAMS_DIR);
	const char *trees_args[] = {trees, quick ? "14" : "16"};
	const char *words_args[] = {words, quick ? "50000" : "300000"};
	const char *luac_args[] = {"-o", "{out}", source};
	struct program_run *cases[] = {
		add_case(bench, "lua binary_trees", "lua", trees_args, 2, work),
		add_case(bench, "lua word_counts", "lua", words_args, 2, work),
		add_case(bench, "luac generated source", "luac", luac_args, 3, work),
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
		for (int v = 0; v < VARIANTS; v++) {
			run_program(&cases[c][v], 1);
			char *key = text("max_rss_kib.%s/%s", cases[c][v].case_name, variants[v]);
			bench_extra_number(bench, key, (double)cases[c][v].max_rss_kib);
			printf("%-24s %-9s peak RSS %8ld KiB\n", cases[c][v].case_name, variants[v],
			       cases[c][v].max_rss_kib);
		}
	int status = bench_run(bench);
	char *cleanup = text("rm -rf %s", work);
	if (system(cleanup) != 0)
		fprintf(stderr, "bench-link: could not remove %s\n", work);
	return status;
}
