#ifndef POLY_H
#define POLY_H

/* A polynomial, evaluated by walking its coefficient table (the generic code). */
struct poly {
	int degree;
	const long *coefficients; /* degree + 1 of them, highest first */
};

long poly_eval(const struct poly *p, long x);

/* The spec: poly_eval of one fixed polynomial, whose coefficients are these. */
long fixed_poly(long x);
#define FIXED_POLY_DEGREE 5
#define FIXED_POLY_COEFFICIENTS {3, -2, 0, 7, -11, 5}

#endif
