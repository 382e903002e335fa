/*
 * matcher_spec.c — spec of the matcher program: the glob matcher (matcher.c) with
 * three static patterns, and the DFA matcher with a static table, all on dynamic text.
 *
 *   glob_*       the text position starts static and is compared with the dynamic
 *                length in the loop test, so the match loop is generalized (the
 *                pattern position meets too): a residual loop reading the static
 *                pattern through dynamic pointers, '*' backtracking included.
 *   dfa_decimal  the DFA's state is dynamic after the first byte: a residual loop
 *                that indexes the const tables, with the table addresses, start
 *                state and accepting set folded.
 */
#include "matcher_spec.h"

#include <respec/respec.h>

RESPEC_SPECIALIZE bool glob_log(const uint8_t *text, size_t n)
{
	return glob_match(GLOB_LOG_PATTERN, text, n);
}

RESPEC_SPECIALIZE bool glob_version(const uint8_t *text, size_t n)
{
	return glob_match(GLOB_VERSION_PATTERN, text, n);
}

RESPEC_SPECIALIZE bool glob_quoted(const uint8_t *text, size_t n)
{
	return glob_match(GLOB_QUOTED_PATTERN, text, n);
}

/* Byte classes: 0 other, 1 digit, 2 sign, 3 point (class 4 is never used). */
static const uint8_t decimal_classes[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 3, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* [+-]?[0-9]+(\.[0-9]+)? — states: 0 dead, 1 start, 2 signed, 3 integer, 4 point, 5 fraction. */
static const uint8_t decimal_next[][DFA_CLASSES] = {
	{ 0, 0, 0, 0, 0 },
	{ 0, 3, 2, 0, 0 },
	{ 0, 3, 0, 0, 0 },
	{ 0, 3, 0, 4, 0 },
	{ 0, 5, 0, 0, 0 },
	{ 0, 5, 0, 0, 0 },
};

static const struct dfa decimal = {
	.next = decimal_next,
	.class_of = decimal_classes,
	.start = 1,
	.accepting = 1u << 3 | 1u << 5,
};

RESPEC_SPECIALIZE bool dfa_decimal(const uint8_t *text, size_t n)
{
	return dfa_match(&decimal, text, n);
}
