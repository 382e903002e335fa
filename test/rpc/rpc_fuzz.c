/*
 * rpc_fuzz.c — libFuzzer target for the Sun RPC case study's decoders, built with
 * AddressSanitizer together with ASan builds of the generic and the respec variants
 * (examples/rpc: rpc-asan-generic, rpc-asan-respec).
 *
 * The first byte of an input names the decoder (pair, int, intarray, record); the
 * rest is the message, copied to a heap block of exactly its size so that ASan
 * reports any read past its end. Both decoders must return the same status and
 * decode the same value (rpc_describe), and then free it with the same status;
 * any difference aborts, which libFuzzer reports with the input that caused it.
 * Out-of-bounds reads and writes, bad frees and leaks are ASan's to report.
 */
#include "rpc_values.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RPC_SPEC_DECLARE(asan_generic_)
RPC_SPEC_DECLARE(asan_respec_)

static const struct rpc_codec generic = RPC_CODEC("generic", asan_generic_, true);
static const struct rpc_codec respec = RPC_CODEC("respec", asan_respec_, true);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size == 0 || size - 1 > RPC_MESSAGE_MAX)
		return 0;
	enum rpc_type type = (enum rpc_type)(data[0] % RPC_TYPES);
	size_t len = size - 1;
	char *msg = malloc(len ? len : 1);
	if (msg == NULL)
		abort();
	memcpy(msg, data + 1, len);

	union rpc_value generic_value, respec_value;
	int expected = rpc_decode(&generic, type, msg, (unsigned)len, &generic_value);
	int actual = rpc_decode(&respec, type, msg, (unsigned)len, &respec_value);
	static unsigned char expected_description[RPC_DESCRIPTION_MAX];
	static unsigned char actual_description[RPC_DESCRIPTION_MAX];
	size_t expected_size = rpc_describe(type, &generic_value, expected >= 0, expected_description);
	size_t actual_size = rpc_describe(type, &respec_value, actual >= 0, actual_description);
	if (expected != actual || expected_size != actual_size ||
	    memcmp(expected_description, actual_description, expected_size) != 0) {
		fprintf(stderr, "decode_%s: respec returned %d, generic %d; decoded values %s\n",
			rpc_type_names[type], actual, expected,
			expected_size == actual_size &&
					memcmp(expected_description, actual_description,
					       expected_size) == 0
				? "agree"
				: "differ");
		abort();
	}
	/* Each variant frees its own value: ASan reports a bad or double free, and
	 * LeakSanitizer anything a freer leaves allocated. An array whose count was
	 * rejected holds nothing, and freeing it runs xdr_array's overflow check, a loop
	 * over the count, up to 2^30 times: it is left out. */
	bool freeable = rpc_type_allocates(type) &&
			(type != RPC_INTARRAY || generic_value.array.intarray_len <= INTARRAY_MAX);
	if (freeable &&
	    rpc_free(&generic, type, &generic_value) != rpc_free(&respec, type, &respec_value)) {
		fprintf(stderr, "free_%s: respec and generic return different statuses\n",
			rpc_type_names[type]);
		abort();
	}
	rpc_value_free(type, &generic_value);
	rpc_value_free(type, &respec_value);
	free(msg);
	return 0;
}
