/*
 * matcher.h — two table-driven matchers over byte strings: a glob matcher ('*' any
 * run, '?' any byte, '[a-z]' and '[!a-z]' classes, '\' quoting the next character)
 * interpreting a NUL-terminated pattern, and a DFA run from a transition table.
 */
#ifndef MATCHER_H
#define MATCHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether all of text[0..n) matches pattern, which must be well formed. */
bool glob_match(const char *pattern, const uint8_t *text, size_t n);

enum { DFA_CLASSES = 5, DFA_DEAD = 0 };

struct dfa {
	const uint8_t (*next)[DFA_CLASSES]; /* next[state][class]; DFA_DEAD absorbs */
	const uint8_t *class_of;            /* 256 entries: the class of each byte */
	uint8_t start;
	uint32_t accepting;                 /* bit s: state s accepts */
};

bool dfa_match(const struct dfa *dfa, const uint8_t *text, size_t n);

#endif
