/*
 * filter_compile.h — turns a pcap filter expression into a cBPF program with the
 * real libpcap (pcap_compile, optimizer on), the one rule every part of the BPF
 * case study shares: the spec generator, the tests' oracle, respec-pcap and the
 * benchmark all get the same program for the same expression.
 *
 * The rule: compile as tcpdump does (optimized). libpcap's optimizer refuses a
 * filter it proves can match nothing ("expression rejects all packets", e.g.
 * `ip6 and tcp[tcpflags] & tcp-syn != 0`: tcp[] addresses IPv4 only); such a
 * filter is compiled without the optimizer instead, which gives a valid program
 * that still rejects every packet, and is still worth specializing and testing.
 */
#ifndef RESPEC_BPF_FILTER_COMPILE_H
#define RESPEC_BPF_FILTER_COMPILE_H

#include <pcap/pcap.h>
#include <stdbool.h>

/* The snapshot length every handle of the case study uses (tcpdump's default):
 * compiled programs accept with `ret #262144`. */
#define BPF_CASE_SNAPLEN 262144

/*
 * Compiles `expression` for `handle`'s link type into `program` (free it with
 * pcap_freecode). Returns 0, and sets *unoptimized (unless NULL) when the
 * optimizer refused the filter; returns -1 with the reason in
 * pcap_geterr(handle) otherwise.
 */
int bpf_compile_expression(pcap_t *handle, const char *expression, struct bpf_program *program,
			   bool *unoptimized);

/* The same for the case study's own filters, which must compile: on failure,
 * prints "pcap_compile 'EXPRESSION': why" and exits with status 2. */
void bpf_compile_or_exit(pcap_t *handle, const char *expression, struct bpf_program *program);

#endif /* RESPEC_BPF_FILTER_COMPILE_H */
