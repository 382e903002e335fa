/*
 * jit_spec.c — the spec the run-time specialization tests embed: the example
 * bytecode interpreter run on a program known only at run time, and a function
 * with a plain integer parameter to bind statically.
 */
#include "vm.h"

#include <respec/respec.h>

RESPEC_SPECIALIZE int32_t run_program(const struct insn *program, const int32_t *input,
				      size_t n)
{
	return vm_run(program, input, n);
}

RESPEC_SPECIALIZE int32_t affine(int32_t x, int32_t factor, int32_t offset)
{
	return x * factor + offset;
}
