/* jit_host_other.c — a second file-static `stream_bias`, so that the name alone
 * does not say which variable it is (jit_host_test.c). */
#include "jit_host_lib.h"

static int32_t stream_bias = 99;

int32_t other_bias(void)
{
	return stream_bias;
}
