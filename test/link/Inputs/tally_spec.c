/* tally's link-time spec: a client with no other thread needs no lock. */
#include "tally.h"
#include <respec/respec.h>

RESPEC_SPECIALIZE long tally_add_for_client(struct tally *t, long n)
{
	if (respec_fact("single-threaded"))
		return tally_add_unlocked(t, n);
	return tally_add(t, n);
}
