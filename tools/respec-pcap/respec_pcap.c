/*
 * respec-pcap — counts or lists the packets of capture files that match a pcap
 * filter expression, like `tcpdump -r FILE EXPRESSION`, with the filter run by
 * the engine of your choice, and says how fast it filtered:
 *
 *   interp   libpcap's interpreter (bpf_filter), what tcpdump runs
 *   respec   the filter's program compiled at start-up by run-time specialization
 *            of that same interpreter (respec's JIT; examples/bpf/runtime_filter.h),
 *            waiting for the code before the first packet
 *   auto     the interpreter at once, replaced by the specialized code as soon as
 *            a background thread has it: never waits for the compiler (default)
 *
 * The filter is compiled with the real pcap_compile for each file's link type.
 * Packets are read in batches; only the filter calls are timed, so packets/s is
 * the filter's throughput, not the disk's. Counts (or the list) go to stdout,
 * the statistics to stderr.
 */
#define _GNU_SOURCE
#include "filter_compile.h"
#include "runtime_filter.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum engine { ENGINE_INTERP, ENGINE_RESPEC, ENGINE_AUTO };
static const char *const engine_names[] = { "interp", "respec", "auto" };

enum { BATCH_PACKETS = 4096, BATCH_BYTES = 4 << 20 };

struct options {
	enum engine engine;
	bool list, quiet;
	const char *expression;
};

/* One filter program per link type, with what runs it. */
struct compiled_filter {
	int linktype;
	struct bpf_program program;
#ifdef RESPEC_BPF_RUNTIME
	respec_slot *slot;  /* auto: interpreter until replugged */
	bpf_match_fn match; /* respec: the specialized code */
#endif
};

struct totals {
	unsigned long long packets, matched, interpreted;
	double filter_ns, generate_ms;
	unsigned programs;
};

struct batch {
	struct pcap_pkthdr headers[BATCH_PACKETS];
	const u_char *data[BATCH_PACKETS];
	u_char bytes[BATCH_BYTES];
	size_t count, used;
	u_int verdicts[BATCH_PACKETS];
};

static _Noreturn void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: respec-pcap [--engine=interp|respec|auto] [--list] [--quiet] FILTER FILE...\n"
		"  counts the packets of each capture file (pcap or pcapng) that match the\n"
		"  pcap filter expression FILTER (see pcap-filter(7)).\n"
		"  --engine=E  interp: libpcap's interpreter; respec: the filter compiled by\n"
		"              run-time specialization first; auto (default): the interpreter\n"
		"              until the specialized code is ready, never waiting for it\n"
		"  -l, --list  print FILE:INDEX TIME CAPLEN/LEN of each matching packet\n"
		"  -q, --quiet no statistics on stderr\n");
	exit(status);
}

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static _Noreturn __attribute__((format(printf, 1, 2))) void die(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	fprintf(stderr, "respec-pcap: ");
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
	va_end(args);
	exit(1);
}

#ifdef RESPEC_BPF_RUNTIME
static respec_jit *the_jit(void)
{
	static respec_jit *jit;
	if (jit == NULL && (jit = bpf_runtime_create()) == NULL)
		die("cannot start run-time specialization");
	return jit;
}

/* Prepares the engine for a newly compiled program. */
static void start_engine(const struct options *options, struct compiled_filter *filter,
			 struct totals *totals)
{
	if (options->engine == ENGINE_RESPEC) {
		respec_jit *jit = the_jit(); /* loading the bitcode is not generation */
		double start = now_ns();
		filter->match = bpf_runtime_specialize(jit, &filter->program);
		if (filter->match == NULL)
			die("run-time specialization of '%s' failed: %s", options->expression,
			    respec_jit_error(the_jit()));
		totals->generate_ms += (now_ns() - start) / 1e6;
	} else if (options->engine == ENGINE_AUTO) {
		/* Slots live as long as the process: the compiler may replug one late. */
		filter->slot = calloc(1, sizeof *filter->slot);
		if (filter->slot == NULL)
			die("out of memory");
		if (respec_slot_init(filter->slot, "respec-pcap filter", RESPEC_PROTOCOL_EPOCH,
				     RESPEC_FN(match_program)) != 0)
			die("cannot make a repluggable filter: %s", respec_last_error());
		if (bpf_runtime_specialize_async(the_jit(), &filter->program, filter->slot) != 0)
			die("cannot start run-time specialization: %s", respec_jit_error(the_jit()));
	}
}
#endif

