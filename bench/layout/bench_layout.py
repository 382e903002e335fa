#!/usr/bin/env python3
"""bench-layout — programs laid out by respec layout: Redis, and the Sun RPC case study.

  bench-layout --variants DIR --builds DIR --client DIR --rpc-calls PROGRAM
               --rpc-server PROGRAM --rpc-layout DIR [--quick] [--rounds N] [--seed N]
               --json FILE

The variants are the programs `respec layout --pgo` made of Debian's Redis 7.0.15
(examples/redis, target redis-layout): o2 (clang -O2 with Debian's flags, as Debian
builds it), bolt-ORDER for each function order, pgo (clang instrumented PGO) and
pgo+bolt-ORDER. The layout was trained on one request mix (examples/redis/workload
train: INCR, RPUSH/RPOP, SADD, HSET, MSET); this measures another: PING, SET, GET,
LPUSH, LPOP, each with 50 clients not pipelined (request/response) and pipelined by 16.

Each round starts every variant's server once, in a new random order (seeded), and runs
redis-benchmark for every case against it; server on CPU 0, client on CPU 1. Before any
figure counts, each server answers a fixed script of commands (redis-cli) and its
replies must equal o2's. The figures: requests per second (the row's ns_per_op is its
inverse), p50 and p99 latency, medians over the rounds. Then, where wall time is too
noisy to decide, valgrind's cachegrind on the server for a fixed request sequence:
instructions, L1 instruction-cache misses and mispredicted branches (full runs).

The Sun RPC case study (examples/rpc, target rpc-layout): ECHO_INTS round trips of 20
and 1000 ints over UDP and TCP loopback, one client process (rpc-calls) and its server
(rpc-server), as generic (both generic stacks), respec (both specialized stacks) and
respec+layout (the specialized stacks in the client and server that respec layout laid
out, trained on the same round trips), client and server on one CPU. rpc-calls times
its calls and digests the echoes; the digests of a case must agree across variants.
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from redis_server import (CHECK_SCRIPT, Server, add_run_options,  # noqa: E402
                          benchmark_row, machine, percentiles, pinned, write_report)

CASES = [("PING_MBULK", "ping"), ("SET", "set"), ("GET", "get"), ("LPUSH", "lpush"),
         ("LPOP", "lpop")]
MODES = [("50 clients", []), ("50 clients, pipeline 16", ["-P", "16"])]


def cachegrind(binary, client, requests, directory):
    """Instructions, I1 misses and mispredicted branches of the server for a fixed
    sequence of requests (one client, not pipelined: the same work in every run)."""
    out = os.path.join(directory, "cachegrind." + os.path.basename(binary))
    # Valgrind 3.19 cannot read clang 16's DWARF 5 (it gives up on the program): the
    # figures need no debug information, so the server runs without it.
    stripped = os.path.join(directory, "stripped." + os.path.basename(binary))
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    server = Server(stripped, client, ["valgrind", "--tool=cachegrind", "--cache-sim=yes",
                                     "--branch-sim=yes", "--cachegrind-out-file=" + out])
    subprocess.run([os.path.join(client, "redis-benchmark"), "-p", str(server.port), "-c", "1",
                    "-n", str(requests), "-t", "set,get,lpush,lpop", "-q"],
                   capture_output=True, check=True)
    server.stop()
    events, totals = None, None
    for line in open(out):
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("summary:"):
            totals = [int(x) for x in line.split()[1:]]
    figures = dict(zip(events, totals))
    return {"instructions": figures["Ir"], "i1_misses": figures["I1mr"],
            "mispredicted_branches": figures["Bcm"] + figures["Bim"]}


RPC_CASES = [("udp", 20, 20000), ("tcp", 20, 20000), ("udp", 1000, 5000), ("tcp", 1000, 5000)]


def rpc_variants(args):
    """name -> (stack, client program, server program)"""
    return {"generic": ("generic", args.rpc_calls, args.rpc_server),
            "respec": ("respec", args.rpc_calls, args.rpc_server),
            "respec+layout": ("respec", os.path.join(args.rpc_layout, "rpc-calls.layout"),
                              os.path.join(args.rpc_layout, "rpc-server.layout"))}


def measure_rpc(args, rounds, order, quick):
    """Rows of the RPC round trips: ns per call, the median over the rounds."""
    variants = rpc_variants(args)
    for name, (_, calls, server) in variants.items():
        for path in (calls, server):
            if not os.access(path, os.X_OK):
                raise SystemExit(f"bench-layout: no {path} for {name}: build rpc-layout")
    samples, digests = {}, {}
    for round_index in range(rounds):
        runs = [(case, name) for case in RPC_CASES for name in variants]
        order.shuffle(runs)
        print(f"layout: rpc round {round_index + 1}/{rounds}", file=sys.stderr)
        for (transport, count, calls), name in runs:
            stack, client, server = variants[name]
            calls = calls // 10 if quick else calls
            # Client and server on one CPU (the server inherits it), as bench-rpc's
            # round trips: a wakeup across this VM's CPUs costs more than the call.
            out = subprocess.run(pinned(1, [client, stack, transport, str(count),
                                            str(calls), server]),
                                 capture_output=True, text=True, check=True).stdout.split()
            case = f"rpc roundtrip-{transport}-{count}"
            samples.setdefault((case, name), []).append(float(out[1]))
            digests.setdefault(case, {}).setdefault(out[3], []).append(name)
    for case, by_digest in digests.items():
        if len(by_digest) != 1:
            raise SystemExit(f"bench-layout: {case}: the variants' echoes differ: {by_digest}")
    rows = []
    for transport, count, _ in RPC_CASES:
        case = f"rpc roundtrip-{transport}-{count}"
        for name in variants:
            ns = samples[(case, name)]
            p10, p90 = percentiles(ns)
            rows.append({"case": case, "variant": name, "ns_per_op": statistics.median(ns),
                         "ns_per_op_min": min(ns), "ns_per_op_p10": p10,
                         "ns_per_op_p90": p90, "samples": len(ns)})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", required=True, help="respec layout's work/variants dir")
    parser.add_argument("--builds", required=True, help="respec layout's work dir")
    parser.add_argument("--client", required=True, help="directory of redis-benchmark, redis-cli")
    parser.add_argument("--rpc-calls", required=True, help="the rpc-calls program")
    parser.add_argument("--rpc-server", required=True, help="the rpc-server program")
    parser.add_argument("--rpc-layout", required=True, help="rpc-layout's output directory")
    add_run_options(parser)
    args = parser.parse_args()

    names = ["o2", "bolt-hfsort+", "bolt-hfsort", "bolt-pettis-hansen", "pgo",
             "pgo+bolt-hfsort+", "pgo+bolt-hfsort", "pgo+bolt-pettis-hansen"]
    binaries = {"o2": os.path.join(args.builds, "o2/tree/src/redis-server"),
                "pgo": os.path.join(args.builds, "pgo/tree/src/redis-server")}
    for name in names:
        binaries.setdefault(name, os.path.join(args.variants, name))
    for name, path in binaries.items():
        if not os.access(path, os.X_OK):
            raise SystemExit(f"bench-layout: no variant {name} at {path}: build redis-layout")
    # A server's throughput here is bimodal from one start to the next (about 88k or
    # 103k requests/s for the same program): enough rounds for the median to say which
    # mode a variant usually runs in, and p10/p90 to show both.
    rounds = args.rounds or (1 if args.quick else 11)
    requests = 20000 if args.quick else 100000
    seed = args.seed if args.seed is not None else random.randrange(2**63)
    print(f"layout: seed {seed}, {rounds} rounds, {requests} requests per case", file=sys.stderr)
    order = random.Random(seed)

    samples = {}  # (case, variant) -> list of csv rows
    for round_index in range(rounds):
        shuffled = names[:]
        order.shuffle(shuffled)
        for name in shuffled:
            print(f"layout: round {round_index + 1}/{rounds}: {name}", file=sys.stderr)
            server = Server(binaries[name], args.client)
            try:
                replies = server.cli([], stdin=CHECK_SCRIPT)
                samples.setdefault(("check", name), []).append(replies)
                for mode, extra in MODES:
                    n = requests * (8 if extra else 1)
                    rows = server.benchmark([t for _, t in CASES], n, extra)
                    for test, _ in CASES:
                        samples.setdefault((f"{test}, {mode}", name), []).append(rows[test])
            finally:
                server.stop()
    for name in names:
        for replies in samples[("check", name)]:
            if replies != samples[("check", "o2")][0]:
                raise SystemExit(f"bench-layout: {name} answered differently from o2:\n{replies}")

    result_rows = []
    for mode, _ in MODES:
        for test, _ in CASES:
            case = f"{test}, {mode}"
            for name in names:
                result_rows.append(benchmark_row(case, name, samples[(case, name)]))

    result_rows += measure_rpc(args, rounds, order, args.quick)

    extra = {"rounds": rounds, "requests_per_case": requests, "seed": str(seed),
             "clock": "redis-benchmark's requests per second (ns_per_op = 1e9 / rps)"}
    if not args.quick:
        with tempfile.TemporaryDirectory() as directory:
            for name in ["o2", "bolt-hfsort+", "pgo", "pgo+bolt-hfsort+"]:
                print(f"layout: cachegrind {name}", file=sys.stderr)
                for key, value in cachegrind(binaries[name], args.client, 5000,
                                             directory).items():
                    extra[f"{key}.{name}"] = value
    report = {"benchmark": "layout", "machine": machine(), "quick": args.quick,
              "rows": result_rows, "extra": extra}
    write_report(args.json, report)
    for row in result_rows:
        if "requests_per_s" in row:
            print(f"{row['case']:<32} {row['variant']:<24} {row['requests_per_s']:>12.0f} req/s"
                  f"  p50 {row['p50_ms']:.3f} ms  p99 {row['p99_ms']:.3f} ms")
        else:
            print(f"{row['case']:<32} {row['variant']:<24} {row['ns_per_op']:>12.0f} ns per call")


if __name__ == "__main__":
    main()
