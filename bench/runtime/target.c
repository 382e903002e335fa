/*
 * target.c — the functions every variant calls: trivial on purpose, so that
 * the figures are the cost of the calling protocol, and out of line (own
 * translation unit, noinline) so that no compiler can see through the call.
 */
#include "peers.h"

__attribute__((noinline)) int target_generic(int x)
{
	return x + 1;
}

__attribute__((noinline)) int target_add_one(int x)
{
	return x + 1;
}

__attribute__((noinline)) int target_add_two(int x)
{
	return x + 2;
}
