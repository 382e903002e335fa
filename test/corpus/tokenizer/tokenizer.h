/*
 * tokenizer.h — a configurable tokenizer written as a state machine: an enum state
 * switched on for every input byte. The configuration (which token forms exist,
 * the quote and comment characters) and the starting state (to resume inside a
 * string split across buffers) are parameters.
 */
#ifndef TOKENIZER_H
#define TOKENIZER_H

#include <stddef.h>
#include <stdint.h>

enum tok_state { TS_START, TS_IDENT, TS_NUMBER, TS_ZERO, TS_HEX, TS_STRING, TS_ESCAPE, TS_COMMENT };
enum tok_kind { TK_IDENT = 1, TK_NUMBER, TK_HEX, TK_STRING, TK_PUNCT };
enum tok_flags {
	TOK_HEX = 1,        /* 0x1f numbers */
	TOK_COMMENTS = 2,   /* from the comment character to the end of the line */
	TOK_UNDERSCORE = 4, /* '_' in identifiers */
	TOK_ESCAPES = 8,    /* backslash escapes in strings */
};
enum tok_error { TOK_FULL = -1, TOK_BAD_BYTE = -2, TOK_UNTERMINATED = -3 };

struct tok_config {
	unsigned flags;
	unsigned char quote, comment;
};

struct token {
	uint16_t kind;
	uint16_t start, length; /* in the input; a resumed string starts at 0 */
};

/*
 * Tokenizes in[0..n) starting in state initial (TS_START, or TS_STRING to resume a
 * string); writes at most capacity tokens. Returns how many, or an error (the
 * tokens found before it stay written).
 */
int tokenize(const struct tok_config *config, enum tok_state initial, const uint8_t *in,
	     size_t n, struct token *out, size_t capacity);

#endif
