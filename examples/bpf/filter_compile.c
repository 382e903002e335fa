/*
 * filter_compile.c — pcap_compile with the case study's fallback for filters the
 * optimizer refuses (see filter_compile.h).
 */
#include "filter_compile.h"

#include <string.h>

int bpf_compile_expression(pcap_t *handle, const char *expression, struct bpf_program *program,
			   bool *unoptimized)
{
	*unoptimized = false;
	if (pcap_compile(handle, program, expression, 1, PCAP_NETMASK_UNKNOWN) == 0)
		return 0;
	if (strstr(pcap_geterr(handle), "rejects all packets") == NULL)
		return -1;
	if (pcap_compile(handle, program, expression, 0, PCAP_NETMASK_UNKNOWN) != 0)
		return -1;
	*unoptimized = true;
	return 0;
}
