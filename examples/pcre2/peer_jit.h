/*
 * peer_jit.h — PCRE2's own JIT (pcre2_jit_compile + pcre2_jit_match) as a peer.
 *
 * Built from the same Debian sources as the interpreter, with SUPPORT_JIT, into
 * one object whose only global symbols are these functions (examples/pcre2/
 * CMakeLists.txt), so that it links beside the interpreter library without
 * clashing. The peer owns its compiled pattern and match data: a program sees
 * only return codes and ovectors, copied out as plain arrays.
 */
#ifndef RESPEC_PCRE2_PEER_JIT_H
#define RESPEC_PCRE2_PEER_JIT_H

#include <stddef.h>
#include <stdint.h>

struct pcre2_jit_peer;

/* Compiles `pattern` (PCRE2 syntax, compile options `options`) and JIT-compiles
 * it for complete matches. NULL on failure, with the reason in `why`. */
struct pcre2_jit_peer *pcre2_jit_peer_create(const char *pattern, uint32_t options,
					     char *why, size_t why_size);
void pcre2_jit_peer_destroy(struct pcre2_jit_peer *peer);

/* pcre2_jit_match() on the subject from offset 0 with no options: its return code. */
int pcre2_jit_peer_match(struct pcre2_jit_peer *peer, const unsigned char *subject,
			 size_t length);

/* The ovector of the last match: *pairs pairs of offsets (PCRE2_UNSET, ~0, when unset). */
const size_t *pcre2_jit_peer_ovector(const struct pcre2_jit_peer *peer, uint32_t *pairs);

#endif /* RESPEC_PCRE2_PEER_JIT_H */
