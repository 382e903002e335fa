/*
 * bench_frames.c — the experiment of examples/pcre2/README.md ("What it would
 * take"): match_<pattern>_frames (gen_pattern_spec --local-frames: the frames
 * vector is the spec's memory) specialized by respec over a copy of
 * pcre2_match.c whose one frame-copying memcpy is a loop of word copies, against
 * the same spec compiled with clang -O2 over the same copy (generic-frames),
 * PCRE2's interpreter library (pcre2-interp) and PCRE2's JIT (pcre2-jit).
 *
 * First every variant is checked against the interpreter library on the
 * pattern's examples and 10,000 random strings over their alphabet (return code
 * and every ovector pair the return code covers); then the harness times them
 * side by side on the examples, as bench/pcre2 does. Not a ctest: the sources
 * it specializes are modified (run: examples/pcre2/experiment/run).
 */
#include "harness.h"
#include "peer_jit.h"
#include "pcre2_spec.h"
#include "subjects.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*frames_fn)(const unsigned char *subject, size_t length, size_t *ovector);
#define DECLARE(name, text, options)                                           \
	int respec_match_##name##_frames(const unsigned char *, size_t, size_t *); \
	int generic_match_##name##_frames(const unsigned char *, size_t, size_t *);
PATTERN_LIST(DECLARE)

struct pattern {
	const char *name, *text;
	uint32_t options;
	frames_fn respec, generic;
};
#define ENTRY(n, t, o) { #n, t, o, respec_match_##n##_frames, generic_match_##n##_frames },
static const struct pattern patterns[] = { PATTERN_LIST(ENTRY) };

enum { MAX_PAIRS = 16 };

struct ctx {
	const char *const *subjects;
	size_t count, next;
	int64_t out[64][3];
	/* one of: */
	frames_fn frames;
	const pcre2_code *code;
	pcre2_match_data *md;
	struct pcre2_jit_peer *jit;
};

static int one(struct ctx *c, const unsigned char *s, size_t n, size_t *first_pair)
{
	size_t ovector[2 * MAX_PAIRS];
	int rc;
	if (c->frames) {
		rc = c->frames(s, n, ovector);
		first_pair[0] = ovector[0], first_pair[1] = ovector[1];
	} else if (c->jit) {
		uint32_t pairs;
		rc = pcre2_jit_peer_match(c->jit, s, n);
		const size_t *o = pcre2_jit_peer_ovector(c->jit, &pairs);
		first_pair[0] = o[0], first_pair[1] = o[1];
	} else {
		rc = pcre2_match(c->code, s, n, 0, 0, c->md, NULL);
		const PCRE2_SIZE *o = pcre2_get_ovector_pointer(c->md);
		first_pair[0] = o[0], first_pair[1] = o[1];
	}
	return rc;
}

static void run(void *opaque, uint64_t iterations)
{
	struct ctx *c = opaque;
	for (uint64_t i = 0; i < iterations; i++) {
		size_t index = c->next, pair[2];
		c->next = index + 1 == c->count ? 0 : index + 1;
		const char *s = c->subjects[index];
		int rc = one(c, (const unsigned char *)s, strlen(s), pair);
		c->out[index][0] = rc;
		c->out[index][1] = rc > 0 ? (int64_t)pair[0] : -1;
		c->out[index][2] = rc > 0 ? (int64_t)pair[1] : -1;
	}
}

static uint64_t digest(void *opaque)
{
	struct ctx *c = opaque;
	return bench_digest_bytes(BENCH_DIGEST_INIT, c->out, c->count * sizeof c->out[0]);
}

/* Checks frames_fn against the interpreter: examples and random strings. */
static void check(const struct pattern *p, frames_fn f, const char *variant, const pcre2_code *code)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
	const char *const *ex = pcre2_examples_for(p->name);
	char alphabet[128];
	size_t na = 0;
	for (size_t i = 0; ex[i]; i++)
		for (const char *c = ex[i]; *c; c++)
			if (!memchr(alphabet, *c, na) && na < sizeof alphabet)
				alphabet[na++] = *c;
	uint64_t state = 0x9e3779b97f4a7c15u;
	unsigned char s[64];
	size_t checked = 0, matched = 0, nex = 0;
	while (ex[nex])
		nex++;
	for (size_t i = 0; i < nex + 10000; i++) {
		size_t n;
		if (i < nex) {
			n = strlen(ex[i]);
			memcpy(s, ex[i], n);
		} else {
			state = state * 6364136223846793005u + 1442695040888963407u;
			n = (state >> 33) % 40;
			for (size_t k = 0; k < n; k++) {
				state = state * 6364136223846793005u + 1442695040888963407u;
				s[k] = (unsigned char)alphabet[(state >> 33) % na];
			}
		}
		size_t ovector[2 * MAX_PAIRS];
		int want = pcre2_match(code, s, n, 0, 0, md, NULL);
		int got = f(s, n, ovector);
		const PCRE2_SIZE *o = pcre2_get_ovector_pointer(md);
		bool same = want == got;
		for (int k = 0; same && k < 2 * want; k++)
			same = o[k] == ovector[k];
		if (!same) {
			fprintf(stderr, "bench-frames: %s: %s differs from the interpreter on \"%.*s\" "
				"(%d vs %d)\n", p->name, variant, (int)n, s, want, got);
			exit(1);
		}
		checked++;
		matched += want > 0;
	}
	printf("%s: %s agrees with the interpreter on %zu subjects (%zu matches)\n", p->name,
	       variant, checked, matched);
	pcre2_match_data_free(md);
}

static struct ctx *new_ctx(const char *const *subjects)
{
	struct ctx *c = calloc(1, sizeof *c);
	c->subjects = subjects;
	while (subjects[c->count])
		c->count++;
	return c;
}

int main(int argc, char **argv)
{
	struct bench *bench = bench_create("pcre2-frames-experiment", argc, argv);
	bench_use_thread_cpu_time(bench);
	for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
		const struct pattern *p = &patterns[i];
		int error;
		PCRE2_SIZE offset;
		pcre2_code *code = pcre2_compile((PCRE2_SPTR)p->text, PCRE2_ZERO_TERMINATED,
						 p->options, &error, &offset, NULL);
		const char *const *ex = pcre2_examples_for(p->name);
		check(p, p->generic, "generic-frames", code);
		check(p, p->respec, "respec-frames", code);

		struct bench_case *bc = bench_add_case(bench, p->name);
		struct ctx *c = new_ctx(ex);
		bench_case_check_iterations(bc, c->count);
		c->frames = p->generic;
		bench_add_variant(bc, "generic", run, digest, c);
		c = new_ctx(ex);
		c->frames = p->respec;
		bench_add_variant(bc, "respec", run, digest, c);
		c = new_ctx(ex);
		c->code = code;
		c->md = pcre2_match_data_create_from_pattern(code, NULL);
		bench_add_variant(bc, "pcre2-interp", run, digest, c);
		char why[256];
		c = new_ctx(ex);
		c->jit = pcre2_jit_peer_create(p->text, p->options, why, sizeof why);
		if (c->jit)
			bench_add_variant(bc, "pcre2-jit", run, digest, c);
	}
	return bench_run(bench);
}
