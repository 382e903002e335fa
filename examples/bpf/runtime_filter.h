/*
 * runtime_filter.h — run-time specialization of libpcap's interpreter for a
 * filter known only when the program runs: the example of respec's run-time API
 * (include/respec/jit.h) that respec-pcap, the tests and the benchmark share.
 *
 *   respec_jit *jit = bpf_runtime_create();
 *   struct bpf_program program;                  // from pcap_compile
 *   bpf_match_fn match = bpf_runtime_specialize(jit, &program);
 *   if (match == NULL)                           // respec_jit_error(jit) says why
 *           match = match_program;               // libpcap's interpreter
 *   u_int verdict = match(program.bf_insns, packet, wirelen, buflen);
 *
 * The specialized function has match_program's signature and ignores its first
 * argument, which it was specialized for; passing the same program keeps the
 * call valid for either implementation. The instructions are static memory: they
 * must stay unchanged while specialized code may run (pcap_freecode after).
 * Specializing the same instructions again is a cache hit.
 *
 * To never wait for the compiler, start with the interpreter in a repluggable
 * slot and let a background thread replug it (what `respec-pcap --engine=auto`
 * does):
 *
 *   respec_slot slot = {0};
 *   respec_slot_init(&slot, "filter", RESPEC_PROTOCOL_EPOCH, RESPEC_FN(match_program));
 *   bpf_runtime_specialize_async(jit, &program, &slot);
 *   ... RESPEC_CALL(&slot, bpf_match_fn, program.bf_insns, packet, wirelen, buflen) ...
 */
#ifndef RESPEC_BPF_RUNTIME_FILTER_H
#define RESPEC_BPF_RUNTIME_FILTER_H

#include <sys/types.h> /* before pcap/bpf.h, which uses u_int */

#include <pcap/bpf.h>

typedef u_int (*bpf_match_fn)(const struct bpf_insn *program, const u_char *packet,
			      u_int wirelen, u_int buflen);

/* The spec function (runtime_spec.c); compiled normally, libpcap's interpreter. */
u_int match_program(const struct bpf_insn *program, const u_char *packet, u_int wirelen,
		    u_int buflen);

#ifdef RESPEC_BPF_RUNTIME
#include <respec/jit.h>
#include <respec/runtime.h>

/* A specializer over the embedded bitcode of runtime_spec.c and bpf_filter.c;
 * NULL (with a message on stderr) if it cannot be created. */
respec_jit *bpf_runtime_create(void);

/* The program compiled to code, or NULL (respec_jit_error says why). */
bpf_match_fn bpf_runtime_specialize(respec_jit *jit, const struct bpf_program *program);

/* Compiles on a background thread and replugs `slot` (whose generic function is
 * match_program) when done; 0 if queued. */
int bpf_runtime_specialize_async(respec_jit *jit, const struct bpf_program *program,
				 respec_slot *slot);
#endif

#endif /* RESPEC_BPF_RUNTIME_FILTER_H */
