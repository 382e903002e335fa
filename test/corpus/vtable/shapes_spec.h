/*
 * shapes_spec.h — the spec functions of the vtable program.
 */
#ifndef SHAPES_SPEC_H
#define SHAPES_SPEC_H

#include "corpus.h"
#include "shapes.h"

enum { MIXED_SHAPES = 3 };

#define SHAPES_SPEC_FUNCTIONS(X)                                                          \
	X(int64_t, rectangles_area2, (const int32_t *dims, size_t n))                        \
	X(int64_t, triangles_area2, (const int32_t *dims, size_t n))                         \
	X(int64_t, squares_perimeters, (const int32_t *sides, size_t n, int64_t *perimeters)) \
	X(int64_t, triangles_perimeters, (const int32_t *sides, size_t n, int64_t *perimeters)) \
	X(int64_t, mixed_scaled_area2, (const int32_t *dims, int32_t factor, int64_t *area2))

SHAPES_SPEC_FUNCTIONS(CORPUS_DECLARE_SPEC)

#endif
