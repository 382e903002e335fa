/*
 * hand_tcp_port_80.c — the `hand` variant: `tcp port 80` written by hand in C, as
 * an expert would write it to replace libpcap's program for that filter. It is
 * the ceiling for respec's specialized code and has exactly the interpreter's
 * verdicts, including on truncated packets: wherever the program would load a
 * byte beyond buflen, the interpreter rejects the packet, and so does this.
 *
 * The program it replaces (pcap_compile "tcp port 80" on Ethernet):
 *   IPv6 (ethertype 0x86dd): next header (byte 20) is TCP, then the source port
 *     (bytes 54-55) or the destination port (56-57) is 80;
 *   IPv4 (0x0800): protocol (byte 23) is TCP, not a later fragment (offset bits
 *     of bytes 20-21 zero), and the source or destination port, found after the
 *     IPv4 header (length 4 * (byte 14 & 0xf)), is 80.
 */
#include <sys/types.h> /* before pcap/bpf.h, which uses u_int */

#include <pcap/bpf.h>

#define ACCEPT 262144 /* the snapshot length: accept the whole packet */

static inline unsigned be16(const u_char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

u_int match_tcp_port_80(const u_char *packet, u_int wirelen, u_int buflen)
{
	(void)wirelen;
	if (buflen < 14)
		return 0;
	unsigned ethertype = be16(packet + 12);
	if (ethertype == 0x86dd) {
		if (buflen < 21 || packet[20] != 6 || buflen < 56)
			return 0;
		if (be16(packet + 54) == 80)
			return ACCEPT;
		return buflen >= 58 && be16(packet + 56) == 80 ? ACCEPT : 0;
	}
	if (ethertype != 0x0800 || buflen < 24 || packet[23] != 6 ||
	    (be16(packet + 20) & 0x1fff) != 0)
		return 0;
	unsigned header = (packet[14] & 0xfu) * 4;
	if (buflen < header + 16)
		return 0;
	if (be16(packet + 14 + header) == 80)
		return ACCEPT;
	return buflen >= header + 18 && be16(packet + 16 + header) == 80 ? ACCEPT : 0;
}
