/*
 * bench_link.c — the batch half of `bench/run link` (bench_link.py runs it first): what
 * respec link's choices buy on real batch programs (issue 17's demonstrations).
 *
 * - The electric malloc (examples/electric): Lua 5.4's lua and luac linked with
 *   glibc's malloc ("generic"), through respec link with --property short-running
 *   (the rules choose the arena allocator: "respec"), and with jemalloc (a peer).
 * - I/O strategies chosen at link time (examples/io-link): GNU cat, wc and grep
 *   linked plainly ("generic") and through respec link --property big-io (the rules
 *   link librespec-io's read path in: "respec"), and the system's own /usr/bin
 *   programs ("system", Debian's build), on one large file and on many small ones,
 *   hot in the page cache. cat's output goes to /dev/null while timed; its output
 *   (and every other program's) is digested in a run before the timed ones.
 *
 * Each sample runs the program once (wall time of the child, on the harness's pinned
 * CPU, which the child inherits); outputs are checked equal across variants before
 * timing. The peak resident set of each variant, from one run before the timed ones
 * (it does not vary from run to run), is reported in extra (max_rss_kib.CASE/VARIANT).
 */
#define _GNU_SOURCE
#include "harness.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { VARIANTS = 3 };
static const char *const malloc_variants[VARIANTS] = {"generic", "respec", "jemalloc"};
static const char *const io_variants[VARIANTS] = {"generic", "respec", "system"};

