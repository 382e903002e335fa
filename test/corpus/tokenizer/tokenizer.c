/*
 * tokenizer.c — the generic tokenizer (see tokenizer.h): one loop over the bytes,
 * a switch on the state inside, the configuration consulted as it goes.
 */
#include "tokenizer.h"

#include <stdbool.h>

struct lexer {
	const struct tok_config *config;
	struct token *out;
	size_t capacity, count, start;
};

static bool is_letter(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

static bool is_hex_digit(uint8_t c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_punct(uint8_t c)
{
	switch (c) {
	case '+': case '-': case '*': case '/': case '(': case ')': case ';': case ',': case '=':
		return true;
	default:
		return false;
	}
}

static bool in_identifier(const struct lexer *lx, uint8_t c)
{
	return is_letter(c) || is_digit(c) || (c == '_' && (lx->config->flags & TOK_UNDERSCORE));
}

static bool emit(struct lexer *lx, enum tok_kind kind, size_t end)
{
	if (lx->count == lx->capacity)
		return false;
	lx->out[lx->count++] = (struct token){ (uint16_t)kind, (uint16_t)lx->start,
					       (uint16_t)(end - lx->start) };
	return true;
}

/* The state after byte c at offset at, outside any token; negative on error. */
static int begin(struct lexer *lx, uint8_t c, size_t at)
{
	const struct tok_config *config = lx->config;
	lx->start = at;
	if (is_letter(c) || (c == '_' && (config->flags & TOK_UNDERSCORE)))
		return TS_IDENT;
	if (c == '0' && (config->flags & TOK_HEX))
		return TS_ZERO;
	if (is_digit(c))
		return TS_NUMBER;
	if (c == config->quote)
		return TS_STRING;
	if (c == config->comment && (config->flags & TOK_COMMENTS))
		return TS_COMMENT;
	if (c == ' ' || c == '\t' || c == '\n')
		return TS_START;
	if (is_punct(c))
		return emit(lx, TK_PUNCT, at + 1) ? TS_START : TOK_FULL;
	return TOK_BAD_BYTE;
}

/* Ends the token of kind before offset at, then begins with byte c. */
static int end_then_begin(struct lexer *lx, enum tok_kind kind, uint8_t c, size_t at)
{
	return emit(lx, kind, at) ? begin(lx, c, at) : TOK_FULL;
}

int tokenize(const struct tok_config *config, enum tok_state initial, const uint8_t *in,
	     size_t n, struct token *out, size_t capacity)
{
	struct lexer lx = { config, out, capacity, 0, 0 };
	int state = initial;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = in[i];
		switch (state) {
		case TS_START:
			state = begin(&lx, c, i);
			break;
		case TS_IDENT:
			if (!in_identifier(&lx, c))
				state = end_then_begin(&lx, TK_IDENT, c, i);
			break;
		case TS_ZERO:
			if (c == 'x' || c == 'X')
				state = TS_HEX;
			else if (!is_digit(c))
				state = end_then_begin(&lx, TK_NUMBER, c, i);
			else
				state = TS_NUMBER;
			break;
		case TS_NUMBER:
			if (!is_digit(c))
				state = end_then_begin(&lx, TK_NUMBER, c, i);
			break;
		case TS_HEX:
			if (!is_hex_digit(c))
				state = end_then_begin(&lx, TK_HEX, c, i);
			break;
		case TS_STRING:
			if (c == '\\' && (config->flags & TOK_ESCAPES))
				state = TS_ESCAPE;
			else if (c == config->quote)
				state = emit(&lx, TK_STRING, i + 1) ? TS_START : TOK_FULL;
			break;
		case TS_ESCAPE:
			state = TS_STRING;
			break;
		case TS_COMMENT:
			if (c == '\n')
				state = TS_START;
			break;
		}
		if (state < 0)
			return state;
	}
	switch (state) {
	case TS_IDENT:
		return emit(&lx, TK_IDENT, n) ? (int)lx.count : TOK_FULL;
	case TS_ZERO:
	case TS_NUMBER:
		return emit(&lx, TK_NUMBER, n) ? (int)lx.count : TOK_FULL;
	case TS_HEX:
		return emit(&lx, TK_HEX, n) ? (int)lx.count : TOK_FULL;
	case TS_STRING:
	case TS_ESCAPE:
		return TOK_UNTERMINATED;
	default:
		return (int)lx.count;
	}
}
