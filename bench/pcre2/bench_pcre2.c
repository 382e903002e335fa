/*
 * bench_pcre2.c — the PCRE2 case study's benchmark: ns per pcre2_match() call for
 * every pattern of examples/pcre2/patterns.txt, run side by side by the harness
 * (bench/harness.h: outputs checked against generic's first, interleaved rounds,
 * median and min; CPU time of the thread).
 *
 * Variants (bench/README.md names):
 *   generic        the spec compiled with clang -O2: PCRE2's interpreter,
 *                  pcre2_match() without JIT, on the compiled pattern
 *   clang-lto      the spec and pcre2_match.c through clang -O3 -flto
 *   respec         the spec specialized by respec at build time
 *   generic-frames the pcre2-frames spec compiled with clang -O2: the same
 *                  interpreter called by match_<pattern>_frames, whose match data
 *                  block and backtracking frames are its own (a local array),
 *                  writing the ovector into the caller's array
 *   respec-frames  that spec specialized by respec at build time (--max-work
 *                  10000000, examples/pcre2/CMakeLists.txt)
 *   pcre2-interp   pcre2_match() of the pcre2-8-interp static library (built by
 *                  CMake with the project's C compiler) on the pattern compiled
 *                  at run time: the interpreter as a program links it
 *   pcre2-jit      PCRE2's own JIT from the same sources: pcre2_jit_compile()
 *                  once, then pcre2_jit_match()
 * Every other variant matches with a match data block created once for the
 * pattern and reused, as a program matching many subjects does.
 *
 * Cases: <pattern>: the pattern's example subjects of examples/pcre2/subjects.h
 * (matches and near misses, 9-40 bytes), cycled; <pattern>/long for the
 * unanchored patterns: a 2 KiB log-like text of the examples it does not match,
 * joined by spaces, ending with one it matches, in which the pattern is
 * searched (one operation is one search of the text; where the first match
 * starts is printed).
 * The output of an operation is its return code and the first ovector pair.
 */
#include "harness.h"
#include "peer_jit.h"
#include "pcre2_spec.h"
#include "frames_variants.h"
#include "subjects.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*match_fn)(const unsigned char *subject, size_t length, pcre2_match_data *md);

#define DECLARE(prefix, name) int prefix##match_##name(const unsigned char *, size_t, pcre2_match_data *);
#define DECLARE_GENERIC(name, text, options) DECLARE(generic_, name)
#define DECLARE_CLANG_LTO(name, text, options) DECLARE(clang_lto_, name)
PATTERN_LIST(DECLARE_GENERIC)
PATTERN_LIST(DECLARE_CLANG_LTO)
#ifdef HAVE_PCRE2_RESPEC
#define DECLARE_RESPEC(name, text, options) DECLARE(respec_, name)
PATTERN_LIST(DECLARE_RESPEC)
#define RESPEC(name) respec_match_##name
#else
#define RESPEC(name) NULL
#endif

struct pattern {
	const char *name, *text;
	uint32_t options;
	match_fn generic, clang_lto, respec;
	frames_fn frames_generic, frames_respec;
	pcre2_code *code;
};
#define PATTERN_ENTRY(pname, ptext, poptions)                                                 \
	{ .name = #pname, .text = ptext, .options = poptions, .generic = generic_match_##pname, \
	  .clang_lto = clang_lto_match_##pname, .respec = RESPEC(pname),                      \
	  .frames_generic = FRAMES_GENERIC(pname), .frames_respec = FRAMES_RESPEC(pname) },
static struct pattern patterns[] = { PATTERN_LIST(PATTERN_ENTRY) };
enum { NPATTERNS = sizeof patterns / sizeof patterns[0] };

struct subjects {
	const unsigned char **data;
	size_t *length;
	size_t count;
};

/* What every variant's context starts with: the subjects, a cursor, and the
 * outputs (return code and first pair per subject). */
struct cursor {
	const struct subjects *subjects;
	size_t next;
	int64_t *outputs; /* 3 per subject */
};

static void *checked(void *pointer)
{
	if (pointer == NULL) {
		fprintf(stderr, "bench-pcre2: out of memory\n");
		exit(1);
	}
	return pointer;
}

static struct cursor new_cursor(const struct subjects *subjects)
{
	return (struct cursor){ subjects, 0, checked(calloc(3 * subjects->count, sizeof(int64_t))) };
}

static inline void record(struct cursor *c, size_t index, int rc, const PCRE2_SIZE *ovector)
{
	c->outputs[3 * index] = rc;
	c->outputs[3 * index + 1] = rc > 0 ? (int64_t)ovector[0] : -1;
	c->outputs[3 * index + 2] = rc > 0 ? (int64_t)ovector[1] : -1;
}

