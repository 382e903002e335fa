/*
 * stackvm_spec.h — the spec functions of the stack machine program: each runs one
 * fixed byte-code program over dynamic arguments (args[0..nargs)).
 */
#ifndef STACKVM_SPEC_H
#define STACKVM_SPEC_H

#include "corpus.h"
#include "stackvm.h"

#define STACKVM_SPEC_FUNCTIONS(X)                                                   \
	X(int, stackvm_poly, (const int32_t *args, size_t nargs, int32_t *result))     \
	X(int, stackvm_clamp, (const int32_t *args, size_t nargs, int32_t *result))    \
	X(int, stackvm_power, (const int32_t *args, size_t nargs, int32_t *result))    \
	X(int, stackvm_popcount, (const int32_t *args, size_t nargs, int32_t *result)) \
	X(int, stackvm_underflow, (const int32_t *args, size_t nargs, int32_t *result))

STACKVM_SPEC_FUNCTIONS(CORPUS_DECLARE_SPEC)

#endif
