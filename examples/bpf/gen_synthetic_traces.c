/*
 * gen_synthetic_traces — writes the BPF case study's synthetic Ethernet captures.
 *
 * The tcpdump test captures are real but few of their packets match the case
 * study's filters (10 match `tcp port 80`), so most accept paths of the filters
 * would go unexercised. These captures are built so that every filter's accept
 * and reject paths are taken many times: IPv4 and IPv6, 802.1Q and QinQ tags,
 * TCP/UDP/SCTP ports on and around 80, 53 and 6000-6100 (both directions),
 * TCP flags with and without SYN, the host 10.1.2.3 and the net 192.168/16 as
 * source and destination, IPv4 options and fragments, IPv6 hop-by-hop and
 * fragment headers,
 * ARP/RARP, broadcast and near-broadcast destinations, lengths around 1000, and
 * packets truncated at every header boundary (caplen < wirelen).
 *
 * usage: gen_synthetic_traces DIR
 *   DIR/synthetic-mix.pcap  20000 packets of all the kinds above, shuffled
 *   DIR/tcp80-accept.pcap   IPv4/TCP to port 80, untruncated: `tcp port 80` accepts
 *   DIR/tcp80-reject.pcap   IPv4/UDP: `tcp port 80` rejects
 * Deterministic: the same files on every run.
 */
#include "diffcheck.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYNTHETIC_SEED 0x5eed0b9fULL
#define MIX_PACKETS 20000
#define CASE_PACKETS 256
#define MAX_FRAME 1600

enum { ETHERTYPE_IPV4 = 0x0800, ETHERTYPE_ARP = 0x0806, ETHERTYPE_RARP = 0x8035,
       ETHERTYPE_VLAN = 0x8100, ETHERTYPE_QINQ = 0x88a8, ETHERTYPE_QINQ_OLD = 0x9100,
       ETHERTYPE_IPV6 = 0x86dd };
enum { PROTO_HOPOPTS = 0, PROTO_ICMP = 1, PROTO_TCP = 6, PROTO_UDP = 17, PROTO_FRAGMENT = 44,
       PROTO_GRE = 47, PROTO_ICMPV6 = 58, PROTO_SCTP = 132 };

struct frame {
	u_char bytes[MAX_FRAME];
	size_t length;
};

static void put8(struct frame *f, unsigned value)
{
	if (f->length < MAX_FRAME)
		f->bytes[f->length++] = (u_char)value;
}

static void put16(struct frame *f, unsigned value)
{
	put8(f, value >> 8);
	put8(f, value);
}

static void put32(struct frame *f, uint32_t value)
{
	put16(f, value >> 16);
	put16(f, value);
}

static void put_bytes(struct frame *f, const u_char *bytes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put8(f, bytes[i]);
}

static void put_random(struct frame *f, struct diff_rng *rng, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put8(f, (unsigned)diff_rng_next(rng));
}

static uint64_t pick(struct diff_rng *rng, const uint64_t *choices, size_t n)
{
	return choices[diff_rng_below(rng, n)];
}
#define PICK(rng, array) pick(rng, array, sizeof(array) / sizeof(array)[0])

/* ---- the fields a packet is built from ---- */

struct packet_spec {
	u_char eth_dst[6], eth_src[6];
	unsigned vlan_tags;     /* 0, 1 or 2 */
	unsigned vlan_tpid[2];
	bool ipv6;
	unsigned proto;         /* the transport protocol */
	uint32_t src4, dst4;
	u_char src6[16], dst6[16];
	unsigned sport, dport;
	unsigned tcp_flags;
	unsigned ipv4_frag;     /* flags + fragment offset field */
	unsigned ipv4_words;    /* header length in 32-bit words, 5..15 */
	enum { NO_EXTENSION, HOP_BY_HOP, FRAGMENT } ipv6_extension; /* before the
				 * transport header */
	size_t payload;
};

static const uint64_t interesting_ports[] = { 80, 80, 80, 53, 53, 443, 5999, 6000, 6001, 6050,
					      6099, 6100, 6101, 8080, 20480, 1024, 65535 };
/* 10.1.2.3 is the filters' host; 192.168/16 their net; the rest sit around them. */
static const uint64_t interesting_ipv4[] = { 0x0a010203, 0x0a010203, 0x0a010204, 0xc0a80001,
					     0xc0a8ffff, 0xc0a90001, 0xc0a70001, 0xac100001,
					     0x08080808 };

static void random_ipv4(struct diff_rng *rng, uint32_t *address)
{
	*address = diff_rng_one_in(rng, 4) ? (uint32_t)diff_rng_next(rng)
					   : (uint32_t)PICK(rng, interesting_ipv4);
}

