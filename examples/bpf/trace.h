/*
 * trace.h — packet captures loaded into memory, for the BPF case study's tests
 * and benchmark: every packet of a set of .pcap/.pcapng files (read with the real
 * libpcap), with its captured bytes, wire length and link type.
 *
 * Filtering a packet in memory is what is measured and compared; reading the
 * file is not, so traces are read once, up front.
 */
#ifndef RESPEC_BPF_TRACE_H
#define RESPEC_BPF_TRACE_H

#include <pcap/pcap.h>
#include <stddef.h>
#include <stdint.h>

struct trace_packet {
	const u_char *data; /* caplen bytes, in a block of exactly that size */
	uint32_t caplen;    /* bytes captured: the filter's buflen */
	uint32_t wirelen;   /* bytes on the wire: the filter's wirelen */
	int linktype;       /* DLT_* of the file it came from */
};

struct trace {
	struct trace_packet *packets;
	size_t count, capacity;
	unsigned files;            /* files read (wholly or up to an error) */
	unsigned unreadable_files; /* files libpcap could not open */
	unsigned truncated_files;  /* files whose packet records ended in an error */
};

/*
 * Appends every packet of the capture at `path`. Returns 0, or -1 when libpcap
 * cannot open it (errbuf says why). A file whose records end in an error (the
 * tcpdump test suite has deliberately damaged ones) keeps the packets before the
 * error and counts as truncated.
 */
int trace_add_file(struct trace *trace, const char *path, char errbuf[PCAP_ERRBUF_SIZE]);

/* Appends every *.pcap and *.pcapng file of `dir`, in name order; files libpcap
 * cannot open are counted and skipped. Returns -1 if the directory is unreadable. */
int trace_add_directory(struct trace *trace, const char *dir);

/* Keeps only the packets of one link type (DLT_EN10MB: what the case study's
 * filters are compiled for). */
void trace_keep_linktype(struct trace *trace, int linktype);

void trace_free(struct trace *trace);

#endif /* RESPEC_BPF_TRACE_H */