static inline size_t advance(struct cursor *c)
{
	size_t index = c->next;
	c->next = index + 1 == c->subjects->count ? 0 : index + 1;
	return index;
}

static uint64_t cursor_digest(void *opaque)
{
	const struct cursor *c = opaque;
	return bench_digest_bytes(BENCH_DIGEST_INIT, c->outputs,
				  3 * c->subjects->count * sizeof *c->outputs);
}

/* A spec variant: match_<pattern> of generic, clang-lto or respec. */
struct spec_variant {
	struct cursor cursor; /* first: cursor_digest reads it */
	match_fn match;
	pcre2_match_data *md;
};

static void spec_run(void *opaque, uint64_t iterations)
{
	struct spec_variant *v = opaque;
	const PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(v->md);
	for (uint64_t i = 0; i < iterations; i++) {
		size_t index = advance(&v->cursor);
		int rc = v->match(v->cursor.subjects->data[index], v->cursor.subjects->length[index],
				  v->md);
		record(&v->cursor, index, rc, ovector);
	}
}

/* A pcre2-frames variant: match_<pattern>_frames, the ovector in an array. */
struct frames_variant {
	struct cursor cursor; /* first */
	frames_fn match;
	size_t ovector[2 * PCRE2_FRAMES_MAX_PAIRS];
};

static void frames_run(void *opaque, uint64_t iterations)
{
	struct frames_variant *v = opaque;
	for (uint64_t i = 0; i < iterations; i++) {
		size_t index = advance(&v->cursor);
		int rc = v->match(v->cursor.subjects->data[index], v->cursor.subjects->length[index],
				  v->ovector);
		record(&v->cursor, index, rc, v->ovector);
	}
}

static void add_frames(struct bench_case *c, const char *variant, const struct subjects *s,
		       frames_fn match)
{
	if (match == NULL)
		return;
	struct frames_variant *v = checked(malloc(sizeof *v));
	*v = (struct frames_variant){ .cursor = new_cursor(s), .match = match };
	bench_add_variant(c, variant, frames_run, cursor_digest, v);
}

/* The library's pcre2_match on the pattern compiled at run time. */
struct library_variant {
	struct cursor cursor; /* first */
	const pcre2_code *code;
	pcre2_match_data *md;
};

static void library_run(void *opaque, uint64_t iterations)
{
	struct library_variant *v = opaque;
	const PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(v->md);
	for (uint64_t i = 0; i < iterations; i++) {
		size_t index = advance(&v->cursor);
		int rc = pcre2_match(v->code, v->cursor.subjects->data[index],
				     v->cursor.subjects->length[index], 0, 0, v->md, NULL);
		record(&v->cursor, index, rc, ovector);
	}
}

/* PCRE2's JIT (peer_jit.h). */
struct jit_variant {
	struct cursor cursor; /* first */
	struct pcre2_jit_peer *peer;
	const size_t *ovector;
};

static void jit_run(void *opaque, uint64_t iterations)
{
	struct jit_variant *v = opaque;
	for (uint64_t i = 0; i < iterations; i++) {
		size_t index = advance(&v->cursor);
		int rc = pcre2_jit_peer_match(v->peer, v->cursor.subjects->data[index],
					      v->cursor.subjects->length[index]);
		record(&v->cursor, index, rc, v->ovector);
	}
}

static void add_spec(struct bench_case *c, const char *variant, const struct subjects *s,
		     const struct pattern *p, match_fn match)
{
	struct spec_variant *v = checked(malloc(sizeof *v));
	*v = (struct spec_variant){ new_cursor(s), match,
				    checked(pcre2_match_data_create_from_pattern(p->code, NULL)) };
	bench_add_variant(c, variant, spec_run, cursor_digest, v);
}

static void add_case(struct bench *bench, const char *name, const struct pattern *p,
		     const struct subjects *s)
{
	struct bench_case *c = bench_add_case(bench, name);
	bench_case_check_iterations(c, s->count);
	add_spec(c, "generic", s, p, p->generic);
	if (p->respec != NULL)
		add_spec(c, "respec", s, p, p->respec);
	add_frames(c, "generic-frames", s, p->frames_generic);
	add_frames(c, "respec-frames", s, p->frames_respec);
	add_spec(c, "clang-lto", s, p, p->clang_lto);

	struct library_variant *lib = checked(malloc(sizeof *lib));
	*lib = (struct library_variant){ new_cursor(s), p->code,
					 checked(pcre2_match_data_create_from_pattern(p->code, NULL)) };
	bench_add_variant(c, "pcre2-interp", library_run, cursor_digest, lib);

	char why[256];
	struct pcre2_jit_peer *peer = pcre2_jit_peer_create(p->text, p->options, why, sizeof why);
	if (peer == NULL) {
		printf("%s: pcre2-jit left out: %s\n", name, why);
		return;
	}
	struct jit_variant *jit = checked(malloc(sizeof *jit));
	uint32_t pairs;
	*jit = (struct jit_variant){ new_cursor(s), peer, pcre2_jit_peer_ovector(peer, &pairs) };
	bench_add_variant(c, "pcre2-jit", jit_run, cursor_digest, jit);
}

