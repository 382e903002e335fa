/*
 * runtime_spec.c — the spec of run-time specialization for libpcap's interpreter:
 * one function whose first argument, the program, becomes static only when the
 * program runs (a filter typed on a command line). `respec embed` puts this file
 * and bpf_filter.c into the program as bitcode; runtime_filter.c specializes
 * match_program with the program's instructions as static memory and the packet
 * arguments dynamic.
 *
 * Compiled normally it is simply libpcap's interpreter: the generic function a
 * repluggable slot starts with, and runs until the specialized code is ready.
 */
#include "runtime_filter.h"

#include <respec/respec.h>

RESPEC_SPECIALIZE u_int match_program(const struct bpf_insn *program, const u_char *packet,
				      u_int wirelen, u_int buflen)
{
	return bpf_filter(program, packet, wirelen, buflen);
}
