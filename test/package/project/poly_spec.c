#include <respec/respec.h>
#include "poly.h"

static const long fixed_coefficients[] = FIXED_POLY_COEFFICIENTS;
static const struct poly fixed = {FIXED_POLY_DEGREE, fixed_coefficients};

RESPEC_SPECIALIZE long fixed_poly(long x)
{
	return poly_eval(&fixed, x);
}

#ifndef __RESPEC_PE__
/* Only in the generic build of this file: main.c checks that it is not linked. */
const int poly_spec_is_generic = 1;
#endif
