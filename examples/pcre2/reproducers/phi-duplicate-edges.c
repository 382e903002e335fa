// A residual switch with two cases to the same block, where that block needs a
// phi for a static pointer into a local object (buf + 8 on the switch's edges,
// buf + 4 on the other path): respec materializes the pointer once per edge, two
// different getelementptrs for one predecessor, and the residual function does
// not verify. PCRE2's match() hits this when its frames vector is a local array
// of the spec (frames_top at the VSPACE_BYTE_CASES of OP_NOT_VSPACE, line 4743).
//
//   respec specialize phi-duplicate-edges.c -o out.o
//   respec: error: internal error: specialized code does not verify: PHI node
//   has multiple entries for the same basic block with different incoming values!
//
// (pe/Residual.cpp, Specializer::finalize: predecessors() lists the switch block
// once per edge, and materialize() makes a new instruction each time.)
#include <respec/respec.h>
int use(char *p);
RESPEC_SPECIALIZE int f(int x)
{
	char buf[16] = {0};
	char *top = buf + 8;
	switch (x) {
	case 10:
		break;
	case 11:
		break;
	default:
		top = buf + 4;
		break;
	}
	return use(top);
}
