/* The codec of test/profile/global-elsewhere.c: it reads its stream's
 * operations table, a global defined in the program's other source. */
#include "global-elsewhere.h"

int encode(struct stream *s, int v)
{
	if (s->op != 0)
		return 0;
	return s->ops->put(s, v);
}
