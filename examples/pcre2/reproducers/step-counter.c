// A static step counter makes every iteration of an interpreter loop new: the
// loop is unrolled until the unrolling (or work) budget, then kept residual
// with every loop-carried value dynamic, the interpreter's state included, so
// the dispatch stays. PCRE2 counts every backtracking frame it creates against
// the match limit (pcre2_match.c:760, `if (mb->match_call_count++ >=
// mb->match_limit) return PCRE2_ERROR_MATCHLIMIT;`): the count is static (it
// starts at 0 for each start position), the limit is static, so the comparison
// folds and never marks the loop as under dynamic control, but a pattern that
// backtracks a run-time number of times (a greedy repeat, an alternation in a
// loop) makes a new count, a new iteration key, each time.
//
//   respec explain step-counter.c -DCOUNT=0      (the same without the counter)
//     31 S | 		switch (state) {          (2 iterations unrolled, 17 instructions)
//
//   respec explain step-counter.c                (until session 8)
//     31 D | 		switch (state) {
//     note: step-counter.c:26:2: unrolling budget (--max-unroll=4096) hit: loop kept residual
//
//   respec explain step-counter.c                (since: keyed on the state, the
//                                                 counter widened; test/pe/step-counter.c)
//     31 S | 		switch (state) {          (33 instructions)
//     note: step-counter.c:26:2: unrolling budget (--max-unroll=4096) hit: loop keyed on
//           the loop-carried values that took few values (its state), ...
#include <respec/respec.h>
#ifndef COUNT
#define COUNT 1
#endif
static int run(const unsigned char *p, const unsigned char *end)
{
	unsigned long calls = 0;
	int state = 0;
	for (;;) {
#if COUNT
		if (calls++ >= 10000000)
			return -1;
#endif
		switch (state) {
		case 0:
			if (p < end && *p == 'a') {
				p++;
				state = 1;
			} else
				return 0;
			break;
		case 1:
			if (p < end && *p == 'b') {
				p++;
				state = 0;
			} else
				return 1;
			break;
		}
	}
}
RESPEC_SPECIALIZE int ab_star(const unsigned char *p, const unsigned char *end)
{
	return run(p, end);
}