static struct compiled_filter *filter_for(const struct options *options, const char *path,
					  pcap_t *handle, struct compiled_filter *filters,
					  unsigned *nfilters, struct totals *totals)
{
	int linktype = pcap_datalink(handle);
	for (unsigned i = 0; i < *nfilters; i++)
		if (filters[i].linktype == linktype)
			return &filters[i];
	struct compiled_filter *filter = &filters[(*nfilters)++];
	filter->linktype = linktype;
	if (bpf_compile_expression(handle, options->expression, &filter->program, NULL) != 0)
		die("%s: '%s': %s", path, options->expression, pcap_geterr(handle));
	totals->programs++;
#ifdef RESPEC_BPF_RUNTIME
	start_engine(options, filter, totals);
#endif
	return filter;
}

/* Runs the filter over a batch; returns whether the specialized code ran. */
static bool filter_batch(const struct options *options, const struct compiled_filter *filter,
			 struct batch *batch)
{
	const struct bpf_insn *insns = filter->program.bf_insns;
	switch (options->engine) {
#ifdef RESPEC_BPF_RUNTIME
	case ENGINE_RESPEC:
		for (size_t i = 0; i < batch->count; i++)
			batch->verdicts[i] = filter->match(insns, batch->data[i], batch->headers[i].len,
							   batch->headers[i].caplen);
		return true;
	case ENGINE_AUTO: {
		/* One entry per batch: a replug waits at most for this batch. */
		bpf_match_fn match = (bpf_match_fn)respec_enter(filter->slot);
		for (size_t i = 0; i < batch->count; i++)
			batch->verdicts[i] = match(insns, batch->data[i], batch->headers[i].len,
						   batch->headers[i].caplen);
		respec_exit(filter->slot);
		return match != match_program;
	}
#endif
	default:
		for (size_t i = 0; i < batch->count; i++)
			batch->verdicts[i] = bpf_filter(insns, batch->data[i], batch->headers[i].len,
							batch->headers[i].caplen);
		return false;
	}
}

static void finish_batch(const struct options *options, const char *path,
			 const struct compiled_filter *filter, struct batch *batch,
			 unsigned long long *index, unsigned long long *matched, struct totals *totals)
{
	if (batch->count == 0)
		return;
	double start = now_ns();
	bool specialized = filter_batch(options, filter, batch);
	totals->filter_ns += now_ns() - start;
	if (!specialized)
		totals->interpreted += batch->count;
	for (size_t i = 0; i < batch->count; i++, (*index)++) {
		if (batch->verdicts[i] == 0)
			continue;
		(*matched)++;
		if (options->list)
			printf("%s:%llu %lld.%06ld %u/%u\n", path, *index + 1,
			       (long long)batch->headers[i].ts.tv_sec, (long)batch->headers[i].ts.tv_usec,
			       batch->headers[i].caplen, batch->headers[i].len);
	}
	totals->packets += batch->count;
	batch->count = batch->used = 0;
}

