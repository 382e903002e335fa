#!/usr/bin/env python3
"""bench-link — what respec link's choices buy on real programs (issue 17's demonstrations).

  bench-link --batch PROGRAM --redis DIR --client DIR [--quick] [--rounds N] [--seed N]
             --json FILE

The electric malloc (examples/electric), in the two kinds of program its rules tell apart:

- Batch programs: Lua 5.4's lua and luac, measured by PROGRAM (bench_link.c, the C
  harness: interleaved runs, outputs digested and checked equal, peak RSS), run first
  with the same seed; its rows and figures are this file's too.
- A threaded server: Redis 7.0.15 with the C library's malloc (DIR, from
  examples/electric/build-redis), linked as glibc's malloc ("generic"), through respec
  link --property long-running ("respec": the rules choose jemalloc) and with the
  arena the rules give short-running programs ("arena", for contrast). Each round starts
  every variant once, in a new random order (seeded), checks that it answers a fixed
  script as "generic" does, then runs redis-benchmark (50 clients, 1 KiB values over
  100,000 random keys): SET, GET, LPUSH, LPOP. Server on CPU 0, client on CPU 1.
  Figures: requests per second (ns_per_op is its inverse), p50 and p99 latency, medians
  over the rounds. Memory, once per variant after the rounds: the peak resident set
  after 200,000 SETs of 1 KiB values (max_rss_kib.redis/VARIANT), and the resident set
  12 s after FLUSHALL (rss_after_flush_kib.redis/VARIANT; jemalloc gives unused pages
  back after 10 s by default).
- A library specialized for its client (examples/rpc/link, DIR given by --rpc): the
  case study's UDP-only, AUTH_NONE client linked with the Sun RPC library as it is
  ("generic") and through respec link with the library's rules ("respec"). Each round
  runs both, in a new random order, for RPC_ROUNDS rounds of RMIN + ECHO_INTS of 100
  ints + ECHO_RECORD against the case study's server on loopback; the programs check
  every answer and print a digest of them, which must agree. Figure: ns per round
  (the three calls), medians over the rounds; the programs' code sizes beside it.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from redis_server import (CHECK_SCRIPT, Server, add_run_options, percentiles,  # noqa: E402
                          benchmark_row, write_report)

VARIANTS = ["generic", "respec", "arena"]
BINARY = {"generic": "redis-server-glibc", "respec": "redis-server-respec",
          "arena": "redis-server-arena"}
TESTS = [("SET", "set"), ("GET", "get"), ("LPUSH", "lpush"), ("LPOP", "lpop")]
VALUES = ["-d", "1024", "-r", "100000"]


def run_batch(args, seed):
    """The batch programs' rows and figures (bench_link.c), with this run's seed."""
    with tempfile.TemporaryDirectory() as directory:
        out = os.path.join(directory, "batch.json")
        argv = [args.batch, "--seed", str(seed), "--json", out]
        if args.quick:
            argv.append("--quick")
        if args.rounds:
            argv += ["--rounds", str(args.rounds)]
        subprocess.run(argv, check=True)
        with open(out) as f:
            return json.load(f)


def measure_server(args, rounds, order, requests):
    samples, replies = {}, {}
    for round_index in range(rounds):
        shuffled = VARIANTS[:]
        order.shuffle(shuffled)
        for name in shuffled:
            print(f"link: redis round {round_index + 1}/{rounds}: {name}", file=sys.stderr)
            server = Server(os.path.join(args.redis, BINARY[name]), args.client)
            try:
                replies.setdefault(name, []).append(server.cli([], stdin=CHECK_SCRIPT))
                rows = server.benchmark([t for _, t in TESTS], requests, VALUES)
                for test, _ in TESTS:
                    samples.setdefault((f"redis {test} 1KiB, 50 clients", name), []).append(rows[test])
            finally:
                server.stop()
    for name in VARIANTS:
        for answer in replies[name]:
            if answer != replies["generic"][0]:
                raise SystemExit(f"bench-link: {name} answered differently from generic:\n{answer}")
    result = []
    for test, _ in TESTS:
        case = f"redis {test} 1KiB, 50 clients"
        for name in VARIANTS:
            result.append(benchmark_row(case, name, samples[(case, name)]))
    return result


RPC_VARIANTS = ["generic", "respec"]
RPC_CASE = "Sun RPC UDP: RMIN + ECHO_INTS 100 + ECHO_RECORD"


def measure_rpc(args, rounds, order, calls):
    samples, digests = {}, {}
    for round_index in range(rounds):
        shuffled = RPC_VARIANTS[:]
        order.shuffle(shuffled)
        for name in shuffled:
            print(f"link: rpc round {round_index + 1}/{rounds}: {name}", file=sys.stderr)
            program = os.path.join(args.rpc, f"rpc-udp-calls-{name}")
            out = subprocess.run([program, "100", str(calls)], check=True, capture_output=True,
                                 text=True).stdout.split()
            samples.setdefault(name, []).append(float(out[1]))
            digests.setdefault(name, set()).add(out[3])
    if digests["respec"] != digests["generic"] or len(digests["generic"]) != 1:
        raise SystemExit(f"bench-link: the rpc clients' answers differ: {digests}")
    rows = []
    for name in RPC_VARIANTS:
        ns = samples[name]
        p10, p90 = percentiles(ns)
        rows.append({"case": RPC_CASE, "variant": name, "ns_per_op": statistics.median(ns),
                     "ns_per_op_min": min(ns), "ns_per_op_p10": p10, "ns_per_op_p90": p90,
                     "samples": len(ns)})
    return rows


def rpc_code_sizes(args):
    """Text bytes of both programs, and the library's and its variant's code as
    respec link --explain reported them."""
    figures = {}
    for name in RPC_VARIANTS:
        size = subprocess.run(["size", os.path.join(args.rpc, f"rpc-udp-calls-{name}")],
                              check=True, capture_output=True, text=True).stdout
        figures[f"text_bytes.rpc_program/{name}"] = int(size.splitlines()[1].split()[0])
    with open(os.path.join(args.rpc, "explain.txt")) as explain:
        for line in explain:
            words = line.split()
            if words[:1] == ["code:"]:
                figures["code_bytes.rpc_library"] = int(words[1])
                figures["code_bytes.rpc_library_variant"] = int(words[6])
            elif words[:1] == ["dispatch:"]:
                figures["rpc_dispatch_calls"] = int(words[3])
                figures["rpc_dispatch_made_direct"] = int(words[1])
    return figures


def measure_memory(args, requests, settle_s):
    figures = {}
    for name in VARIANTS:
        print(f"link: redis memory: {name}", file=sys.stderr)
        server = Server(os.path.join(args.redis, BINARY[name]), args.client)
        try:
            server.benchmark(["set"], requests, VALUES)
            _, peak = server.memory_kib()
            server.cli(["flushall"])
            time.sleep(settle_s)
            after, _ = server.memory_kib()
        finally:
            server.stop()
        figures[f"max_rss_kib.redis/{name}"] = peak
        figures[f"rss_after_flush_kib.redis/{name}"] = after
        print(f"redis {name:<8} peak RSS {peak:8d} KiB, {after:8d} KiB {settle_s} s after FLUSHALL")
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", required=True, help="the batch programs' benchmark (bench_link.c)")
    parser.add_argument("--redis", required=True, help="examples/electric's Redis directory")
    parser.add_argument("--client", required=True, help="directory of redis-benchmark, redis-cli")
    parser.add_argument("--rpc", required=True, help="examples/rpc/link's build directory")
    add_run_options(parser)
    args = parser.parse_args()
    for name in VARIANTS:
        path = os.path.join(args.redis, BINARY[name])
        if not os.access(path, os.X_OK):
            raise SystemExit(f"bench-link: no {path}: build electric-redis")

    seed = args.seed if args.seed is not None else random.randrange(2**63)
    report = run_batch(args, seed)
    rounds = args.rounds or (1 if args.quick else 11)
    requests = 20000 if args.quick else 100000
    print(f"link: redis: seed {seed}, {rounds} rounds, {requests} requests per test", file=sys.stderr)
    report["rows"] += measure_server(args, rounds, random.Random(seed), requests)
    report["extra"].update(measure_memory(args, 2 * requests, 2 if args.quick else 12))
    rpc_calls = 50 if args.quick else 500
    report["rows"] += measure_rpc(args, rounds, random.Random(seed + 1), rpc_calls)
    report["extra"].update(rpc_code_sizes(args))
    report["extra"]["rpc_rounds_per_run"] = rpc_calls
    report["extra"].update({"redis_rounds": rounds, "redis_requests_per_test": requests,
                            "redis_clock": "redis-benchmark's requests per second "
                                           "(ns_per_op = 1e9 / rps)"})
    write_report(args.json, report)
    for row in report["rows"]:
        if "requests_per_s" in row:
            print(f"{row['case']:<32} {row['variant']:<8} {row['requests_per_s']:>9.0f} req/s"
                  f"  p50 {row['p50_ms']:.3f} ms  p99 {row['p99_ms']:.3f} ms")


if __name__ == "__main__":
    main()
