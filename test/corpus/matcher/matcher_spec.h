/*
 * matcher_spec.h — the spec functions of the matcher program and their patterns,
 * which the differential test also uses to build matching inputs.
 */
#ifndef MATCHER_SPEC_H
#define MATCHER_SPEC_H

#include "corpus.h"
#include "matcher.h"

#define GLOB_LOG_PATTERN "*.log"
#define GLOB_VERSION_PATTERN "v[0-9].[0-9]*-?[!a-c]"
#define GLOB_QUOTED_PATTERN "\\*a*b?\\?"

#define MATCHER_SPEC_FUNCTIONS(X)                                  \
	X(bool, glob_log, (const uint8_t *text, size_t n))         \
	X(bool, glob_version, (const uint8_t *text, size_t n))     \
	X(bool, glob_quoted, (const uint8_t *text, size_t n))      \
	X(bool, dfa_decimal, (const uint8_t *text, size_t n))

MATCHER_SPEC_FUNCTIONS(CORPUS_DECLARE_SPEC)

#endif
