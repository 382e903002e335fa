/*
 * A program that specializes at run time as librespec's users do: its calls go
 * through a slot that starts on the generic implementation, and after a warm-up the
 * specialized one is plugged in. A profile of a run sees both run many times.
 */
#include <respec/runtime.h>
#include <stdio.h>

typedef unsigned (*step_fn)(unsigned value, unsigned rounds);

/* The generic step: interprets `rounds` at every call. */
__attribute__((noinline)) unsigned generic_step(unsigned value, unsigned rounds)
{
	for (unsigned i = 0; i < rounds; i++)
		value = value * 2654435761u + (i ^ (value >> 7));
	return value;
}

/* The same function with rounds = 3, as a specializer writes it. */
__attribute__((noinline)) unsigned specialized_step(unsigned value, unsigned rounds)
{
	(void)rounds;
	value = value * 2654435761u + (0 ^ (value >> 7));
	value = value * 2654435761u + (1 ^ (value >> 7));
	value = value * 2654435761u + (2 ^ (value >> 7));
	return value;
}

static respec_slot step_slot;

static unsigned run(unsigned calls, unsigned value)
{
	for (unsigned i = 0; i < calls; i++)
		value = RESPEC_CALL(&step_slot, step_fn, value, 3);
	return value;
}

int main(void)
{
	if (respec_slot_init(&step_slot, "step", RESPEC_PROTOCOL_EPOCH, (respec_fn)generic_step))
		return 1;
	unsigned value = run(200000, 1); /* warm-up: the specialized code is not ready */
	if (respec_replug(&step_slot, (respec_fn)specialized_step))
		return 1;
	value = run(2000000, value);
	printf("result %u\n", value);
	return 0;
}
