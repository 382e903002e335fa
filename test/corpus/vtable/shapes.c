/*
 * shapes.c — the shape classes and the generic algorithms over them (see shapes.h).
 * The algorithms only ever call methods through shape->class.
 */
#include "shapes.h"

static int64_t wrapping_mul(int64_t x, int64_t y)
{
	return (int64_t)((uint64_t)x * (uint64_t)y);
}

static int64_t wrapping_add(int64_t x, int64_t y)
{
	return (int64_t)((uint64_t)x + (uint64_t)y);
}

static int64_t rectangle_area2(const struct shape *s)
{
	return wrapping_mul(2 * (int64_t)s->a, s->b);
}

static int64_t rectangle_perimeter(const struct shape *s)
{
	return 2 * ((int64_t)s->a + s->b);
}

static void scale_both(struct shape *s, int32_t factor)
{
	s->a = (int32_t)(uint32_t)wrapping_mul(s->a, factor);
	s->b = (int32_t)(uint32_t)wrapping_mul(s->b, factor);
}

const struct shape_class rectangle_class = {
	"rectangle", NULL, rectangle_area2, rectangle_perimeter, scale_both,
};

/* A square is a rectangle whose b follows a; its methods defer to the base class. */
static int64_t square_area2(const struct shape *s)
{
	struct shape as_rectangle = { s->class->base, s->a, s->a };
	return as_rectangle.class->area2(&as_rectangle);
}

static int64_t square_perimeter(const struct shape *s)
{
	struct shape as_rectangle = { s->class->base, s->a, s->a };
	return as_rectangle.class->perimeter(&as_rectangle);
}

static void square_scale(struct shape *s, int32_t factor)
{
	s->class->base->scale(s, factor);
	s->b = s->a;
}

const struct shape_class square_class = {
	"square", &rectangle_class, square_area2, square_perimeter, square_scale,
};

static int64_t triangle_area2(const struct shape *s)
{
	return wrapping_mul(s->a, s->b);
}

/* The legs plus the hypotenuse rounded down (integer square root of a^2 + b^2). */
static int64_t triangle_perimeter(const struct shape *s)
{
	uint64_t a = (uint64_t)(s->a < 0 ? -(int64_t)s->a : s->a);
	uint64_t b = (uint64_t)(s->b < 0 ? -(int64_t)s->b : s->b);
	uint64_t square = a * a + b * b, root = 0;
	for (uint64_t bit = (uint64_t)1 << 62; bit != 0; bit >>= 2) {
		if (square >= root + bit) {
			square -= root + bit;
			root = (root >> 1) + bit;
		} else {
			root >>= 1;
		}
	}
	return (int64_t)(a + b + root);
}

const struct shape_class triangle_class = {
	"triangle", NULL, triangle_area2, triangle_perimeter, scale_both,
};

int64_t shapes_sum_area2(struct shape *shape, const int32_t *dims, size_t n)
{
	int64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		shape->a = dims[2 * i];
		shape->b = dims[2 * i + 1];
		sum = wrapping_add(sum, shape->class->area2(shape));
	}
	return sum;
}

int64_t shapes_perimeters(struct shape *shape, const int32_t *sides, size_t n,
			  int64_t *perimeters)
{
	int64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		shape->a = sides[i];
		perimeters[i] = shape->class->perimeter(shape);
		sum = wrapping_add(sum, perimeters[i]);
	}
	return sum;
}

int64_t shapes_scale_all(struct shape *shapes, size_t n, int32_t factor, int64_t *area2)
{
	int64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		shapes[i].class->scale(&shapes[i], factor);
		area2[i] = shapes[i].class->area2(&shapes[i]);
		sum = wrapping_add(sum, area2[i]);
	}
	return sum;
}