static struct subjects example_subjects(const char *const *examples)
{
	struct subjects s = { 0 };
	while (examples[s.count])
		s.count++;
	s.data = checked(calloc(s.count, sizeof *s.data));
	s.length = checked(calloc(s.count, sizeof *s.length));
	for (size_t i = 0; i < s.count; i++) {
		s.data[i] = (const unsigned char *)examples[i];
		s.length[i] = strlen(examples[i]);
	}
	return s;
}

enum { LONG_TEXT = 2048 };

/*
 * A log-like text in which the pattern is searched: the examples the pattern
 * does not match, joined by spaces, repeated to LONG_TEXT bytes, then the first
 * example it matches. Prints where the first match starts (near the end unless
 * the joined near misses match across their boundaries).
 */
static struct subjects long_subject(const struct pattern *p, const char *const *examples)
{
	pcre2_match_data *md = checked(pcre2_match_data_create_from_pattern(p->code, NULL));
	const char *found = NULL;
	unsigned char *text = checked(malloc(LONG_TEXT + 256));
	size_t n = 0;
	while (n < LONG_TEXT) {
		size_t before = n;
		for (size_t i = 0; examples[i] && n < LONG_TEXT; i++) {
			size_t len = strlen(examples[i]);
			if (pcre2_match(p->code, (PCRE2_SPTR)examples[i], len, 0, 0, md, NULL) > 0) {
				found = found ? found : examples[i];
				continue;
			}
			memcpy(text + n, examples[i], len < LONG_TEXT - n ? len : LONG_TEXT - n);
			n += len < LONG_TEXT - n ? len : LONG_TEXT - n;
			if (n < LONG_TEXT)
				text[n++] = ' ';
		}
		if (n == before)
			break;
	}
	if (found != NULL && strlen(found) < 256) {
		memcpy(text + n, found, strlen(found));
		n += strlen(found);
	}
	int rc = pcre2_match(p->code, text, n, 0, 0, md, NULL);
	printf("%s/long: %zu bytes, first match at offset %s%zu\n", p->name, n,
	       rc > 0 ? "" : "(none) ", rc > 0 ? (size_t)pcre2_get_ovector_pointer(md)[0] : n);
	pcre2_match_data_free(md);
	struct subjects s = { checked(malloc(sizeof *s.data)), checked(malloc(sizeof *s.length)), 1 };
	s.data[0] = text;
	s.length[0] = n;
	return s;
}

int main(int argc, char **argv)
{
	struct bench *bench = bench_create("pcre2", argc, argv);
	bench_use_thread_cpu_time(bench);
#ifndef HAVE_PCRE2_RESPEC
	printf("respec left out: the respec tool was not built\n");
#endif
	for (size_t i = 0; i < NPATTERNS; i++) {
		struct pattern *p = &patterns[i];
		int error;
		PCRE2_SIZE offset;
		p->code = pcre2_compile((PCRE2_SPTR)p->text, PCRE2_ZERO_TERMINATED, p->options, &error,
					&offset, NULL);
		const char *const *examples = pcre2_examples_for(p->name);
		uint32_t captures = 0;
		if (p->code != NULL)
			pcre2_pattern_info(p->code, PCRE2_INFO_CAPTURECOUNT, &captures);
		if (p->code == NULL || examples == NULL || captures >= PCRE2_FRAMES_MAX_PAIRS) {
			fprintf(stderr, "bench-pcre2: pattern %s: %s\n", p->name,
				p->code == NULL ? "does not compile"
				: examples == NULL ? "no example subjects"
						   : "too many captures for the frames variants");
			return 1;
		}
		struct subjects *s = checked(malloc(sizeof *s));
		*s = example_subjects(examples);
		add_case(bench, p->name, p, s);
		uint32_t flags;
		pcre2_pattern_info(p->code, PCRE2_INFO_ALLOPTIONS, &flags);
		if ((flags & PCRE2_ANCHORED) == 0) {
			char name[64];
			snprintf(name, sizeof name, "%s/long", p->name);
			struct subjects *text = checked(malloc(sizeof *text));
			*text = long_subject(p, examples);
			add_case(bench, strdup(name), p, text);
		}
	}
	return bench_run(bench);
}
