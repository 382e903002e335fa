/*
 * pcre2_diff.c — differential test of the PCRE2 case study: every pattern of
 * examples/pcre2/patterns.txt, matched by a variant, against PCRE2's interpreter
 * itself (pcre2_compile + pcre2_match of the pcre2-8-interp library, the pattern
 * compiled at run time from its text), on random and adversarial subjects.
 *
 *   pcre2-diff VARIANT [--seed N] [--iterations N] [--iteration I] [--function NAME]
 *
 * VARIANT: generic, clang-lto, respec (the spec functions match_<pattern>, which
 * call pcre2_match on the pattern compiled into the spec), frames-generic,
 * frames-respec (the pcre2-frames variants: match_<pattern>_frames, whose match
 * data and backtracking frames are the spec function's own, writing the ovector
 * into an array), jit (PCRE2's own JIT, pcre2_jit_match), or selftest and
 * frames-selftest (generic and frames-generic with a planted bug, which the test
 * must report). --iterations is the number of subjects per pattern; --function
 * NAME tests only pattern NAME.
 *
 * "Identical" for the spec variants: the return code, every ovector entry (both
 * match data blocks start with the same non-PCRE2_UNSET garbage in every entry,
 * so an entry one side leaves alone and the other writes shows), the start
 * character offset (pcre2_get_startchar) and an unchanged subject, which ends at
 * an inaccessible page so that reading past it crashes. For the frames
 * variants, whose ovector is their own block's and is left undefined when there
 * is no match: the return code, and for a match every ovector entry (PCRE2 sets
 * those of the captures that did not take part to PCRE2_UNSET) and the unchanged
 * subject. For the JIT, which writes the ovector only as far as it reports: the
 * return code, and for a match the pairs below the return code. The subjects must exercise both outcomes: at
 * least 1% matches and 1% non-matches per pattern (diff_function_done).
 *
 * Subjects (iteration i of pattern p is reproducible from the seed): examples of
 * the pattern's language and near misses, mutated (bytes replaced, inserted,
 * deleted, duplicated, truncated) over an alphabet of the pattern's characters
 * plus NUL, newline, tab, 0x80 and 0xff; concatenations; random strings over the
 * alphabet; random bytes; long runs that make the backtracking patterns work.
 */
#include "diffcheck.h"
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
PATTERN_LIST(DECLARE_GENERIC)
#ifdef HAVE_PCRE2_CLANG_LTO
#define DECLARE_CLANG_LTO(name, text, options) DECLARE(clang_lto_, name)
PATTERN_LIST(DECLARE_CLANG_LTO)
#define CLANG_LTO(name) clang_lto_match_##name
#else
#define CLANG_LTO(name) NULL
#endif
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
};

#define PATTERN_ENTRY(pname, ptext, poptions)                                                 \
	{ .name = #pname, .text = ptext, .options = poptions, .generic = generic_match_##pname, \
	  .clang_lto = CLANG_LTO(pname), .respec = RESPEC(pname),                             \
	  .frames_generic = FRAMES_GENERIC(pname), .frames_respec = FRAMES_RESPEC(pname) },
static const struct pattern patterns[] = { PATTERN_LIST(PATTERN_ENTRY) };
enum { NPATTERNS = sizeof patterns / sizeof patterns[0] };

/* ---- subjects ---- */

enum { MAX_SUBJECT = 512 };

struct subject_source {
	const char *const *examples;
	size_t nexamples;
	char alphabet[256];
	size_t nalphabet;
};

static void add_letter(struct subject_source *s, unsigned char c)
{
	if (memchr(s->alphabet, c, s->nalphabet) == NULL)
		s->alphabet[s->nalphabet++] = (char)c;
}

static struct subject_source subject_source_for(const struct pattern *p)
{
	struct subject_source s = { 0 };
	s.examples = pcre2_examples_for(p->name);
	if (s.examples == NULL) {
		fprintf(stderr, "pcre2-diff: no example subjects for pattern %s\n", p->name);
		exit(2);
	}
	while (s.examples[s.nexamples])
		s.nexamples++;
	for (size_t i = 0; i < s.nexamples; i++)
		for (const unsigned char *c = (const unsigned char *)s.examples[i]; *c; c++)
			add_letter(&s, *c);
	/* The pattern's own literal characters (its text minus syntax is close enough). */
	for (const unsigned char *c = (const unsigned char *)p->text; *c; c++)
		add_letter(&s, *c);
	const unsigned char extra[] = { 0, '\n', '\r', '\t', ' ', 0x80, 0xff, 'a', 'b', 'c', '0', '9' };
	for (size_t i = 0; i < sizeof extra; i++)
		add_letter(&s, extra[i]);
	return s;
}

