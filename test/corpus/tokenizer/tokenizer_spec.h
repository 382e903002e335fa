/*
 * tokenizer_spec.h — the spec functions of the state machine program.
 */
#ifndef TOKENIZER_SPEC_H
#define TOKENIZER_SPEC_H

#include "corpus.h"
#include "tokenizer.h"

enum { FEW_TOKENS = 4 };

#define TOKENIZER_SPEC_FUNCTIONS(X)                                                      \
	X(int, tokenize_c_like, (const uint8_t *in, size_t n, struct token *out, size_t capacity)) \
	X(int, tokenize_strict, (const uint8_t *in, size_t n, struct token *out, size_t capacity)) \
	X(int, tokenize_resume_string,                                                          \
	  (const uint8_t *in, size_t n, struct token *out, size_t capacity))                     \
	X(int, tokenize_few, (const uint8_t *in, size_t n, struct token *out))

TOKENIZER_SPEC_FUNCTIONS(CORPUS_DECLARE_SPEC)

#endif