static void random_ipv6(struct diff_rng *rng, u_char address[16])
{
	static const u_char documentation[4] = { 0x20, 0x01, 0x0d, 0xb8 };
	diff_rng_fill(rng, address, 16);
	if (!diff_rng_one_in(rng, 4))
		memcpy(address, documentation, sizeof documentation);
}

static void random_mac(struct diff_rng *rng, u_char mac[6])
{
	diff_rng_fill(rng, mac, 6);
	mac[0] &= 0xfe; /* unicast */
}

static unsigned random_port(struct diff_rng *rng)
{
	return diff_rng_one_in(rng, 3) ? (unsigned)diff_rng_below(rng, 65536)
				       : (unsigned)PICK(rng, interesting_ports);
}

static size_t random_payload(struct diff_rng *rng)
{
	switch (diff_rng_below(rng, 8)) {
	case 0: /* wire lengths straddling `greater 1000` */
		return 900 + diff_rng_below(rng, 150);
	case 1:
		return diff_rng_below(rng, 1400);
	default:
		return diff_rng_below(rng, 120);
	}
}

static void random_ip_spec(struct diff_rng *rng, struct packet_spec *spec)
{
	static const uint64_t protos[] = { PROTO_TCP, PROTO_TCP, PROTO_TCP, PROTO_TCP, PROTO_UDP,
					   PROTO_UDP, PROTO_UDP, PROTO_ICMP, PROTO_SCTP, PROTO_GRE };
	static const uint64_t tpids[] = { ETHERTYPE_VLAN, ETHERTYPE_VLAN, ETHERTYPE_QINQ,
					  ETHERTYPE_QINQ_OLD };
	memset(spec, 0, sizeof *spec);
	if (diff_rng_one_in(rng, 8))
		memset(spec->eth_dst, 0xff, 6);
	else
		random_mac(rng, spec->eth_dst);
	random_mac(rng, spec->eth_src);
	spec->vlan_tags = diff_rng_one_in(rng, 6) ? 1 + (unsigned)diff_rng_one_in(rng, 4) : 0;
	for (unsigned i = 0; i < 2; i++)
		spec->vlan_tpid[i] = (unsigned)PICK(rng, tpids);
	spec->ipv6 = diff_rng_one_in(rng, 3);
	spec->proto = (unsigned)PICK(rng, protos);
	if (spec->ipv6 && spec->proto == PROTO_ICMP)
		spec->proto = PROTO_ICMPV6;
	random_ipv4(rng, &spec->src4);
	random_ipv4(rng, &spec->dst4);
	random_ipv6(rng, spec->src6);
	random_ipv6(rng, spec->dst6);
	spec->sport = random_port(rng);
	spec->dport = random_port(rng);
	spec->tcp_flags = (unsigned)diff_rng_below(rng, 256);
	spec->ipv4_words = diff_rng_one_in(rng, 8) ? 6 + (unsigned)diff_rng_below(rng, 10) : 5;
	switch (diff_rng_below(rng, 16)) {
	case 0: /* a later fragment: no transport header to look at */
		spec->ipv4_frag = 1 + (unsigned)diff_rng_below(rng, 0x1fff);
		break;
	case 1: /* a first fragment */
		spec->ipv4_frag = 0x2000;
		break;
	default: /* don't fragment, or nothing */
		spec->ipv4_frag = diff_rng_one_in(rng, 2) ? 0x4000 : 0;
	}
	switch (diff_rng_below(rng, 10)) {
	case 0:
		spec->ipv6_extension = HOP_BY_HOP;
		break;
	case 1:
		spec->ipv6_extension = FRAGMENT;
		break;
	default:
		spec->ipv6_extension = NO_EXTENSION;
	}
	spec->payload = random_payload(rng);
}

/* ---- building frames ---- */

static void put_ethernet(struct frame *f, const struct packet_spec *spec, unsigned ethertype)
{
	put_bytes(f, spec->eth_dst, 6);
	put_bytes(f, spec->eth_src, 6);
	for (unsigned i = 0; i < spec->vlan_tags; i++) {
		put16(f, spec->vlan_tpid[i]);
		put16(f, 0x0064 + i); /* priority 0, VLAN 100/101 */
	}
	put16(f, ethertype);
}

static size_t transport_header_length(unsigned proto)
{
	switch (proto) {
	case PROTO_TCP:
		return 20;
	case PROTO_UDP:
	case PROTO_ICMP:
	case PROTO_ICMPV6:
		return 8;
	case PROTO_SCTP:
		return 12;
	default:
		return 4;
	}
}

