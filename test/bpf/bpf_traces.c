/*
 * bpf_traces.c — the BPF correctness suite over real and synthetic traffic: for
 * every filter of the suite (the case study's 11 plus filters-more.txt, over 100
 * expressions) and every packet of every trace (the 667 tcpdump test captures and
 * the synthetic captures), the verdict of a variant must equal libpcap's.
 *
 * The oracle is the installed libpcap itself: bpf_filter() of libpcap.so, on the
 * program pcap_compile gives for the expression now (filter_compile.h's rule, the
 * one the spec generator used). Variants:
 *   generic    the spec compiled by clang: the fetched bpf_filter.c interpreting
 *              the program (checks that the source matches the installed library)
 *   respec     the spec specialized by respec at build time
 *   clang-lto  the spec and bpf_filter.c through clang -O3 -flto (if built)
 *   runtime    the program specialized at run time by librespec-jit
 *              (runtime_filter.h; if built)
 *   selftest   deliberately wrong on truncated IPv4 packets: the suite must fail
 * Each packet sits at the end of a readable mapping followed by an inaccessible
 * page (diffcheck.h), so reading past its captured bytes crashes the test, and
 * must leave the packet unchanged.
 *
 *   bpf-traces VARIANT [--function FILTER] [--iteration PACKET]
 * replays one filter and/or one packet (the index printed on failure).
 */
#include "diffcheck.h"
#include "filter_compile.h"
#include "trace.h"
#include "bpfsuite_spec.h"
#ifdef RESPEC_BPF_RUNTIME
#include "runtime_filter.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef u_int (*match_fn)(const u_char *packet, u_int wirelen, u_int buflen);

#define DECLARE_GENERIC(name, expression) \
	u_int generic_match_##name(const u_char *, u_int, u_int);
FILTER_LIST(DECLARE_GENERIC)
#ifdef HAVE_BPFSUITE_RESPEC
#define DECLARE_RESPEC(name, expression) \
	u_int respec_match_##name(const u_char *, u_int, u_int);
FILTER_LIST(DECLARE_RESPEC)
#define VARIANT_RESPEC(name) respec_match_##name
#define BUILT_RESPEC true
#else
#define VARIANT_RESPEC(name) NULL
#define BUILT_RESPEC false
#endif
#ifdef HAVE_BPFSUITE_CLANG_LTO
#define DECLARE_CLANG_LTO(name, expression) \
	u_int clang_lto_match_##name(const u_char *, u_int, u_int);
FILTER_LIST(DECLARE_CLANG_LTO)
#define VARIANT_CLANG_LTO(name) clang_lto_match_##name
#define BUILT_CLANG_LTO true
#else
#define VARIANT_CLANG_LTO(name) NULL
#define BUILT_CLANG_LTO false
#endif

enum variant_kind { GENERIC, RESPEC, CLANG_LTO, RUNTIME, SELFTEST };

struct suite_filter {
	const char *name, *expression;
	match_fn generic, respec, clang_lto;
	struct bpf_program program; /* the oracle's, from pcap_compile */
#ifdef RESPEC_BPF_RUNTIME
	bpf_match_fn runtime;
#endif
	unsigned long long accepted;
};

#define FILTER_ENTRY(filter, text)                                                    \
	{ .name = #filter, .expression = text, .generic = generic_match_##filter,        \
	  .respec = VARIANT_RESPEC(filter), .clang_lto = VARIANT_CLANG_LTO(filter) },
static struct suite_filter filters[] = { FILTER_LIST(FILTER_ENTRY) };
enum { NFILTERS = sizeof filters / sizeof filters[0] };

static enum variant_kind parse_variant(const char *name)
{
	static const struct {
		const char *name;
		enum variant_kind kind;
		bool built;
	} known[] = {
		{ "generic", GENERIC, true },
		{ "respec", RESPEC, BUILT_RESPEC },
		{ "clang-lto", CLANG_LTO, BUILT_CLANG_LTO },
#ifdef RESPEC_BPF_RUNTIME
		{ "runtime", RUNTIME, true },
#endif
		{ "selftest", SELFTEST, true },
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcmp(known[i].name, name) == 0 && known[i].built)
			return known[i].kind;
	fprintf(stderr, "unknown variant '%s'; this build has:", name);
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (known[i].built)
			fprintf(stderr, " %s", known[i].name);
	fprintf(stderr, "\n");
	exit(2);
}

static u_int run_variant(enum variant_kind kind, const struct suite_filter *filter,
			 const u_char *packet, u_int wirelen, u_int buflen)
{
	switch (kind) {
	case RESPEC:
		return filter->respec(packet, wirelen, buflen);
	case CLANG_LTO:
		return filter->clang_lto(packet, wirelen, buflen);
#ifdef RESPEC_BPF_RUNTIME
	case RUNTIME:
		return filter->runtime(filter->program.bf_insns, packet, wirelen, buflen);
#endif
	case SELFTEST: {
		u_int verdict = filter->generic(packet, wirelen, buflen);
		bool truncated_ipv4 = buflen < wirelen && buflen >= 14 && packet[12] == 0x08 &&
				      packet[13] == 0x00;
		return truncated_ipv4 ? !verdict : verdict;
	}
	default:
		return filter->generic(packet, wirelen, buflen);
	}
}

