/*
 * diff_matcher.c — differential test of the matcher program: every spec function
 * of the tested variant against generic, on texts of 0 to 40 bytes (ending at a
 * guard page) that are random over the patterns' alphabet, instances of the pattern
 * (so that matches are common), or instances with one byte changed.
 */
#include "matcher_spec.h"

MATCHER_SPEC_FUNCTIONS(CORPUS_DECLARE_VARIANTS)

enum { LONGEST = 40 };

static const char alphabet[] = "v0123456789.-+abcxyz*?log";

static uint8_t random_byte(struct diff_rng *rng)
{
	return (uint8_t)alphabet[diff_rng_below(rng, sizeof alphabet - 1)];
}

/* Writes a text that pattern matches (runs for '*' kept short); returns its length. */
static size_t instantiate(struct diff_rng *rng, const char *pattern, uint8_t *text)
{
	size_t n = 0;
	for (const char *p = pattern; *p != '\0' && n < LONGEST - 4; p++) {
		switch (*p) {
		case '*':
			for (uint64_t run = diff_rng_below(rng, 4); run > 0; run--)
				text[n++] = random_byte(rng);
			break;
		case '?':
			text[n++] = random_byte(rng);
			break;
		case '[': /* the first range's low end, or 'z' outside a negated class */
			text[n++] = p[1] == '!' ? 'z' : (uint8_t)p[1];
			while (*p != ']')
				p++;
			break;
		case '\\':
			text[n++] = (uint8_t)*++p;
			break;
		default:
			text[n++] = (uint8_t)*p;
		}
	}
	return n;
}

/* A decimal number, sometimes malformed. */
static size_t random_decimal(struct diff_rng *rng, uint8_t *text)
{
	static const char *const parts[] = { "+", "-", "0", "42", "7", ".", "5", "12", "x", "" };
	size_t n = 0;
	for (uint64_t k = 1 + diff_rng_below(rng, 5); k > 0; k--) {
		const char *part = parts[diff_rng_below(rng, sizeof parts / sizeof parts[0])];
		while (*part != '\0' && n < LONGEST)
			text[n++] = (uint8_t)*part++;
	}
	return n;
}

static size_t random_text(struct diff_rng *rng, const char *pattern, uint8_t *text)
{
	size_t n;
	switch (diff_rng_below(rng, 4)) {
	case 0:
		n = (size_t)diff_rng_below(rng, LONGEST + 1);
		for (size_t i = 0; i < n; i++)
			text[i] = diff_rng_one_in(rng, 30) ? (uint8_t)diff_rng_next(rng) : random_byte(rng);
		return n;
	case 1:
		n = pattern ? instantiate(rng, pattern, text) : random_decimal(rng, text);
		if (n > 0)
			text[diff_rng_below(rng, n)] = random_byte(rng);
		return n;
	default:
		return pattern ? instantiate(rng, pattern, text) : random_decimal(rng, text);
	}
}

static void expect_known(const char *what, bool actual, bool expected)
{
	if (actual != expected) {
		fprintf(stderr, "FAIL: generic %s is %d, expected %d\n", what, actual, expected);
		exit(1);
	}
}

static void check_known_answers(void)
{
#define KNOWN(fn, text, expected) \
	expect_known(#fn "(" #text ")", GENERIC(fn)((const uint8_t *)text, strlen(text)), expected)
	KNOWN(glob_log, "a.b.log", true);
	KNOWN(glob_log, "a.log.", false);
	KNOWN(glob_version, "v1.2rc-xz", true);
	KNOWN(glob_version, "v1.2-xa", false);
	KNOWN(glob_quoted, "*abbxb?", false);
	KNOWN(glob_quoted, "*axbbyb?", false);
	KNOWN(glob_quoted, "*aab??", true);
	KNOWN(dfa_decimal, "-12.5", true);
	KNOWN(dfa_decimal, "12.", false);
#undef KNOWN
}

int main(int argc, char **argv)
{
	struct diff_run run;
	corpus_begin(&run, argc, argv);
	check_known_answers();
	struct diff_input input;
	diff_input_init(&input, LONGEST);
	uint8_t scratch[LONGEST];
	struct diff_rng rng;

	static const struct {
		const char *name, *pattern; /* NULL: the decimal DFA */
		bool (*generic)(const uint8_t *, size_t), (*tested)(const uint8_t *, size_t);
	} functions[] = {
		{ "glob_log", GLOB_LOG_PATTERN, GENERIC(glob_log), TESTED(glob_log) },
		{ "glob_version", GLOB_VERSION_PATTERN, GENERIC(glob_version), TESTED(glob_version) },
		{ "glob_quoted", GLOB_QUOTED_PATTERN, GENERIC(glob_quoted), TESTED(glob_quoted) },
		{ "dfa_decimal", NULL, GENERIC(dfa_decimal), TESTED(dfa_decimal) },
	};
	for (size_t f = 0; f < sizeof functions / sizeof functions[0]; f++) {
		while (diff_next(&run, functions[f].name, &rng)) {
			size_t n = random_text(&rng, functions[f].pattern, scratch);
			const uint8_t *text = memcpy(diff_input_place(&input, n), scratch, n);
			diff_input_seal(&input);
			bool expected = functions[f].generic(text, n);
			diff_expect_input_unchanged(&run, "text after generic", &input);
			bool actual = functions[f].tested(text, n);
			diff_expect_input_unchanged(&run, "text after the variant", &input);
			diff_expect_equal_int(&run, "match", expected, actual);
			diff_count_outcome(&run, expected);
		}
		diff_function_done(&run, functions[f].name);
	}
	diff_input_destroy(&input);
	printf("%s: all matchers agree with generic\n", run.variant);
	return 0;
}
