/*
 * tokenizer_spec.c — spec of the state machine program: the generic tokenizer
 * (tokenizer.c) with its configuration and initial state fixed here.
 *
 * The input decides every transition after the first byte, so the byte loop stays
 * a loop with a residual switch on the state; what must fold is the configuration
 * (flags, quote and comment characters: a const global and a stack copy), the
 * initial state on entry, and, in tokenize_few, the capacity.
 */
#include "tokenizer_spec.h"

#include <respec/respec.h>

static const struct tok_config c_like = {
	.flags = TOK_HEX | TOK_COMMENTS | TOK_UNDERSCORE | TOK_ESCAPES,
	.quote = '"',
	.comment = '#',
};

RESPEC_SPECIALIZE int tokenize_c_like(const uint8_t *in, size_t n, struct token *out,
				      size_t capacity)
{
	return tokenize(&c_like, TS_START, in, n, out, capacity);
}

RESPEC_SPECIALIZE int tokenize_strict(const uint8_t *in, size_t n, struct token *out,
				      size_t capacity)
{
	struct tok_config strict = { .flags = 0, .quote = '\'', .comment = '#' };
	return tokenize(&strict, TS_START, in, n, out, capacity);
}

/* Continues a string that began in an earlier buffer. */
RESPEC_SPECIALIZE int tokenize_resume_string(const uint8_t *in, size_t n, struct token *out,
					     size_t capacity)
{
	return tokenize(&c_like, TS_STRING, in, n, out, capacity);
}

RESPEC_SPECIALIZE int tokenize_few(const uint8_t *in, size_t n, struct token *out)
{
	return tokenize(&c_like, TS_START, in, n, out, FEW_TOKENS);
}
