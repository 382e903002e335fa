/*
 * peer_jit.c — the pcre2-jit peer (peer_jit.h): PCRE2 compiled with SUPPORT_JIT,
 * used the way PCRE2's documentation recommends for speed: pcre2_jit_compile()
 * with PCRE2_JIT_COMPLETE once, then pcre2_jit_match() (the fast path that skips
 * pcre2_match()'s checks) with a match data block created for the pattern.
 */
#include "peer_jit.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>

struct pcre2_jit_peer {
	pcre2_code *code;
	pcre2_match_data *match_data;
};

struct pcre2_jit_peer *pcre2_jit_peer_create(const char *pattern, uint32_t options,
					     char *why, size_t why_size)
{
	int error;
	PCRE2_SIZE offset;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, options,
					 &error, &offset, NULL);
	if (code == NULL) {
		PCRE2_UCHAR message[256];
		pcre2_get_error_message(error, message, sizeof message);
		snprintf(why, why_size, "pcre2_compile: %s at offset %zu", (char *)message,
			 (size_t)offset);
		return NULL;
	}
	error = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	if (error != 0) {
		PCRE2_UCHAR message[256];
		pcre2_get_error_message(error, message, sizeof message);
		snprintf(why, why_size, "pcre2_jit_compile: %s", (char *)message);
		pcre2_code_free(code);
		return NULL;
	}
	struct pcre2_jit_peer *peer = malloc(sizeof *peer);
	pcre2_match_data *match_data = pcre2_match_data_create_from_pattern(code, NULL);
	if (peer == NULL || match_data == NULL) {
		snprintf(why, why_size, "out of memory");
		free(peer);
		pcre2_match_data_free(match_data);
		pcre2_code_free(code);
		return NULL;
	}
	peer->code = code;
	peer->match_data = match_data;
	return peer;
}

void pcre2_jit_peer_destroy(struct pcre2_jit_peer *peer)
{
	if (peer == NULL)
		return;
	pcre2_match_data_free(peer->match_data);
	pcre2_code_free(peer->code);
	free(peer);
}

int pcre2_jit_peer_match(struct pcre2_jit_peer *peer, const unsigned char *subject,
			 size_t length)
{
	return pcre2_jit_match(peer->code, subject, length, 0, 0, peer->match_data, NULL);
}

const size_t *pcre2_jit_peer_ovector(const struct pcre2_jit_peer *peer, uint32_t *pairs)
{
	*pairs = pcre2_get_ovector_count(peer->match_data);
	return pcre2_get_ovector_pointer(peer->match_data);
}
