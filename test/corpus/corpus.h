/*
 * corpus.h — what the corpus programs share.
 *
 * A program's spec header lists its spec functions once, as an X-macro
 *   #define NAME_SPEC_FUNCTIONS(X) X(int, fn, (params)) ...
 * from which the spec declares them (CORPUS_DECLARE_SPEC) and a differential test
 * declares the generic copy and the tested variant's copy of each
 * (CORPUS_DECLARE_VARIANTS), so the three cannot disagree on a signature.
 *
 * A differential test is built once per variant (see CMakeLists.txt): CMake defines
 * CORPUS_VARIANT_PREFIX, the prefix RespecVariants.cmake gave that variant's exports,
 * and CORPUS_VARIANT_NAME. TESTED(fn) names the tested copy, GENERIC(fn) the oracle.
 */
#ifndef RESPEC_CORPUS_H
#define RESPEC_CORPUS_H

#define CORPUS_DECLARE_SPEC(ret, name, params) ret name params;

#ifdef CORPUS_VARIANT_PREFIX
#include "diffcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CORPUS_PASTE_(a, b) a##b
#define CORPUS_PASTE(a, b) CORPUS_PASTE_(a, b)
#define TESTED(fn) CORPUS_PASTE(CORPUS_VARIANT_PREFIX, fn)
#define GENERIC(fn) generic_##fn
#define CORPUS_DECLARE_VARIANTS(ret, name, params) \
	ret GENERIC(name) params;                  \
	ret TESTED(name) params;

/* Inputs per spec function: enough to reach every path of the corpus programs. */
enum { CORPUS_ITERATIONS = 10000 };

/* diff_begin, refusing a variant name other than the one this executable tests. */
static inline void corpus_begin(struct diff_run *run, int argc, char **argv)
{
	diff_begin(run, argc, argv, CORPUS_ITERATIONS);
	if (strcmp(run->variant, CORPUS_VARIANT_NAME) != 0) {
		fprintf(stderr, "%s tests variant %s, not %s\n", argv[0], CORPUS_VARIANT_NAME,
			run->variant);
		exit(2);
	}
}
#endif /* CORPUS_VARIANT_PREFIX */

#endif /* RESPEC_CORPUS_H */
