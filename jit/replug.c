/*
 * replug.c — the JIT's bridge to librespec. runtime.h is C11 (_Atomic fast
 * paths), so the C++ side of the JIT calls librespec through this file.
 */
#include "replug.h"

#include <respec/runtime.h>

int respec_jit_replug_slot(struct respec_slot *slot, void *code)
{
	return respec_replug(slot, (respec_fn)code);
}

const char *respec_jit_runtime_error(void)
{
	return respec_last_error();
}
