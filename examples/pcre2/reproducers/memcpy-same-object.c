// memcpy between two places of the same object does not carry static cells:
// the destination bytes become unknown. (A copy into another private object
// does carry them: recordTransfer in pe/EvaluateMemory.cpp requires
// Src.object != Dest.object and a private destination.) PCRE2's match() makes
// each backtracking frame by copying the tail of the current one within the
// frames vector (pcre2_match.c:727: memcpy((char *)N + offsetof(heapframe, eptr),
// (char *)F + offsetof(heapframe, eptr), frame_copy_size)), so in every frame
// after the first, Fcurrent_recurse, Fcapture_last, Flast_group_offset and
// Foffset_top are unknown: OP_END's `if (Fcurrent_recurse != RECURSE_UNSET)`
// stays residual, its recursion path moves F by a dynamic offset, and from
// there the opcode dispatch `switch (Fop)` is residual too.
//
//   respec explain memcpy-same-object.c -O0
//     31 S | 	if (other[1].recurse != -1)        <- folded
//     33 M | 	if (frames[1].recurse != -1)       <- kept: -1 != -1 not known
//     34 M | 		return dynamic + 1;
#include <respec/respec.h>
#include <string.h>
struct frame {
	const char *pc;
	int recurse;
	int depth;
};
RESPEC_SPECIALIZE int f(int dynamic)
{
	struct frame frames[2], other[2];
	frames[0].recurse = -1;
	frames[0].depth = 0;
	memcpy(&frames[1].recurse, &frames[0].recurse, 2 * sizeof(int));
	memcpy(&other[1].recurse, &frames[0].recurse, 2 * sizeof(int));
	if (other[1].recurse != -1)
		return dynamic;
	if (frames[1].recurse != -1)
		return dynamic + 1;
	return 0;
}