struct program_run {
	const char *case_name;
	const char *variant;
	char **argv;
	const char *output_file; /* digested instead of stdout when set */
	bool discard_output;     /* timed runs send stdout to /dev/null */
	int max_status;          /* grep's is 1 when nothing matches */
	uint64_t digest;
	long max_rss_kib;
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void run_program(void *ctx, uint64_t iterations)
{
	struct program_run *r = ctx;
	for (uint64_t i = 0; i < iterations; i++) {
		struct bench_program_run run =
			bench_spawn_digest(r->argv, NULL, r->max_status, r->discard_output);
		r->max_rss_kib = run.max_rss_kib;
		if (r->output_file) {
			FILE *f = fopen(r->output_file, "rb");
			if (!f)
				die(r->output_file);
			char buf[65536];
			size_t n;
			run.digest = BENCH_DIGEST_INIT;
			while ((n = fread(buf, 1, sizeof buf, f)) > 0)
				run.digest = bench_digest_bytes(run.digest, buf, n);
			fclose(f);
		}
		if (!r->discard_output)
			r->digest = run.digest;
	}
}

/* A timed run that discards its output keeps the digest of the checked run before. */
static void check_output_then_discard(struct program_run *r)
{
	r->discard_output = false;
	run_program(r, 1);
	r->discard_output = true;
}

static uint64_t program_digest(void *ctx)
{
	return ((struct program_run *)ctx)->digest;
}


/* One case: in every variant (names[v]), the program binaries[v] with arguments;
 * "{out}" is a file of the variant's own, digested after the run. */
static struct program_run *add_case(struct bench *bench, const char *name,
				    const char *const names[VARIANTS],
				    char *const binaries[VARIANTS], const char *const *args,
				    int nargs, const char *work)
{
	struct bench_case *c = bench_add_case(bench, name);
	struct program_run *runs = calloc(VARIANTS, sizeof *runs);
	if (!runs)
		die("calloc");
	for (int v = 0; v < VARIANTS; v++) {
		struct program_run *r = &runs[v];
		r->case_name = name;
		r->variant = names[v];
		r->argv = calloc((size_t)nargs + 2, sizeof *r->argv);
		if (!r->argv)
			die("calloc");
		int argc = 0;
		r->argv[argc++] = binaries[v];
		for (int i = 0; i < nargs; i++) {
			if (strcmp(args[i], "{out}") == 0) {
				r->output_file = bench_text("%s/%s-%s.out", work, name, names[v]);
				r->argv[argc++] = (char *)r->output_file;
			} else {
				r->argv[argc++] = (char *)args[i];
			}
		}
		bench_add_variant(c, names[v], run_program, program_digest, r);
	}
	return runs;
}

static struct program_run *add_lua_case(struct bench *bench, const char *name,
					const char *prog, const char *const *args, int nargs,
					const char *work)
{
	char *binaries[VARIANTS];
	for (int v = 0; v < VARIANTS; v++)
		binaries[v] = bench_text("%s/electric-%s-%s", ELECTRIC_BIN_DIR, prog, malloc_variants[v]);
	return add_case(bench, name, malloc_variants, binaries, args, nargs, work);
}

static struct program_run *add_io_case(struct bench *bench, const char *name,
				       const char *prog, const char *const *args, int nargs,
				       const char *work)
{
	char *binaries[VARIANTS] = {bench_text("%s/%s-generic", IO_LINK_BIN_DIR, prog),
				    bench_text("%s/%s-respec", IO_LINK_BIN_DIR, prog),
				    bench_text("/usr/bin/%s", prog)};
	struct program_run *runs = add_case(bench, name, io_variants, binaries, args, nargs, work);
	for (int v = 0; v < VARIANTS; v++)
		runs[v].max_status = strcmp(prog, "grep") == 0;
	return runs;
}

/* The I/O cases' input: one large file of text lines (words drawn from a fixed list
 * by a seeded generator) and `count` small ones; returns the small files' paths. */
static char **write_io_files(const char *work, size_t large_bytes, int count)
{
	static const char *const words[] = {"alpha", "beta",   "gamma", "delta", "respec",
					    "omos",  "linker", "read",  "seek",  "strategy"};
	uint64_t state = 0x9e3779b97f4a7c15ULL;
	char *path = bench_text("%s/large.txt", work);
	FILE *large = fopen(path, "w");
	if (!large)
		die(path);
	char **small = calloc((size_t)count, sizeof *small);
	FILE *out = large;
	size_t limit = large_bytes, written = 0;
	for (int file = -1; file < count; file++) {
		if (file >= 0) {
			small[file] = bench_text("%s/small%03d.txt", work, file);
			out = fopen(small[file], "w");
			if (!out)
				die(small[file]);
			state = state * 6364136223846793005ULL + 1442695040888963407ULL;
			limit = 512 + (state >> 33) % 7680, written = 0;
		}
		while (written < limit) {
			state = state * 6364136223846793005ULL + 1442695040888963407ULL;
			int n = fprintf(out, "%s %s %s\n", words[(state >> 33) % 10],
					words[(state >> 40) % 10], words[(state >> 50) % 10]);
			written += (size_t)n;
		}
		if (fclose(out) != 0)
			die("writing the I/O cases' files");
	}
	return small;
}

int main(int argc, char **argv)
{
	struct bench *bench = bench_create("link", argc, argv);
	bool quick = bench_quick(bench);
	char work[] = "/tmp/respec-bench-link-XXXXXX";
	if (!mkdtemp(work))
		die("mkdtemp");

	/* luac's input: a generated source of many small functions. */
	char *source = bench_text("%s/source.lua", work);
	char *generate = bench_text("%s/electric-lua-generic %s/generate_source.lua %d %s", ELECTRIC_BIN_DIR,
			      ELECTRIC_PROGRAMS_DIR, quick ? 10000 : 50000, source);
	if (system(generate) != 0)
		die("generating luac's input");

	char *trees = bench_text("%s/binary_trees.lua", ELECTRIC_PROGRAMS_DIR);
	char *words = bench_text("%s/word_counts.lua", ELECTRIC_PROGRAMS_DIR);
	const char *trees_args[] = {trees, quick ? "14" : "16"};
	const char *words_args[] = {words, quick ? "50000" : "300000"};
	const char *luac_args[] = {"-o", "{out}", source};
	struct program_run *malloc_cases[] = {
		add_lua_case(bench, "lua binary_trees", "lua", trees_args, 2, work),
		add_lua_case(bench, "lua word_counts", "lua", words_args, 2, work),
		add_lua_case(bench, "luac generated source", "luac", luac_args, 3, work),
	};
	for (size_t c = 0; c < sizeof malloc_cases / sizeof *malloc_cases; c++)
		for (int v = 0; v < VARIANTS; v++) {
			struct program_run *r = &malloc_cases[c][v];
			run_program(r, 1);
			char *key = bench_text("max_rss_kib.%s/%s", r->case_name, r->variant);
			bench_extra_number(bench, key, (double)r->max_rss_kib);
			printf("%-24s %-9s peak RSS %8ld KiB\n", r->case_name, r->variant,
			       r->max_rss_kib);
		}

	/* OMOS's I/O cases: a large file (128 MiB) and 600 small ones (0.5-8 KiB). */
	enum { SMALL_FILES = 600 };
	char **small = write_io_files(work, quick ? 32u << 20 : 128u << 20, SMALL_FILES);
	char *large = bench_text("%s/large.txt", work);
	const char *cat_large[] = {large}, *wc_large[] = {large};
	const char *grep_large[] = {"-c", "respec omos", large};
	const char *cat_small[SMALL_FILES], *wc_small[SMALL_FILES], *grep_small[SMALL_FILES + 2];
	grep_small[0] = "-c", grep_small[1] = "respec omos";
	for (int i = 0; i < SMALL_FILES; i++)
		cat_small[i] = wc_small[i] = grep_small[i + 2] = small[i];
	struct program_run *cat_cases[] = {
		add_io_case(bench, "cat large", "cat", cat_large, 1, work),
		add_io_case(bench, "cat 600 small", "cat", cat_small, SMALL_FILES, work),
	};
	add_io_case(bench, "wc large", "wc", wc_large, 1, work);
	add_io_case(bench, "wc 600 small", "wc", wc_small, SMALL_FILES, work);
	add_io_case(bench, "grep large", "grep", grep_large, 3, work);
	add_io_case(bench, "grep 600 small", "grep", grep_small, SMALL_FILES + 2, work);
	for (size_t c = 0; c < sizeof cat_cases / sizeof *cat_cases; c++)
		for (int v = 0; v < VARIANTS; v++)
			check_output_then_discard(&cat_cases[c][v]);
	bench_extra_string(bench, "io_files", quick ? "large: 32 MiB; small: 600 of 0.5-8 KiB"
						    : "large: 128 MiB; small: 600 of 0.5-8 KiB");
	bench_extra_string(bench, "cat_output", "/dev/null while timed; digested in a run before");

	int status = bench_run(bench);
	char *cleanup = bench_text("rm -rf %s", work);
	if (system(cleanup) != 0)
		fprintf(stderr, "bench-link: could not remove %s\n", work);
	return status;
}