static void put_transport(struct frame *f, const struct packet_spec *spec, struct diff_rng *rng)
{
	switch (spec->proto) {
	case PROTO_TCP:
		put16(f, spec->sport);
		put16(f, spec->dport);
		put32(f, (uint32_t)diff_rng_next(rng)); /* sequence */
		put32(f, (uint32_t)diff_rng_next(rng)); /* acknowledgement */
		put8(f, 5 << 4);                        /* data offset */
		put8(f, spec->tcp_flags);
		put16(f, 65535);                        /* window */
		put32(f, 0);                            /* checksum, urgent pointer */
		break;
	case PROTO_UDP:
		put16(f, spec->sport);
		put16(f, spec->dport);
		put16(f, (unsigned)(8 + spec->payload));
		put16(f, 0);
		break;
	case PROTO_SCTP:
		put16(f, spec->sport);
		put16(f, spec->dport);
		put32(f, (uint32_t)diff_rng_next(rng)); /* verification tag */
		put32(f, 0);                            /* checksum */
		break;
	case PROTO_ICMP:
	case PROTO_ICMPV6:
		put8(f, diff_rng_one_in(rng, 2) ? 8 : 0); /* echo request / reply */
		put8(f, 0);
		put16(f, 0);
		put32(f, (uint32_t)diff_rng_next(rng));
		break;
	default:
		put_random(f, rng, 4);
	}
	put_random(f, rng, spec->payload);
}

