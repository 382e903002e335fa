/*
 * jit_facts_spec.c — the spec the run-time external-facts test embeds: the
 * scanf-like matcher of test/pe/Inputs/scan.c with glibc's ctype tables and
 * string functions declared, and a table of the program's own that the test
 * points elsewhere. At run time respec reads stable memory in-process (the
 * vouched contents of RESPEC_C_LOCALE_CTYPE() are not needed then).
 */
#include "scan.h"

#include <respec/libc.h>
#include <string.h>

RESPEC_C_LOCALE_CTYPE();
RESPEC_PURE(strlen);
RESPEC_PURE(memcmp);
RESPEC_PURE(strcmp);

/* The program's (jit_facts_test.c): a pointer to its current weights. */
const int **weights_loc(void);
RESPEC_STABLE_TABLE(weights_loc, 0, 4);

RESPEC_SPECIALIZE int scan_with(const char *fmt, const char *in, long *out)
{
	return scan(fmt, in, out);
}

RESPEC_SPECIALIZE int compare_with(const char *a, const char *b)
{
	return compare_raw(a, b);
}

RESPEC_SPECIALIZE int keyword_with(const char *word, size_t n)
{
	return keyword(word, n);
}

/* The program's: its current configuration, a struct of two ints. */
struct config {
	int limit, scale;
};
const struct config *current_config(void);
RESPEC_STABLE(current_config, sizeof(struct config));

RESPEC_SPECIALIZE int clamp(int x)
{
	const struct config *c = current_config();
	return x * c->scale > c->limit ? c->limit : x * c->scale;
}

RESPEC_SPECIALIZE int weigh2(int i, int j)
{
	return (*weights_loc())[i & 3] * 100 + (*weights_loc())[j & 3];
}
