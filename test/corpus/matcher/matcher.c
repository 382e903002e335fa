/*
 * matcher.c — the generic matchers (see matcher.h). The glob matcher backtracks to
 * the last '*' only, the usual linear-space algorithm; the DFA matcher stops at the
 * dead state.
 */
#include "matcher.h"

/* How many pattern characters the element at p spans. */
static size_t element_length(const char *p)
{
	if (*p == '\\')
		return 2;
	if (*p != '[')
		return 1;
	const char *q = p + 1;
	if (*q == '!')
		q++;
	do
		q++;
	while (*q != ']');
	return (size_t)(q + 1 - p);
}

static bool class_contains(const char *p, uint8_t c)
{
	bool negated = p[1] == '!', found = false;
	for (const char *q = p + 1 + negated; *q != ']';) {
		uint8_t low = (uint8_t)*q, high = low;
		if (q[1] == '-' && q[2] != ']') {
			high = (uint8_t)q[2];
			q += 3;
		} else {
			q++;
		}
		if (c >= low && c <= high)
			found = true;
	}
	return found != negated;
}

/* Whether the element at p (not '*', not the end) matches byte c. */
static bool element_matches(const char *p, uint8_t c)
{
	switch (*p) {
	case '?':
		return true;
	case '[':
		return class_contains(p, c);
	case '\\':
		return (uint8_t)p[1] == c;
	default:
		return (uint8_t)*p == c;
	}
}

bool glob_match(const char *pattern, const uint8_t *text, size_t n)
{
	const char *p = pattern, *resume = NULL;
	size_t t = 0, resume_t = 0;
	while (t < n) {
		if (*p == '*') {
			resume = ++p;
			resume_t = t;
			continue;
		}
		if (*p != '\0' && element_matches(p, text[t])) {
			p += element_length(p);
			t++;
			continue;
		}
		if (resume == NULL)
			return false;
		p = resume;
		t = ++resume_t;
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

bool dfa_match(const struct dfa *dfa, const uint8_t *text, size_t n)
{
	uint8_t state = dfa->start;
	for (size_t i = 0; i < n && state != DFA_DEAD; i++)
		state = dfa->next[state][dfa->class_of[text[i]]];
	return (dfa->accepting >> state) & 1;
}
