#include "poly.h"

long poly_eval(const struct poly *p, long x)
{
	/* POLY_DEGREE_MAX comes from the target's compile definitions, which
	 * respec_add_specialization passes on to respec. */
	if (p->degree > POLY_DEGREE_MAX)
		return 0;
	long value = 0;
	for (int i = 0; i <= p->degree; i++)
		value = value * x + p->coefficients[i];
	return value;
}
