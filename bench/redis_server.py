"""A Redis server on loopback for the benchmarks that measure one (bench/layout,
bench/link), driven by Redis's own client programs, and the helpers they share with
the harness's conventions (../shared/BENCHMARKS.md): percentiles as the harness
reports them, the machine line, pinning, writing the results file."""
import csv
import io
import json
import os
import socket
import statistics
import subprocess
import time


# What every server variant must answer identically (a reply that differs aborts the
# benchmark).
CHECK_SCRIPT = """SET greeting hello
GET greeting
INCR counter
INCRBY counter 41
LPUSH list a b c
LRANGE list 0 -1
LPOP list
HSET hash f1 v1 f2 v2
HGETALL hash
SADD set x y z x
SCARD set
MSET k1 1 k2 2
MGET k1 k2 missing
DEL greeting
EXISTS greeting
"""


def percentiles(values):
    """The 10th and 90th percentiles (nearest rank), as the harness reports them."""
    ordered = sorted(values)
    rank = lambda q: ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]
    return rank(0.1), rank(0.9)


def benchmark_row(case, variant, rows):
    """A results row from redis-benchmark's CSV rows of one case and variant, one per
    round: ns per request (1e9 / requests per second), medians and percentiles."""
    ns = [1e9 / float(r["rps"]) for r in rows]
    p10, p90 = percentiles(ns)
    return {"case": case, "variant": variant, "ns_per_op": statistics.median(ns),
            "ns_per_op_min": min(ns), "ns_per_op_p10": p10, "ns_per_op_p90": p90,
            "samples": len(ns), "requests_per_s": 1e9 / statistics.median(ns),
            "p50_ms": statistics.median(float(r["p50_latency_ms"]) for r in rows),
            "p99_ms": statistics.median(float(r["p99_latency_ms"]) for r in rows)}


def machine():
    model = "unknown CPU"
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return f"{model}, {os.cpu_count()} cores, Linux {os.uname().release}"


def add_run_options(parser):
    """The options every benchmark takes (bench/run passes them): --quick, --rounds,
    --seed, --json."""
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--json", required=True)


def write_report(path, report):
    """The results file, whole or not at all."""
    with open(path + ".partial", "w") as out:
        json.dump(report, out, indent=2)
        out.write("\n")
    os.replace(path + ".partial", path)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pinned(cpu, argv):
    if os.cpu_count() >= 2:
        return ["taskset", "-c", str(cpu)] + argv
    return argv


class Server:
    """A server program on a free loopback port, no persistence, on CPU 0 (its client
    on CPU 1). `wrapper` runs it under another program (valgrind)."""

    def __init__(self, binary, client, wrapper=()):
        self.client = client
        self.port = free_port()
        argv = list(wrapper) + [binary, "--port", str(self.port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no", "--daemonize", "no"]
        # taskset execs the server: the process's pid is the server's.
        self.process = subprocess.Popen(pinned(0, argv), stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        for _ in range(400 if wrapper else 100):
            if self.cli(["ping"], check=False).strip() == "PONG":
                return
            time.sleep(0.05)
        self.process.kill()
        self.process.wait()
        raise SystemExit(f"redis_server: {binary} did not start")

    def cli(self, args, stdin=None, check=True):
        result = subprocess.run([os.path.join(self.client, "redis-cli"), "-p", str(self.port)]
                                + args, input=stdin, capture_output=True, text=True)
        if check and result.returncode != 0:
            raise SystemExit(f"redis_server: redis-cli {args}: {result.stderr}")
        return result.stdout

    def benchmark(self, tests, requests, extra):
        """redis-benchmark's CSV rows by test name, 50 clients."""
        argv = [os.path.join(self.client, "redis-benchmark"), "-p", str(self.port), "--csv",
                "-c", "50", "-n", str(requests), "-t", ",".join(tests)] + extra
        out = subprocess.run(pinned(1, argv), capture_output=True, text=True, check=True).stdout
        return {row["test"]: row for row in csv.DictReader(io.StringIO(out))}

    def memory_kib(self):
        """The server's resident set now and at its peak (VmRSS, VmHWM), KiB."""
        figures = {}
        for line in open(f"/proc/{self.process.pid}/status"):
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                figures[key] = int(value.split()[0])
        return figures["VmRSS"], figures["VmHWM"]

    def stop(self):
        self.cli(["shutdown", "nosave"], check=False)
        try:
            self.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise SystemExit("redis_server: the server did not shut down")