static void compile_filters(void)
{
	pcap_t *handle = pcap_open_dead(DLT_EN10MB, BPF_CASE_SNAPLEN);
	for (size_t f = 0; f < NFILTERS; f++)
		bpf_compile_or_exit(handle, filters[f].expression, &filters[f].program);
	pcap_close(handle);
}

#ifdef RESPEC_BPF_RUNTIME
static void specialize_at_run_time(void)
{
	respec_jit *jit = bpf_runtime_create();
	if (jit == NULL)
		exit(2);
	for (size_t f = 0; f < NFILTERS; f++) {
		filters[f].runtime = bpf_runtime_specialize(jit, &filters[f].program);
		if (filters[f].runtime == NULL) {
			fprintf(stderr, "FAIL: run-time specialization of '%s': %s\n",
				filters[f].expression, respec_jit_error(jit));
			exit(1);
		}
	}
	struct respec_jit_stats stats;
	respec_jit_get_stats(jit, &stats);
	printf("run-time specialization: %u filters in %.1f ms (%.2f ms each)\n",
	       stats.specializations, stats.total_ms,
	       stats.total_ms / (stats.specializations ? stats.specializations : 1));
	/* The jit stays alive: it owns the specialized code. */
}
#endif

/* Loads both trace sets; a suite that silently found no traces would pass. */
static void load_traces(struct trace *trace, size_t *tcpdump_packets)
{
	if (trace_add_directory(trace, BPF_TCPDUMP_TESTS) != 0 || trace->files < 600) {
		fprintf(stderr, "FAIL: expected tcpdump's 667 test captures in %s, found %u\n",
			BPF_TCPDUMP_TESTS, trace->files);
		exit(1);
	}
	*tcpdump_packets = trace->count;
	unsigned tcpdump_files = trace->files;
	if (trace_add_directory(trace, BPF_SYNTHETIC_DIR) != 0 || trace->files == tcpdump_files) {
		fprintf(stderr, "FAIL: no synthetic captures in %s\n", BPF_SYNTHETIC_DIR);
		exit(1);
	}
	printf("traces: %u capture files (%u tcpdump tests; %u unreadable, %u ending in an "
	       "error), %zu packets (%zu tcpdump, %zu synthetic)\n",
	       trace->files, tcpdump_files, trace->unreadable_files, trace->truncated_files,
	       trace->count, *tcpdump_packets, trace->count - *tcpdump_packets);
}

int main(int argc, char **argv)
{
	struct diff_run run;
	diff_begin(&run, argc, argv, 0);
	enum variant_kind kind = parse_variant(run.variant);
	compile_filters();
#ifdef RESPEC_BPF_RUNTIME
	if (kind == RUNTIME)
		specialize_at_run_time();
#endif

	struct trace trace = { 0 };
	size_t tcpdump_packets;
	load_traces(&trace, &tcpdump_packets);
	uint32_t largest = 1;
	for (size_t i = 0; i < trace.count; i++)
		if (trace.packets[i].caplen > largest)
			largest = trace.packets[i].caplen;
	struct diff_input input;
	diff_input_init(&input, largest);

	unsigned long long comparisons = 0;
	for (size_t i = 0; i < trace.count; i++) {
		if (run.has_only_iteration && i != run.only_iteration)
			continue;
		const struct trace_packet *packet = &trace.packets[i];
		u_char *data = diff_input_place(&input, packet->caplen);
		memcpy(data, packet->data, packet->caplen);
		diff_input_seal(&input);
		run.iteration = i;
		for (size_t f = 0; f < NFILTERS; f++) {
			struct suite_filter *filter = &filters[f];
			if (run.only_function != NULL && strcmp(run.only_function, filter->name) != 0)
				continue;
			run.function = filter->name;
			u_int expected = bpf_filter(filter->program.bf_insns, data, packet->wirelen,
						    packet->caplen);
			u_int actual = run_variant(kind, filter, data, packet->wirelen,
						   packet->caplen);
			if (actual != expected)
				diff_fail(&run, "'%s' on packet %zu (%s, caplen %u, wirelen %u): "
						"libpcap says %u, the variant %u",
					  filter->expression, i,
					  i < tcpdump_packets ? "tcpdump tests" : "synthetic",
					  packet->caplen, packet->wirelen, expected, actual);
			filter->accepted += expected != 0;
			comparisons++;
		}
		diff_expect_input_unchanged(&run, "packet", &input);
	}

	for (size_t f = 0; f < NFILTERS; f++)
		if (filters[f].accepted > 0 || run.only_function == NULL)
			printf("  %-32s %8llu accepted  %s\n", filters[f].name, filters[f].accepted,
			       filters[f].expression);
	printf("%s: %llu verdicts of %d filters equal to libpcap's\n", run.variant, comparisons,
	       NFILTERS);
	for (size_t f = 0; f < NFILTERS; f++)
		pcap_freecode(&filters[f].program);
	diff_input_destroy(&input);
	trace_free(&trace);
	return 0;
}