static void filter_file(const struct options *options, const char *path,
			struct compiled_filter *filters, unsigned *nfilters, struct batch *batch,
			struct totals *totals)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *handle = pcap_open_offline(path, errbuf);
	if (handle == NULL)
		die("%s: %s", path, errbuf);
	const struct compiled_filter *filter = filter_for(options, path, handle, filters, nfilters, totals);
	unsigned long long index = 0, matched = 0;
	struct pcap_pkthdr *header;
	const u_char *bytes;
	int status;
	while ((status = pcap_next_ex(handle, &header, &bytes)) == 1) {
		if (batch->count == BATCH_PACKETS || batch->used + header->caplen > BATCH_BYTES)
			finish_batch(options, path, filter, batch, &index, &matched, totals);
		if (header->caplen > BATCH_BYTES)
			die("%s: a packet larger than the batch buffer", path);
		/* libpcap reuses its buffer: keep a copy until the batch is filtered. */
		u_char *copy = batch->bytes + batch->used;
		memcpy(copy, bytes, header->caplen);
		batch->headers[batch->count] = *header;
		batch->data[batch->count++] = copy;
		batch->used += header->caplen;
	}
	finish_batch(options, path, filter, batch, &index, &matched, totals);
	if (status == PCAP_ERROR)
		fprintf(stderr, "respec-pcap: %s: %s (stopped there)\n", path, pcap_geterr(handle));
	if (!options->list)
		printf("%s: %llu of %llu packets match\n", path, matched, index);
	totals->matched += matched;
	pcap_close(handle);
}

static void report(const struct options *options, const struct totals *totals, int nfiles)
{
	double ns_per_packet = totals->packets ? totals->filter_ns / totals->packets : 0;
	fprintf(stderr, "respec-pcap: %llu packets in %d file%s, %llu match '%s'\n", totals->packets,
		nfiles, nfiles == 1 ? "" : "s", totals->matched, options->expression);
	fprintf(stderr, "respec-pcap: engine %s: %.1f ns/packet, %.2f M packets/s",
		engine_names[options->engine], ns_per_packet,
		ns_per_packet > 0 ? 1e3 / ns_per_packet : 0.0);
	if (options->engine == ENGINE_RESPEC)
		fprintf(stderr, "; code generated in %.1f ms (%u program%s)", totals->generate_ms,
			totals->programs, totals->programs == 1 ? "" : "s");
	if (options->engine == ENGINE_AUTO)
		fprintf(stderr, "; %llu packets interpreted while compiling, %llu specialized",
			totals->interpreted, totals->packets - totals->interpreted);
	fprintf(stderr, "\n");
}

static struct options parse_options(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "engine", required_argument, NULL, 'e' }, { "list", no_argument, NULL, 'l' },
		{ "quiet", no_argument, NULL, 'q' },        { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
#ifdef RESPEC_BPF_RUNTIME
	struct options options = { .engine = ENGINE_AUTO };
#else
	struct options options = { .engine = ENGINE_INTERP };
#endif
	int option;
	while ((option = getopt_long(argc, argv, "lqh", longs, NULL)) != -1) {
		switch (option) {
		case 'e': {
			size_t i = 0;
			while (i < 3 && strcmp(optarg, engine_names[i]) != 0)
				i++;
			if (i == 3)
				usage(2);
			options.engine = (enum engine)i;
			break;
		}
		case 'l':
			options.list = true;
			break;
		case 'q':
			options.quiet = true;
			break;
		case 'h':
			usage(0);
		default:
			usage(2);
		}
	}
#ifndef RESPEC_BPF_RUNTIME
	if (options.engine != ENGINE_INTERP)
		die("engine %s: this respec-pcap was built without run-time specialization "
		    "(librespec-jit)", engine_names[options.engine]);
#endif
	if (argc - optind < 2)
		usage(2);
	options.expression = argv[optind];
	return options;
}

int main(int argc, char **argv)
{
	struct options options = parse_options(argc, argv);
	int nfiles = argc - optind - 1;
	/* At most one program per file, one per link type. */
	struct compiled_filter *filters = calloc((size_t)nfiles, sizeof *filters);
	struct batch *batch = malloc(sizeof *batch);
	if (filters == NULL || batch == NULL)
		die("out of memory");
	batch->count = batch->used = 0;
	unsigned nfilters = 0;
	struct totals totals = { 0 };
	for (int i = optind + 1; i < argc; i++)
		filter_file(&options, argv[i], filters, &nfilters, batch, &totals);
	if (!options.quiet)
		report(&options, &totals, nfiles);
	/* Exit without waiting for a compile nobody needs any more (auto mode on a
	 * short capture): its slot and program stay valid until the process ends. */
	fflush(stdout);
	fflush(stderr);
	_exit(ferror(stdout) ? 1 : 0);
}
