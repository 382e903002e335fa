// A _Thread_local object is not tracked: clang 16 reaches it through
// llvm.threadlocal.address, which respec treats as an unknown pointer, so a
// value stored there and loaded back is not static. (A reentrant spec cannot
// keep PCRE2's frames vector in a plain global; a thread-local one is the
// natural choice, and its cells would all be dynamic.)
//
//   respec explain thread-local.c
//     14 D | 	return buf[3];                    <- 5 expected
#include <respec/respec.h>
static _Thread_local char buf[16];
RESPEC_SPECIALIZE int f(void)
{
	buf[3] = 5;
	return buf[3];
}
