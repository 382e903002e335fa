/* A spec with three facts, for spec.c. */
#include <respec/respec.h>
#include "stream.h"
int put_long(long);
RESPEC_SPECIALIZE int encode(struct stream *s, XDR *x)
{
	respec_assume(x->x_ops->x_putlong == put_long);
	respec_assume(s->op == 1);
	respec_assume(mode != 0);
	return 0;
}
