// A check inside a counted loop that leaves it on run-time data is one of the
// loop's own tests when its block dominates the latch. PCRE2's exact repeats
// are written this way (OP_DIGIT under OP_TYPEEXACT, pcre2_match.c:3358:
// for (i = 1; i <= Lmin; i++) { if (Feptr >= mb->end_subject) ...RRETURN...; }).
// The loop's other test, the counter against its static bound, may end it
// soon, so the loop unrolls while it is short (--max-unroll-dynamic-exit,
// default 16): \d{4} is four straight checks.
//
//   respec explain loop-bounds-check.c
//     16 S | 	for (unsigned i = 1; i <= n; i++) {
//     (no note: nothing is kept residual)
//
// Until session 12 the loop was kept residual with its counter ("loop under
// dynamic control").
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