static unsigned ipv4_checksum(const u_char *header, size_t length)
{
	uint32_t sum = 0;
	for (size_t i = 0; i + 1 < length; i += 2)
		sum += (uint32_t)header[i] << 8 | header[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

static void build_ip(struct frame *f, const struct packet_spec *spec, struct diff_rng *rng)
{
	size_t transport = transport_header_length(spec->proto) + spec->payload;
	if (spec->ipv6) {
		put_ethernet(f, spec, ETHERTYPE_IPV6);
		put32(f, 0x60000000);
		static const unsigned next_header[] = { [HOP_BY_HOP] = PROTO_HOPOPTS,
							[FRAGMENT] = PROTO_FRAGMENT };
		bool extension = spec->ipv6_extension != NO_EXTENSION;
		put16(f, (unsigned)(transport + (extension ? 8 : 0)));
		put8(f, extension ? next_header[spec->ipv6_extension] : spec->proto);
		put8(f, 64);
		put_bytes(f, spec->src6, 16);
		put_bytes(f, spec->dst6, 16);
		if (spec->ipv6_extension == HOP_BY_HOP) {
			put8(f, spec->proto);
			put8(f, 0);       /* 8 bytes */
			put16(f, 0x0104); /* PadN of 4 */
			put32(f, 0);
		} else if (spec->ipv6_extension == FRAGMENT) {
			put8(f, spec->proto);
			put8(f, 0);
			put16(f, diff_rng_one_in(rng, 2) ? 1 : 0); /* first fragment, more follow */
			put32(f, (uint32_t)diff_rng_next(rng));   /* identification */
		}
	} else {
		put_ethernet(f, spec, ETHERTYPE_IPV4);
		size_t start = f->length, header = 4 * spec->ipv4_words;
		put8(f, 0x40 | spec->ipv4_words);
		put8(f, 0);
		put16(f, (unsigned)(header + transport));
		put16(f, (unsigned)diff_rng_below(rng, 65536)); /* identification */
		put16(f, spec->ipv4_frag);
		put8(f, 64);
		put8(f, spec->proto);
		put16(f, 0);
		put32(f, spec->src4);
		put32(f, spec->dst4);
		while (f->length - start < header)
			put8(f, 1); /* NOP options */
		unsigned checksum = ipv4_checksum(f->bytes + start, header);
		f->bytes[start + 10] = (u_char)(checksum >> 8);
		f->bytes[start + 11] = (u_char)checksum;
	}
	put_transport(f, spec, rng);
}

static void build_arp(struct frame *f, struct diff_rng *rng, unsigned ethertype)
{
	struct packet_spec spec;
	random_ip_spec(rng, &spec);
	if (diff_rng_one_in(rng, 2))
		memset(spec.eth_dst, 0xff, 6);
	put_ethernet(f, &spec, ethertype);
	put16(f, 1);      /* Ethernet */
	put16(f, 0x0800); /* IPv4 */
	put8(f, 6);
	put8(f, 4);
	put16(f, ethertype == ETHERTYPE_RARP ? 3 : 1 + (unsigned)diff_rng_one_in(rng, 2));
	put_bytes(f, spec.eth_src, 6);
	put32(f, spec.src4);
	put_random(f, rng, 6);
	put32(f, spec.dst4);
	put_random(f, rng, diff_rng_below(rng, 2) * 18); /* Ethernet padding, or none */
}

/* Frames that are neither IP nor ARP: other ethertypes, 802.3 lengths, noise. */
static void build_other(struct frame *f, struct diff_rng *rng)
{
	static const uint64_t ethertypes[] = { 0x88cc /* LLDP */, 0x8863 /* PPPoE */,
					       0x0600, 0x05dc /* an 802.3 length */,
					       0x0000 };
	struct packet_spec spec;
	random_ip_spec(rng, &spec);
	if (diff_rng_one_in(rng, 4))
		memset(spec.eth_dst, 0xff, 6);
	spec.vlan_tags = 0;
	put_ethernet(f, &spec, diff_rng_one_in(rng, 3) ? (unsigned)diff_rng_below(rng, 65536)
						       : (unsigned)PICK(rng, ethertypes));
	put_random(f, rng, random_payload(rng));
}

static void build_mixed(struct frame *f, struct diff_rng *rng)
{
	f->length = 0;
	uint64_t kind = diff_rng_below(rng, 100);
	if (kind < 8) {
		build_arp(f, rng, ETHERTYPE_ARP);
	} else if (kind < 10) {
		build_arp(f, rng, ETHERTYPE_RARP);
	} else if (kind < 14) {
		build_other(f, rng);
	} else {
		struct packet_spec spec;
		random_ip_spec(rng, &spec);
		build_ip(f, &spec, rng);
		/* Near-broadcast: differs from ff:ff:ff:ff:ff:ff in one bit, first or last. */
		if (kind < 15)
			memcpy(f->bytes, "\xff\xff\xff\xff\xff\xfe", 6);
		else if (kind < 16)
			memcpy(f->bytes, "\xfe\xff\xff\xff\xff\xff", 6);
	}
}

/* caplen for a frame of `length` bytes: mostly whole, else cut at or around a
 * header boundary or anywhere (libpcap's bounds checks decide these). */
static size_t random_caplen(struct diff_rng *rng, size_t length)
{
	static const uint64_t boundaries[] = { 0, 6, 12, 13, 14, 15, 18, 20, 21, 23, 24, 26, 30,
					       34, 36, 38, 42, 54, 55, 56, 57, 58, 60, 68 };
	if (!diff_rng_one_in(rng, 8))
		return length;
	size_t caplen = diff_rng_one_in(rng, 3) ? diff_rng_below(rng, length + 1)
						: (size_t)PICK(rng, boundaries);
	return caplen < length ? caplen : length;
}

static void write_frame(pcap_dumper_t *dumper, unsigned index, const struct frame *f,
			size_t caplen)
{
	struct pcap_pkthdr header = {
		.ts = { .tv_sec = 1700000000 + index / 1000, .tv_usec = (index % 1000) * 1000 },
		.caplen = (bpf_u_int32)caplen,
		.len = (bpf_u_int32)f->length,
	};
	pcap_dump((u_char *)dumper, &header, f->bytes);
}

static pcap_dumper_t *open_capture(pcap_t *handle, const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	pcap_dumper_t *dumper = pcap_dump_open(handle, path);
	if (dumper == NULL) {
		fprintf(stderr, "gen_synthetic_traces: %s: %s\n", path, pcap_geterr(handle));
		exit(1);
	}
	return dumper;
}

static void close_capture(pcap_dumper_t *dumper)
{
	if (pcap_dump_flush(dumper) != 0) {
		fprintf(stderr, "gen_synthetic_traces: cannot write a capture\n");
		exit(1);
	}
	pcap_dump_close(dumper);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_synthetic_traces DIR\n");
		return 2;
	}
	pcap_t *handle = pcap_open_dead(DLT_EN10MB, 262144);
	struct diff_rng rng = { SYNTHETIC_SEED };
	struct frame frame;

	pcap_dumper_t *mix = open_capture(handle, argv[1], "synthetic-mix.pcap");
	for (unsigned i = 0; i < MIX_PACKETS; i++) {
		build_mixed(&frame, &rng);
		write_frame(mix, i, &frame, random_caplen(&rng, frame.length));
	}
	close_capture(mix);

	pcap_dumper_t *accept = open_capture(handle, argv[1], "tcp80-accept.pcap");
	pcap_dumper_t *reject = open_capture(handle, argv[1], "tcp80-reject.pcap");
	for (unsigned i = 0; i < CASE_PACKETS; i++) {
		struct packet_spec spec;
		random_ip_spec(&rng, &spec);
		spec.vlan_tags = 0;
		spec.ipv6 = false;
		spec.ipv4_frag = 0x4000;
		spec.ipv4_words = 5;
		spec.proto = PROTO_TCP;
		spec.sport = 32768 + (unsigned)diff_rng_below(&rng, 28000);
		spec.dport = 80;
		spec.payload = diff_rng_below(&rng, 1400);
		frame.length = 0;
		build_ip(&frame, &spec, &rng);
		write_frame(accept, i, &frame, frame.length);

		spec.proto = PROTO_UDP;
		frame.length = 0;
		build_ip(&frame, &spec, &rng);
		write_frame(reject, i, &frame, frame.length);
	}
	close_capture(accept);
	close_capture(reject);
	pcap_close(handle);
	return 0;
}
