#!/usr/bin/env bash
# respec_pcap_test.sh RESPEC_PCAP SYNTHETIC_DIR TCPDUMP_TESTS ENGINES...
# Tests the respec-pcap tool: for several filters over the synthetic captures and
# real tcpdump test captures of three link types (Ethernet, Linux cooked, BSD
# loopback), every engine given must print exactly what libpcap's interpreter
# (engine interp) prints, in count mode and in list mode; the counts must not be
# trivially zero; bad filters and unreadable files must fail with a message.
set -euo pipefail
tool=$1 synthetic=$2 tcpdump=$3
shift 3
engines=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

files=("$synthetic/synthetic-mix.pcap" "$synthetic/tcp80-accept.pcap"
  "$tcpdump/afs.pcap" "$tcpdump/QinQpacket.pcap" "$tcpdump/dns_udp.pcap"
  "$tcpdump/icmpv6.pcap" "$tcpdump/mptcp-v0.pcap" "$tcpdump/forces3.pcap"
  "$tcpdump/ikev2four.pcap")
filters=("tcp port 80" "udp and dst port 53" "host 10.1.2.3 and (tcp or icmp)"
  "ip6 and tcp" "net 192.168.0.0/16" "portrange 6000-6100" "greater 1000")

fail() { echo "FAIL: $*" >&2; exit 1; }

for filter in "${filters[@]}"; do
  "$tool" --engine=interp --quiet "$filter" "${files[@]}" > "$work/interp.count"
  "$tool" --engine=interp --quiet --list "$filter" "${files[@]}" > "$work/interp.list"
  for engine in "${engines[@]}"; do
    "$tool" --engine="$engine" --quiet "$filter" "${files[@]}" > "$work/$engine.count"
    "$tool" --engine="$engine" --quiet --list "$filter" "${files[@]}" > "$work/$engine.list"
    cmp -s "$work/interp.count" "$work/$engine.count" ||
      { diff "$work/interp.count" "$work/$engine.count" >&2; fail "'$filter': engine $engine counts differ"; }
    cmp -s "$work/interp.list" "$work/$engine.list" ||
      fail "'$filter': engine $engine lists other packets"
  done
  matched=$(wc -l < "$work/interp.list")
  [ "$matched" -gt 0 ] || fail "'$filter' matched nothing: the captures do not test it"
  echo "'$filter': $matched packets match, engines ${engines[*]} agree with interp"
done

# Statistics: packets/s on stderr, the engine named.
"$tool" --engine="${engines[-1]}" "tcp port 80" "${files[@]}" 2> "$work/stats" > /dev/null
grep -q "engine ${engines[-1]}: .* M packets/s" "$work/stats" || fail "no throughput report: $(cat "$work/stats")"

# Errors: a bad expression and a missing file exit 1 with a message.
if "$tool" "tcp port eighty" "${files[0]}" > /dev/null 2> "$work/err"; then
  fail "a bad filter was accepted"
fi
grep -q "tcp port eighty" "$work/err" || fail "no message for a bad filter"
if "$tool" "tcp" "$work/missing.pcap" > /dev/null 2> "$work/err"; then
  fail "a missing file was accepted"
fi
grep -q "missing.pcap" "$work/err" || fail "no message for a missing file"
echo "respec-pcap: all checks passed"
