/*
 * diff_tokenizer.c — differential test of the state machine program: every spec
 * function of the tested variant against generic, on 0 to 48 bytes (ending at a
 * guard page) drawn mostly from the characters the configurations care about,
 * with a canaried token array and a random capacity (full arrays must fail alike).
 */
#include "tokenizer_spec.h"

TOKENIZER_SPEC_FUNCTIONS(CORPUS_DECLARE_VARIANTS)

enum { LONGEST = 48, MOST_TOKENS = 32 };

static void random_text(struct diff_rng *rng, uint8_t *text, size_t n)
{
	static const char common[] = "abcxyzXF_0123456789 \n\"'#\\+-(;=";
	for (size_t i = 0; i < n; i++)
		text[i] = diff_rng_one_in(rng, 40) ? (uint8_t)diff_rng_next(rng)
						   : (uint8_t)common[diff_rng_below(rng, sizeof common - 1)];
}

static void expect_known_answer(void)
{
	const char *text = "x_1 = 0x1f+\"a\\\"b\" # note\n7";
	struct token out[MOST_TOKENS];
	static const struct token expected[] = {
		{ TK_IDENT, 0, 3 }, { TK_PUNCT, 4, 1 }, { TK_HEX, 6, 4 }, { TK_PUNCT, 10, 1 },
		{ TK_STRING, 11, 6 }, { TK_NUMBER, 25, 1 },
	};
	int count = GENERIC(tokenize_c_like)((const uint8_t *)text, strlen(text), out, MOST_TOKENS);
	if (count != 6 || memcmp(out, expected, sizeof expected) != 0) {
		fprintf(stderr, "FAIL: generic tokenize_c_like gets %d tokens wrong\n", count);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct diff_run run;
	corpus_begin(&run, argc, argv);
	expect_known_answer();
	struct diff_input input;
	struct diff_buffer generic_out, tested_out;
	diff_input_init(&input, LONGEST);
	diff_buffer_init(&generic_out, MOST_TOKENS * sizeof(struct token));
	diff_buffer_init(&tested_out, MOST_TOKENS * sizeof(struct token));
	struct diff_rng rng;

	static const struct {
		const char *name;
		int (*generic)(const uint8_t *, size_t, struct token *, size_t),
			(*tested)(const uint8_t *, size_t, struct token *, size_t);
	} functions[] = {
		{ "tokenize_c_like", GENERIC(tokenize_c_like), TESTED(tokenize_c_like) },
		{ "tokenize_strict", GENERIC(tokenize_strict), TESTED(tokenize_strict) },
		{ "tokenize_resume_string", GENERIC(tokenize_resume_string),
		  TESTED(tokenize_resume_string) },
		{ "tokenize_few", NULL, NULL },
	};
	for (size_t f = 0; f < sizeof functions / sizeof functions[0]; f++) {
		while (diff_next(&run, functions[f].name, &rng)) {
			size_t n = (size_t)diff_rng_below(&rng, LONGEST + 1);
			uint8_t *text = diff_input_place(&input, n);
			random_text(&rng, text, n);
			diff_input_seal(&input);
			size_t capacity = diff_rng_one_in(&rng, 4) ? (size_t)diff_rng_below(&rng, 6)
								   : MOST_TOKENS;
			diff_buffer_randomize(&generic_out, &rng);
			diff_buffer_copy(&tested_out, &generic_out);

			int expected, actual;
			if (functions[f].generic != NULL) {
				expected = functions[f].generic(text, n, diff_buffer_data(&generic_out),
								capacity);
				diff_expect_input_unchanged(&run, "text after generic", &input);
				actual = functions[f].tested(text, n, diff_buffer_data(&tested_out),
							     capacity);
			} else {
				expected = GENERIC(tokenize_few)(text, n, diff_buffer_data(&generic_out));
				diff_expect_input_unchanged(&run, "text after generic", &input);
				actual = TESTED(tokenize_few)(text, n, diff_buffer_data(&tested_out));
			}
			diff_expect_input_unchanged(&run, "text after the variant", &input);
			diff_expect_equal_int(&run, "token count or error", expected, actual);
			diff_expect_equal_buffers(&run, "tokens", &generic_out, &tested_out);
			diff_count_outcome(&run, expected >= 0);
		}
		diff_function_done(&run, functions[f].name);
	}

	diff_buffer_destroy(&generic_out);
	diff_buffer_destroy(&tested_out);
	diff_input_destroy(&input);
	printf("%s: all tokenizers agree with generic\n", run.variant);
	return 0;
}