static unsigned char letter(const struct subject_source *s, struct diff_rng *rng)
{
	return (unsigned char)s->alphabet[diff_rng_below(rng, s->nalphabet)];
}

static size_t append(unsigned char *out, size_t n, const char *text)
{
	size_t len = strlen(text);
	if (len > MAX_SUBJECT - n)
		len = MAX_SUBJECT - n;
	memcpy(out + n, text, len);
	return n + len;
}

/* Writes subject number `rng` into out; returns its length. */
static size_t make_subject(const struct subject_source *s, struct diff_rng *rng, unsigned char *out)
{
	size_t n = 0;
	uint64_t kind = diff_rng_below(rng, 16);
	const char *example = s->examples[diff_rng_below(rng, s->nexamples)];
	if (kind < 4) {
		/* an example as it is */
		n = append(out, 0, example);
	} else if (kind < 10) {
		/* an example mutated a few times */
		n = append(out, 0, example);
		for (uint64_t m = 1 + diff_rng_below(rng, 3); m > 0; m--) {
			size_t at = n ? (size_t)diff_rng_below(rng, n + 1) : 0;
			switch (diff_rng_below(rng, 5)) {
			case 0: /* replace */
				if (at < n)
					out[at] = letter(s, rng);
				break;
			case 1: /* insert */
				if (n < MAX_SUBJECT) {
					memmove(out + at + 1, out + at, n - at);
					out[at] = letter(s, rng);
					n++;
				}
				break;
			case 2: /* delete */
				if (at < n) {
					memmove(out + at, out + at + 1, n - at - 1);
					n--;
				}
				break;
			case 3: /* truncate */
				n = at;
				break;
			default: { /* duplicate a piece */
				size_t len = n - at < 8 ? n - at : 8;
				if (n + len <= MAX_SUBJECT) {
					memmove(out + at + len, out + at, n - at);
					n += len;
				}
				break;
			}
			}
		}
	} else if (kind < 12) {
		/* examples joined by a letter */
		n = append(out, 0, example);
		for (uint64_t m = diff_rng_below(rng, 3); m > 0 && n < MAX_SUBJECT; m--) {
			out[n++] = letter(s, rng);
			n = append(out, n, s->examples[diff_rng_below(rng, s->nexamples)]);
		}
	} else if (kind < 14) {
		/* random over the alphabet */
		n = (size_t)diff_rng_below(rng, 40);
		for (size_t i = 0; i < n; i++)
			out[i] = letter(s, rng);
	} else if (kind < 15) {
		/* random bytes */
		n = (size_t)diff_rng_below(rng, 40);
		diff_rng_fill(rng, out, n);
	} else {
		/* a long run of one or two repeated letters or an example's prefix (work
		 * for backtracking), then maybe an example */
		unsigned char a = letter(s, rng), b = letter(s, rng);
		if (diff_rng_one_in(rng, 2))
			a = (unsigned char)example[0], b = example[0] ? (unsigned char)example[1] : b;
		n = 100 + (size_t)diff_rng_below(rng, 300);
		for (size_t i = 0; i < n; i++)
			out[i] = i % 2 && diff_rng_one_in(rng, 2) ? b : a;
		if (diff_rng_one_in(rng, 2))
			n = append(out, n, example);
	}
	return n;
}

/* ---- variants ---- */

static const struct pattern *selftest_pattern;
static int selftest_match(const unsigned char *subject, size_t length, pcre2_match_data *md);
static int selftest_frames(const unsigned char *subject, size_t length, size_t *ovector);

/* How a variant is called: match_<pattern> with a match data block, PCRE2's
 * JIT, or match_<pattern>_frames with an ovector array. */
enum kind { SPEC, JIT, FRAMES };

struct variant {
	const char *name;
	enum kind kind;
};
static const struct variant variants[] = {
	{ "generic", SPEC },	    { "clang-lto", SPEC },	  { "respec", SPEC },
	{ "jit", JIT },		    { "selftest", SPEC },	  { "frames-generic", FRAMES },
	{ "frames-respec", FRAMES }, { "frames-selftest", FRAMES },
};

