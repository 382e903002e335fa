/*
 * filter_compile.c — pcap_compile with the case study's fallback for filters the
 * optimizer refuses (see filter_compile.h).
 */
#include "filter_compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bpf_compile_expression(pcap_t *handle, const char *expression, struct bpf_program *program,
			   bool *unoptimized)
{
	bool refused = false;
	if (pcap_compile(handle, program, expression, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		if (strstr(pcap_geterr(handle), "rejects all packets") == NULL ||
		    pcap_compile(handle, program, expression, 0, PCAP_NETMASK_UNKNOWN) != 0)
			return -1;
		refused = true;
	}
	if (unoptimized)
		*unoptimized = refused;
	return 0;
}

void bpf_compile_or_exit(pcap_t *handle, const char *expression, struct bpf_program *program)
{
	if (bpf_compile_expression(handle, expression, program, NULL) != 0) {
		fprintf(stderr, "pcap_compile '%s': %s\n", expression, pcap_geterr(handle));
		exit(2);
	}
}
