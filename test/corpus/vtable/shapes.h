/*
 * shapes.h — objects with a class pointer: each shape's methods are reached through
 * its class (a table of function pointers), and a class may defer to its base
 * class, as C code emulating inheritance does. Arithmetic wraps at 64 bits.
 */
#ifndef SHAPES_H
#define SHAPES_H

#include <stddef.h>
#include <stdint.h>

struct shape;

struct shape_class {
	const char *name;
	const struct shape_class *base;                      /* NULL for a root class */
	int64_t (*area2)(const struct shape *);              /* twice the area */
	int64_t (*perimeter)(const struct shape *);
	void (*scale)(struct shape *, int32_t factor);
};

struct shape {
	const struct shape_class *class;
	int32_t a, b; /* the class says what they mean */
};

extern const struct shape_class rectangle_class; /* a by b */
extern const struct shape_class square_class;    /* side a; derived from rectangle */
extern const struct shape_class triangle_class;  /* right triangle with legs a, b */

/* Twice the area of shape after setting its dimensions to each (dims[2i], dims[2i+1]). */
int64_t shapes_sum_area2(struct shape *shape, const int32_t *dims, size_t n);
/* perimeters[i]: the perimeter of shape with dimension a = sides[i]; returns their sum. */
int64_t shapes_perimeters(struct shape *shape, const int32_t *sides, size_t n,
			  int64_t *perimeters);
/* Scales each of the n shapes by factor, then stores twice its area in area2[i]. */
int64_t shapes_scale_all(struct shape *shapes, size_t n, int32_t factor, int64_t *area2);

#endif