static match_fn function_of(const struct variant *v, const struct pattern *p)
{
	if (strcmp(v->name, "generic") == 0)
		return p->generic;
	if (strcmp(v->name, "clang-lto") == 0)
		return p->clang_lto;
	if (strcmp(v->name, "respec") == 0)
		return p->respec;
	if (strcmp(v->name, "selftest") == 0) {
		selftest_pattern = p;
		return selftest_match;
	}
	return NULL;
}

static frames_fn frames_function_of(const struct variant *v, const struct pattern *p)
{
	if (strcmp(v->name, "frames-generic") == 0)
		return p->frames_generic;
	if (strcmp(v->name, "frames-respec") == 0)
		return p->frames_respec;
	if (strcmp(v->name, "frames-selftest") == 0 && p->frames_generic != NULL) {
		selftest_pattern = p;
		return selftest_frames;
	}
	return NULL;
}

/* The planted bug: the end of the first capture off by one when the match has
 * a capture that does not end the subject. */
static int plant_bug(int rc, PCRE2_SIZE *ovector, size_t length)
{
	if (rc > 1 && ovector[3] != PCRE2_UNSET && ovector[3] < length)
		ovector[3]++;
	return rc;
}

static int selftest_match(const unsigned char *subject, size_t length, pcre2_match_data *md)
{
	return plant_bug(selftest_pattern->generic(subject, length, md),
			 pcre2_get_ovector_pointer(md), length);
}

static int selftest_frames(const unsigned char *subject, size_t length, size_t *ovector)
{
	return plant_bug(selftest_pattern->frames_generic(subject, length, ovector), ovector,
			 length);
}

static void *checked(void *pointer)
{
	if (pointer == NULL) {
		fprintf(stderr, "pcre2-diff: out of memory\n");
		exit(2);
	}
	return pointer;
}

static void fill_garbage(pcre2_match_data *md, struct diff_rng *rng)
{
	PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(md);
	uint32_t pairs = pcre2_get_ovector_count(md);
	for (uint32_t i = 0; i < 2 * pairs; i++)
		ovector[i] = (PCRE2_SIZE)diff_rng_below(rng, 1u << 20) | 0x40000000u;
}

static void show_subject(const unsigned char *subject, size_t length)
{
	fprintf(stderr, "subject (%zu bytes): \"", length);
	for (size_t i = 0; i < length && i < 200; i++)
		fprintf(stderr, subject[i] >= 32 && subject[i] < 127 && subject[i] != '"' &&
					subject[i] != '\\' ? "%c" : "\\x%02x",
			subject[i]);
	fprintf(stderr, "%s\"\n", length > 200 ? "..." : "");
}

