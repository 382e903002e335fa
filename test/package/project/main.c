/* Checks that fixed_poly is respec's specialization (not this project's generic
 * build of the spec) and that, called through a librespec slot replugged from the
 * generic implementation, it computes what the generic poly_eval computes. */
#include <respec/runtime.h>
#include <stdio.h>
#include "poly.h"

extern const int poly_spec_is_generic __attribute__((weak));

enum { FIRST = -5000, STEP = 7, INPUTS = 1429 }; /* FIRST + STEP * (INPUTS - 1) = 4996 */

/* Read through a volatile pointer: the generic result is computed at run time. */
static const struct poly *volatile dynamic_poly;

static long generic_fixed_poly(long x)
{
	return poly_eval(dynamic_poly, x);
}

typedef long (*poly_fn)(long);

static void evaluate(respec_slot *slot, long *values)
{
	for (int i = 0; i < INPUTS; i++)
		RESPEC_CALL_INTO(values[i], slot, poly_fn, FIRST + (long)STEP * i);
}

static int fail(const char *what)
{
	fprintf(stderr, "poly: %s: %s\n", what, respec_last_error());
	return 1;
}

int main(void)
{
	if (&poly_spec_is_generic != NULL) {
		fprintf(stderr, "poly: the generic build of poly_spec.c is linked\n");
		return 1;
	}
	static const long coefficients[] = FIXED_POLY_COEFFICIENTS;
	struct poly p = {FIXED_POLY_DEGREE, coefficients};
	dynamic_poly = &p;
	static respec_slot slot;
	static long generic[INPUTS], specialized[INPUTS];
	if (respec_slot_init(&slot, "fixed_poly", RESPEC_PROTOCOL_DEFAULT,
			     RESPEC_FN(generic_fixed_poly)) != 0)
		return fail("respec_slot_init");
	evaluate(&slot, generic);
	if (respec_replug(&slot, RESPEC_FN(fixed_poly)) != 0)
		return fail("respec_replug");
	evaluate(&slot, specialized);
	for (int i = 0; i < INPUTS; i++)
		if (specialized[i] != generic[i]) {
			fprintf(stderr, "poly: x=%ld: specialized %ld, generic %ld\n",
				FIRST + (long)STEP * i, specialized[i], generic[i]);
			return 1;
		}
	printf("poly: specialized == generic on %d inputs\n", INPUTS);
	return respec_slot_destroy(&slot);
}
