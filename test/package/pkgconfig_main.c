/* Built with `pkg-config --cflags --libs respec-runtime` against the installed
 * librespec: a slot starts generic, is replugged, and calls reach each in turn. */
#include <respec/runtime.h>
#include <stdio.h>

static int generic(int x) { return x + 1; }
static int specialized(int x) { return x + 2; }

typedef int (*fn)(int);

int main(void)
{
	static respec_slot slot;
	int before, after;
	if (respec_slot_init(&slot, "pkgconfig", RESPEC_PROTOCOL_DEFAULT, RESPEC_FN(generic)) != 0)
		return fprintf(stderr, "respec_slot_init: %s\n", respec_last_error()), 1;
	RESPEC_CALL_INTO(before, &slot, fn, 40);
	if (respec_replug(&slot, RESPEC_FN(specialized)) != 0)
		return fprintf(stderr, "respec_replug: %s\n", respec_last_error()), 1;
	RESPEC_CALL_INTO(after, &slot, fn, 40);
	printf("pkg-config: %d then %d\n", before, after);
	return before == 41 && after == 42 ? respec_slot_destroy(&slot) : 1;
}