static void test_pattern(struct diff_run *run, const struct variant *v, const struct pattern *p,
			 struct diff_input *input)
{
	int error;
	PCRE2_SIZE offset;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)p->text, PCRE2_ZERO_TERMINATED, p->options,
					 &error, &offset, NULL);
	if (code == NULL) {
		fprintf(stderr, "pcre2-diff: pattern %s does not compile (error %d at %zu)\n",
			p->name, error, (size_t)offset);
		exit(2);
	}
	pcre2_match_data *expected_md = checked(pcre2_match_data_create_from_pattern(code, NULL));
	pcre2_match_data *actual_md = checked(pcre2_match_data_create_from_pattern(code, NULL));
	uint32_t pairs = pcre2_get_ovector_count(expected_md);
	match_fn match = NULL;
	frames_fn frames = NULL;
	PCRE2_SIZE frames_ovector[2 * PCRE2_FRAMES_MAX_PAIRS];
	struct pcre2_jit_peer *jit = NULL;
	if (v->kind == JIT) {
		char why[256];
		jit = pcre2_jit_peer_create(p->text, p->options, why, sizeof why);
		if (jit == NULL) {
			fprintf(stderr, "pcre2-diff: jit: %s: %s\n", p->name, why);
			exit(2);
		}
	} else if ((v->kind == SPEC && (match = function_of(v, p)) == NULL) ||
		   (v->kind == FRAMES && (frames = frames_function_of(v, p)) == NULL)) {
		fprintf(stderr, "pcre2-diff: variant %s is not built\n", v->name);
		exit(2);
	}
	if (v->kind == FRAMES && pairs > PCRE2_FRAMES_MAX_PAIRS) {
		fprintf(stderr, "pcre2-diff: %s has more than %d capture pairs\n", p->name,
			PCRE2_FRAMES_MAX_PAIRS);
		exit(2);
	}

	struct subject_source source = subject_source_for(p);
	unsigned char buffer[MAX_SUBJECT + 16];
	uint64_t captured = 0;
	struct diff_rng rng;
	while (diff_next(run, p->name, &rng)) {
		size_t length = make_subject(&source, &rng, buffer);
		unsigned char *subject = diff_input_place(input, length);
		memcpy(subject, buffer, length);
		diff_input_seal(input);

		fill_garbage(expected_md, &rng);
		pcre2_match_data_free(actual_md);
		actual_md = checked(pcre2_match_data_create_from_pattern(code, NULL));
		memcpy(pcre2_get_ovector_pointer(actual_md), pcre2_get_ovector_pointer(expected_md),
		       2 * pairs * sizeof(PCRE2_SIZE));

		int expected = pcre2_match(code, subject, length, 0, 0, expected_md, NULL);
		diff_expect_input_unchanged(run, "subject after PCRE2's interpreter", input);
		int actual;
		const PCRE2_SIZE *got;
		uint32_t compared; /* pairs */
		switch (v->kind) {
		case JIT:
			actual = pcre2_jit_peer_match(jit, subject, length);
			got = pcre2_jit_peer_ovector(jit, &(uint32_t){ 0 });
			compared = expected > 0 ? (uint32_t)expected : 0;
			break;
		case FRAMES:
			actual = frames(subject, length, frames_ovector);
			got = frames_ovector;
			compared = expected > 0 ? pairs : 0;
			break;
		default:
			actual = match(subject, length, actual_md);
			got = pcre2_get_ovector_pointer(actual_md);
			compared = pairs;
			break;
		}
		diff_expect_input_unchanged(run, "subject after the variant", input);

		const PCRE2_SIZE *want = pcre2_get_ovector_pointer(expected_md);
		if (expected != actual) {
			show_subject(subject, length);
			diff_fail(run, "%s: return code differs: PCRE2's interpreter %d, %s %d", p->name,
				  expected, v->name, actual);
		}
		for (uint32_t i = 0; i < 2 * compared; i++)
			if (want[i] != got[i]) {
				show_subject(subject, length);
				diff_fail(run, "%s: ovector[%u] differs (return code %d): PCRE2's "
					       "interpreter %zu, %s %zu", p->name, i, expected,
					  (size_t)want[i], v->name, (size_t)got[i]);
			}
		if (v->kind == SPEC && expected >= 0 &&
		    pcre2_get_startchar(expected_md) != pcre2_get_startchar(actual_md)) {
			show_subject(subject, length);
			diff_fail(run, "%s: start character differs: PCRE2's interpreter %zu, %s %zu",
				  p->name, (size_t)pcre2_get_startchar(expected_md), v->name,
				  (size_t)pcre2_get_startchar(actual_md));
		}
		if (expected < -1) {
			show_subject(subject, length);
			diff_fail(run, "%s: PCRE2's interpreter returned error %d: the subjects should "
				       "only match or not", p->name, expected);
		}
		captured += expected > 1 && want[2] != PCRE2_UNSET;
		diff_count_outcome(run, expected > 0);
	}
	uint64_t total = run->succeeded + run->failed;
	uint32_t captures = 0;
	pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &captures);
	if (total > 0 && captures > 0)
		printf("  %-18s %llu matches set capture 1\n", p->name, (unsigned long long)captured);
	if (total >= 1000 && captures > 0 && captured < total / 100) {
		fprintf(stderr, "FAIL: %s: fewer than 1%% of the subjects set a capture\n", p->name);
		exit(1);
	}
	diff_function_done(run, p->name);
	pcre2_jit_peer_destroy(jit);
	pcre2_match_data_free(expected_md);
	pcre2_match_data_free(actual_md);
	pcre2_code_free(code);
}

int main(int argc, char **argv)
{
	struct diff_run run;
	diff_begin(&run, argc, argv, 10000);
	const struct variant *v = DIFF_FIND_VARIANT(run.variant, variants);
	struct diff_input input;
	diff_input_init(&input, MAX_SUBJECT);
	for (size_t i = 0; i < NPATTERNS; i++)
		test_pattern(&run, v, &patterns[i], &input);
	diff_input_destroy(&input);
	printf("%s: every pattern agrees with PCRE2's interpreter\n", run.variant);
	return 0;
}
