/*
 * runtime_filter.c — libpcap's interpreter specialized at run time for one
 * program (see runtime_filter.h): the program's instructions are static memory,
 * the packet, its wire length and its captured length are dynamic.
 */
#include "runtime_filter.h"

RESPEC_DECLARE_BITCODE(bpf);

respec_jit *bpf_runtime_create(void)
{
	return respec_jit_create(respec_bitcode_bpf, respec_bitcode_bpf_size);
}

static void program_arguments(const struct bpf_program *program, struct respec_arg args[4])
{
	args[0] = RESPEC_STATIC_MEMORY(program->bf_insns,
				       program->bf_len * sizeof *program->bf_insns);
	args[1] = args[2] = args[3] = RESPEC_DYNAMIC;
}

bpf_match_fn bpf_runtime_specialize(respec_jit *jit, const struct bpf_program *program)
{
	struct respec_arg args[4];
	program_arguments(program, args);
	return (bpf_match_fn)respec_jit_specialize(jit, "match_program", args, 4);
}

int bpf_runtime_specialize_async(respec_jit *jit, const struct bpf_program *program,
				 respec_slot *slot)
{
	struct respec_arg args[4];
	program_arguments(program, args);
	return respec_jit_specialize_async(jit, "match_program", args, 4, slot);
}
