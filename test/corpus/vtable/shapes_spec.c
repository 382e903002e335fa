/*
 * shapes_spec.c — spec of the vtable program: each function builds its shape objects
 * on the stack with a class fixed here, then runs a generic algorithm (shapes.c) that
 * calls their methods through the class pointer, over dynamic dimensions.
 *
 *   rectangles_area2, triangles_area2   one object, a loop with a dynamic trip count:
 *       the class pointer survives the loop's meets, so the indirect calls in the
 *       residual loop become direct and are unfolded.
 *   squares_perimeters      a derived class: its methods build a temporary of the
 *       base class and call through it (two levels of devirtualization).
 *   triangles_perimeters    a method with its own static-trip loop (integer square
 *       root) inside the residual loop.
 *   mixed_scaled_area2      three objects of different classes in a stack array and
 *       a static trip count: unrolled, each call bound to its own class.
 */
#include "shapes_spec.h"

#include <respec/respec.h>

RESPEC_SPECIALIZE int64_t rectangles_area2(const int32_t *dims, size_t n)
{
	struct shape shape = { &rectangle_class, 0, 0 };
	return shapes_sum_area2(&shape, dims, n);
}

RESPEC_SPECIALIZE int64_t triangles_area2(const int32_t *dims, size_t n)
{
	struct shape shape = { &triangle_class, 0, 0 };
	return shapes_sum_area2(&shape, dims, n);
}

RESPEC_SPECIALIZE int64_t squares_perimeters(const int32_t *sides, size_t n, int64_t *perimeters)
{
	struct shape shape = { &square_class, 0, 0 };
	return shapes_perimeters(&shape, sides, n, perimeters);
}

RESPEC_SPECIALIZE int64_t triangles_perimeters(const int32_t *sides, size_t n,
					       int64_t *perimeters)
{
	struct shape shape = { &triangle_class, 0, 7 };
	return shapes_perimeters(&shape, sides, n, perimeters);
}

/* dims holds 2 * MIXED_SHAPES values; area2 receives MIXED_SHAPES results. */
RESPEC_SPECIALIZE int64_t mixed_scaled_area2(const int32_t *dims, int32_t factor, int64_t *area2)
{
	struct shape shapes[MIXED_SHAPES] = {
		{ &rectangle_class, dims[0], dims[1] },
		{ &square_class, dims[2], dims[3] },
		{ &triangle_class, dims[4], dims[5] },
	};
	return shapes_scale_all(shapes, MIXED_SHAPES, factor, area2);
}
