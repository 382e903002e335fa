/*
 * synthetic_coverage.c — checks that the synthetic captures exercise the case
 * study's filters: for each of the 11 filters, every branch of its program is
 * taken both ways and every accepting return is reached by some packet. (The
 * tcpdump test captures hardly do: 10 of their packets match `tcp port 80`.)
 *
 * Coverage is measured with libpcap's own interpreter on probe programs: a copy
 * of the filter's program with `ret #PROBE` appended, and one edge redirected to
 * it (or one accepting return replaced by it); the probe returns PROBE exactly
 * for the packets that take that edge (reach that return).
 *
 * The exception is the filter libpcap's optimizer refuses as matching nothing
 * (`ip6 and tcp[tcpflags] & tcp-syn != 0`, compiled unoptimized): it must accept
 * no packet, and its dead branches cannot be covered.
 */
#include "filter_compile.h"
#include "trace.h"
#include "bpf_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBE 0xdeadbeefu

struct filter_entry {
	const char *name, *expression;
};
#define FILTER_ENTRY(name, expression) { #name, expression },
static const struct filter_entry filters[] = { FILTER_LIST(FILTER_ENTRY) };

/* How many packets the probe program returns PROBE for. */
static size_t probe_hits(const struct bpf_insn *probe, const struct trace *trace)
{
	size_t hits = 0;
	for (size_t i = 0; i < trace->count; i++) {
		const struct trace_packet *p = &trace->packets[i];
		hits += bpf_filter(probe, p->data, p->wirelen, p->caplen) == PROBE;
	}
	return hits;
}

/* Checks one filter; returns the number of uncovered edges and returns. */
static unsigned check_filter(pcap_t *handle, const struct filter_entry *filter,
			     const struct trace *trace)
{
	struct bpf_program program;
	bool unoptimized;
	if (bpf_compile_expression(handle, filter->expression, &program, &unoptimized) != 0) {
		fprintf(stderr, "pcap_compile '%s': %s\n", filter->expression, pcap_geterr(handle));
		exit(2);
	}
	u_int n = program.bf_len;
	struct bpf_insn *probe = calloc(n + 1, sizeof *probe);
	size_t accepted = 0;
	for (size_t i = 0; i < trace->count; i++) {
		const struct trace_packet *p = &trace->packets[i];
		accepted += bpf_filter(program.bf_insns, p->data, p->wirelen, p->caplen) != 0;
	}

	unsigned edges = 0, edges_taken = 0, accepts = 0, accepts_reached = 0;
	for (u_int j = 0; j < n; j++) {
		const struct bpf_insn *insn = &program.bf_insns[j];
		bool conditional = BPF_CLASS(insn->code) == BPF_JMP && BPF_OP(insn->code) != BPF_JA;
		bool accepting = insn->code == (BPF_RET | BPF_K) && insn->k != 0;
		for (int outcome = 0; outcome < (conditional ? 2 : accepting ? 1 : 0); outcome++) {
			memcpy(probe, program.bf_insns, n * sizeof *probe);
			probe[n] = (struct bpf_insn)BPF_STMT(BPF_RET | BPF_K, PROBE);
			if (accepting) {
				probe[j] = probe[n];
			} else if (n - (j + 1) > 255) {
				fprintf(stderr, "%s: jump %u cannot reach a probe\n", filter->name, j);
				exit(2);
			} else if (outcome) {
				probe[j].jt = (u_char)(n - (j + 1));
			} else {
				probe[j].jf = (u_char)(n - (j + 1));
			}
			bool hit = probe_hits(probe, trace) > 0;
			if (!hit && !unoptimized)
				printf("    not taken: instruction %u %s\n", j,
				       accepting ? "(accept)" : outcome ? "(true)" : "(false)");
			if (accepting) {
				accepts++;
				accepts_reached += hit;
			} else {
				edges++;
				edges_taken += hit;
			}
		}
	}
	printf("  %-16s %6zu accepted, branches taken %u/%u, accepting returns reached "
	       "%u/%u%s  %s\n",
	       filter->name, accepted, edges_taken, edges, accepts_reached, accepts,
	       unoptimized ? " (unoptimized)" : "", filter->expression);
	unsigned missing = 0;
	if (unoptimized) {
		/* libpcap proved it matches nothing; hold it to that. */
		missing = accepted != 0;
	} else {
		missing = (edges - edges_taken) + (accepts - accepts_reached);
		if (accepted == 0 || accepted == trace->count)
			missing++;
	}
	free(probe);
	pcap_freecode(&program);
	return missing;
}

int main(void)
{
	struct trace trace = { 0 };
	char errbuf[PCAP_ERRBUF_SIZE];
	if (trace_add_file(&trace, BPF_SYNTHETIC_DIR "/synthetic-mix.pcap", errbuf) != 0) {
		fprintf(stderr, "FAIL: %s\n", errbuf);
		return 1;
	}
	printf("synthetic-mix.pcap: %zu packets\n", trace.count);
	pcap_t *handle = pcap_open_dead(DLT_EN10MB, BPF_CASE_SNAPLEN);
	unsigned missing = 0;
	for (size_t f = 0; f < sizeof filters / sizeof filters[0]; f++)
		missing += check_filter(handle, &filters[f], &trace);
	pcap_close(handle);
	trace_free(&trace);
	if (missing) {
		printf("FAIL: %u branches or accepting returns of the case study's filters are "
		       "not exercised by the synthetic trace\n", missing);
		return 1;
	}
	printf("every branch and accepting return of the %zu filters is exercised\n",
	       sizeof filters / sizeof filters[0]);
	return 0;
}
