// A check inside a counted loop that leaves it on run-time data is taken for
// the loop's own test when its block dominates the latch, so a loop with a
// static trip count is kept residual instead of unrolled. PCRE2's exact
// repeats are written this way (OP_DIGIT under OP_TYPEEXACT, pcre2_match.c:3358:
// for (i = 1; i <= Lmin; i++) { if (Feptr >= mb->end_subject) ...RRETURN...; }),
// so \d{4} stays a loop with a counter.
//
//   respec explain loop-bounds-check.c
//     note: loop-bounds-check.c:16:2: loop under dynamic control (its test
//     depends on run-time data while its static state keeps changing): kept residual
//
// (A cost, not a blocker: the count is static, the loop is small.)
#include <respec/respec.h>
static int digits(const unsigned char *p, const unsigned char *end, unsigned n)
{
	for (unsigned i = 1; i <= n; i++) {
		if (p >= end)
			return 0;
		if (*p < '0' || *p > '9')
			return 0;
		p++;
	}
	return 1;
}
RESPEC_SPECIALIZE int four_digits(const unsigned char *p, const unsigned char *end)
{
	return digits(p, end, 4);
}
