/*
 * trace.c — reads captures into memory with libpcap (see trace.h).
 */
#include "trace.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *checked(void *pointer)
{
	if (pointer == NULL) {
		perror("trace");
		exit(2);
	}
	return pointer;
}

static void append(struct trace *trace, const struct pcap_pkthdr *header, const u_char *bytes,
		   int linktype)
{
	if (trace->count == trace->capacity) {
		trace->capacity = trace->capacity ? 2 * trace->capacity : 1024;
		trace->packets = checked(
			realloc(trace->packets, trace->capacity * sizeof *trace->packets));
	}
	/* A block of exactly caplen bytes, so that ASan sees a read past the end. */
	u_char *copy = checked(malloc(header->caplen ? header->caplen : 1));
	memcpy(copy, bytes, header->caplen);
	trace->packets[trace->count++] = (struct trace_packet){
		.data = copy,
		.caplen = header->caplen,
		.wirelen = header->len,
		.linktype = linktype,
	};
}

int trace_add_file(struct trace *trace, const char *path, char errbuf[PCAP_ERRBUF_SIZE])
{
	pcap_t *handle = pcap_open_offline(path, errbuf);
	if (handle == NULL)
		return -1;
	int linktype = pcap_datalink(handle);
	struct pcap_pkthdr *header;
	const u_char *bytes;
	int status;
	while ((status = pcap_next_ex(handle, &header, &bytes)) == 1)
		append(trace, header, bytes, linktype);
	if (status != PCAP_ERROR_BREAK)
		trace->truncated_files++;
	trace->files++;
	pcap_close(handle);
	return 0;
}

static int is_capture(const struct dirent *entry)
{
	size_t length = strlen(entry->d_name);
	return (length > 5 && strcmp(entry->d_name + length - 5, ".pcap") == 0) ||
	       (length > 7 && strcmp(entry->d_name + length - 7, ".pcapng") == 0);
}

int trace_add_directory(struct trace *trace, const char *dir)
{
	struct dirent **entries;
	int n = scandir(dir, &entries, is_capture, alphasort);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		char path[4096], errbuf[PCAP_ERRBUF_SIZE];
		snprintf(path, sizeof path, "%s/%s", dir, entries[i]->d_name);
		if (trace_add_file(trace, path, errbuf) != 0)
			trace->unreadable_files++;
		free(entries[i]);
	}
	free(entries);
	return 0;
}

void trace_keep_linktype(struct trace *trace, int linktype)
{
	size_t kept = 0;
	for (size_t i = 0; i < trace->count; i++) {
		if (trace->packets[i].linktype == linktype)
			trace->packets[kept++] = trace->packets[i];
		else
			free((void *)trace->packets[i].data);
	}
	trace->count = kept;
}

void trace_free(struct trace *trace)
{
	for (size_t i = 0; i < trace->count; i++)
		free((void *)trace->packets[i].data);
	free(trace->packets);
	*trace = (struct trace){ 0 };
}
