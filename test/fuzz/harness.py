"""Builds and compares one generated program: the generic build against respec's.

A case is a directory holding
    spec.c     the spec (RESPEC_SPECIALIZE functions), given to respec
    driver.c   main(): calls the spec functions on its inputs and prints results
    other *.c  generic translation units linked into both builds; given to respec
               too when case.json lists them in respec_sources (lib.c), else not (ext.c)
    case.json  what the above are and the flags they take (written by write_case)

check() runs, in order:
  1. generic build (clang -O1) and run: a run over the time limit skips the program;
  2. when the case asks for it, the generic build under ASan+UBSan at -O0: it must
     run clean and print the same (a program with undefined behaviour proves
     nothing: for a generator that promises none, it is a generator bug);
  3. respec specialize spec.c: over 60 s is a runaway, a signal is a crash, an
     error exit is a decline (its reason kept), success gives spec.respec.o;
  4. the driver and the other sources linked with spec.respec.o instead of
     spec.c, run, and the output compared with the generic one; in the run-time
     mode (case.json "mode": "jit"), steps 3 and 4 are build_jit_case's: respec
     embed, the case as a shared object, and respec-fuzz-jit-host running it;
  5. on a mismatch, for a case whose generator does not promise C's type rules
     (Csmith: a union member written through a pointer of one type and read
     through a pointer of another), whether the generic build itself depends on
     them: when its -O2 or -O3 build prints otherwise than -O1 and the same
     builds with -fno-strict-aliasing do not, the program's meaning is not the
     source's (TBAA makes the access undefined; respec's residual code, which
     keeps the source's type tags and lets LLVM see further, exposes it as
     -O2 does), and the whole check runs again with -fno-strict-aliasing on
     both sides: a mismatch there is respec's.
Everything is recorded in commands.sh in the case directory, so a kept case can be
rebuilt by hand.
"""

import collections
import json
import os
import re
import shlex
import signal
import subprocess
import tempfile
import time

SANITIZE = ["-O0", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer"]
# Warnings that mean a (reduced) program reads what it never wrote or lost a type.
# The first four hold for Csmith's programs too.
STRICT_WARNINGS = ["-Werror=uninitialized", "-Werror=sometimes-uninitialized",
                   "-Werror=return-type", "-Werror=format",
                   "-Werror=implicit-function-declaration", "-Werror=int-conversion",
                   "-Werror=incompatible-pointer-types"]


class Tools:
    def __init__(self, respec, clang, include_dir, jit_host=None):
        self.respec = respec
        self.clang = clang
        self.include_dir = include_dir
        self.jit_host = jit_host  # respec-fuzz-jit-host, for cases of the run-time mode


class Limits:
    def __init__(self, generic_seconds=1.0, respec_seconds=60.0, respec_gb=8.0,
                 specialized_seconds=10.0):
        self.generic_seconds = generic_seconds
        self.respec_seconds = respec_seconds
        self.respec_bytes = respec_gb * 2**30
        self.specialized_seconds = specialized_seconds


class Outcome:
    """status: pass | mismatch | crash | runaway | declined | skipped."""
    FAILURES = ("mismatch", "crash", "runaway")

    def __init__(self, status, detail="", reason="", respec_seconds=None, respec_peak=0):
        self.status = status
        self.respec_peak = respec_peak  # bytes resident at the most
        self.detail = detail  # one line for the report
        self.reason = reason  # the category counted in the summary
        self.respec_seconds = respec_seconds

    @property
    def failed(self):
        return self.status in self.FAILURES


def write_case(directory, spec, driver, others=(), respec_sources=(), cflags=(),
               ub_check="always", description=""):
    """Writes case.json; the sources are already in `directory`. `others` are linked
    into both builds; those of them in `respec_sources` are also given to respec."""
    meta = {"spec": spec, "driver": driver, "others": list(others),
            "respec_sources": list(respec_sources),
            "cflags": list(cflags), "ub_check": ub_check, "description": description}
    with open(os.path.join(directory, "case.json"), "w") as f:
        json.dump(meta, f, indent=1)
    return meta


def run(cmd, cwd, timeout, log=None, max_rss=None):
    """Runs cmd in its own process group; kills that group on timeout, or when the
    process's resident memory passes max_rss bytes. Returns (returncode, stdout,
    stderr, seconds, peak resident bytes); returncode is None when killed."""
    if log is not None:
        log.append(" ".join(map(shlex.quote, cmd)))
    start = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, start_new_session=True)
        peak = 0
        killed = False
        while True:
            try:
                proc.wait(timeout=0.1)
                break
            except subprocess.TimeoutExpired:
                pass
            peak = max(peak, resident_bytes(proc.pid))
            if time.monotonic() - start > timeout or (max_rss and peak > max_rss):
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                killed = True
                break
        out.seek(0)
        err.seek(0)
        return (None if killed else proc.returncode, out.read().decode(errors="replace"),
                err.read().decode(errors="replace"), time.monotonic() - start, peak)


def resident_bytes(pid):
    try:
        with open("/proc/%d/statm" % pid) as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def wait_for(path, seconds=600):
    """The respec binary is missing for a moment while it is relinked: wait for it."""
    deadline = time.monotonic() + seconds
    while not os.access(path, os.X_OK) and time.monotonic() < deadline:
        time.sleep(2)


def decline_reason(stderr):
    """The first respec error, with positions, numbers and names taken out, so that
    declines of the same kind count together."""
    for line in stderr.splitlines():
        m = re.search(r"error: (.*)", line)
        if m:
            text = m.group(1)
            text = re.sub(r"'[^']*'", "'…'", text)
            text = re.sub(r"\d+", "N", text)
            return text.split(";")[0][:100]
    lines = [l for l in stderr.splitlines() if l.strip()]
    return (lines[-1][:90] if lines else "no message")


def differing_calls(generic, specialized):
    """Names of the functions whose calls print differently, for drivers that start
    each call's report with `name(` at the beginning of a line (the alias driver)."""
    def calls(text):
        blocks = collections.defaultdict(list)
        name = None
        for line in text.splitlines():
            m = re.match(r"^(\w+)\(", line)
            if m:
                name = m.group(1)
            blocks[name].append(line)
        return blocks
    g, s = calls(generic), calls(specialized)
    return sorted((n for n in set(g) | set(s) if n and g.get(n) != s.get(n)),
                  key=lambda n: (len(n), n))


def first_difference(generic, specialized):
    g, s = generic.splitlines(), specialized.splitlines()
    for n in range(max(len(g), len(s))):
        a = g[n] if n < len(g) else "<missing>"
        b = s[n] if n < len(s) else "<missing>"
        if a != b:
            return "line %d: generic '%s', respec '%s'" % (n + 1, a[:120], b[:120])
    return "same lines"


def check(directory, meta, tools, limits):
    log = ["#!/bin/sh", "# How this case was built and run by test/fuzz/campaign.",
           'cd "$(dirname "$0")"', "set -x"]
    try:
        return _check(directory, meta, tools, limits, log)
    finally:
        with open(os.path.join(directory, "commands.sh"), "w") as f:
            f.write("\n".join(log) + "\n")


def _check(d, meta, tools, limits, log):
    cc = [tools.clang, "-w", "-I" + tools.include_dir] + meta["cflags"]
    sources = [meta["spec"]] + meta["others"] + [meta["driver"]]

    rc, _, err, _, _ = run(cc + ["-O1"] + sources + ["-o", "generic"], d, 120, log)
    if rc != 0:
        return Outcome("skipped", "generic build failed: " + err.strip()[-300:],
                       "generic build failed")
    rc, generic_out, err, _, _ = run(["./generic"], d, limits.generic_seconds, log)
    if rc is None:
        return Outcome("skipped", "generic run > %g s" % limits.generic_seconds,
                       "generic run > %g s" % limits.generic_seconds)
    if rc != 0:
        return Outcome("skipped", "generic run failed (%s): %s" % (rc, err.strip()[-300:]),
                       "generic run failed")
    write(d, "generic.out", generic_out)

    if meta["ub_check"] == "always":  # a generated program promises no warnings either
        strict = [c for c in cc if c != "-w"] + STRICT_WARNINGS
        ub = sanitizer_check(d, strict, sources, generic_out, limits, log)
        if ub:
            return Outcome("skipped", "generator bug: " + ub, "undefined behaviour")

    at_run_time = meta.get("mode") == "jit"
    if at_run_time:
        failed, respec_secs, peak = build_jit_case(d, meta, tools, limits, log)
        if failed:
            return failed
        specialized = [tools.jit_host, "./case.so", meta.get("jit_cleanup") or "light"]
        run_seconds = limits.respec_seconds + limits.specialized_seconds
    else:
        failed, respec_secs, peak = specialize_ahead(d, meta, tools, limits, log)
        if failed:
            return failed
        specialized, run_seconds = ["./specialized"], limits.specialized_seconds
    rc, spec_out, err, _, _ = run(specialized, d, run_seconds, log,
                                  limits.respec_bytes if at_run_time else None)
    write(d, "specialized.out", spec_out)
    if at_run_time and rc != 0 and JIT_DRIVER_RUNS not in err:
        write(d, "respec.err", err)  # the host stopped while specializing
        if rc is None:
            what = "the run-time specializer ran > %g s or grew past %.0f GB" % (
                run_seconds, limits.respec_bytes / 2**30)
            return Outcome("runaway", what, what, respec_secs, peak)
        reason = decline_reason(err)
        if rc == 3:
            return Outcome("declined", reason, reason, respec_secs, peak)
        return Outcome("crash", "the run-time specializer failed (%s): %s" % (rc, reason),
                       "crash", respec_secs, peak)
    if rc is None:
        # Slow residual code, or a long loop that the -O1 generic build folds away
        # (Csmith writes those): the -O0 generic build tells which.
        rc, _, _, _, _ = run(cc + ["-O0"] + sources + ["-o", "generic-O0"], d, 120, log)
        rc, _, _, secs, _ = run(["./generic-O0"], d, limits.specialized_seconds, log)
        if rc is None:
            return Outcome("skipped", "generic -O0 run > %g s" % limits.specialized_seconds,
                           "generic -O0 run > %g s" % limits.specialized_seconds,
                           respec_secs, peak)
        what = "specialized run > %g s (generic -O0: %.1f s)" % (limits.specialized_seconds,
                                                                secs)
    elif rc != 0:
        what = "specialized run failed (%s) after %d lines" % (rc, len(spec_out.splitlines()))
    elif spec_out != generic_out:
        what = first_difference(generic_out, spec_out)
        names = differing_calls(generic_out, spec_out)
        if names:
            what = "%s differ; first at %s" % (" ".join(names), what)
    else:
        return Outcome("pass", respec_seconds=respec_secs, respec_peak=peak)
    if meta["ub_check"] == "on-mismatch":
        ub = sanitizer_check(d, cc, sources, generic_out, limits, log)
        if ub:
            return Outcome("skipped", "undefined behaviour on these inputs: " + ub,
                           "undefined behaviour", respec_secs, peak)
        if NO_TYPE_RULES not in meta["cflags"] and \
                breaks_type_rules(d, cc, sources, generic_out, limits, log):
            # case.json (written from meta) then says how the kept files were made,
            # and test/fuzz/reduce keeps the flag.
            meta["cflags"] = meta["cflags"] + [NO_TYPE_RULES]
            log.append("# the generic build depends on C's type rules: everything again "
                       "with " + NO_TYPE_RULES)
            outcome = _check(d, meta, tools, limits, log)
            outcome.detail += " (with %s: the generic build's output depends on C's " \
                "type rules)" % NO_TYPE_RULES
            if outcome.status == "pass":
                outcome.reason = "with %s" % NO_TYPE_RULES
            outcome.respec_seconds = max(outcome.respec_seconds or 0, respec_secs)
            outcome.respec_peak = max(outcome.respec_peak, peak)
            return outcome
    return Outcome("mismatch", what, "output differs", respec_secs, peak)


def run_respec(d, command, tools, limits, log):
    """Runs a respec command under the limits, its messages kept in respec.err:
    (failed outcome or None, its seconds, its peak memory)."""
    wait_for(tools.respec)
    rc, _, err, respec_secs, peak = run(command, d, limits.respec_seconds, log,
                                        limits.respec_bytes)
    write(d, "respec.err", err)
    return respec_failure(rc, err, respec_secs, peak, limits), respec_secs, peak


def respec_failure(rc, err, respec_secs, peak, limits):
    """The outcome of a respec command that did not succeed, or None when it did."""
    if rc is None:
        if respec_secs > limits.respec_seconds:
            what = "respec ran > %g s" % limits.respec_seconds
        else:
            what = "respec used > %.0f GB after %.0f s" % (limits.respec_bytes / 2**30,
                                                          respec_secs)
        return Outcome("runaway", what, what.split(" after")[0], respec_secs, peak)
    if rc < 0 or "Sanitizer" in err or "Assertion" in err or "PLEASE submit" in err:
        return Outcome("crash", "respec crashed (%s): %s" % (rc, decline_reason(err)),
                       "crash", respec_secs, peak)
    if rc != 0:
        reason = decline_reason(err)
        return Outcome("declined", reason, reason, respec_secs, peak)
    return None


def specialize_ahead(d, meta, tools, limits, log):
    """respec specialize, and the program linked with its object in place of the
    spec: (failed outcome or None, respec's seconds, its peak memory)."""
    respec = [tools.respec, "specialize", meta["spec"]] + meta.get("respec_sources", []) \
        + ["-I" + tools.include_dir, "-w"] \
        + meta["cflags"] + meta.get("respec_options", []) + ["-o", "spec.respec.o", "-q"]
    failed, respec_secs, peak = run_respec(d, respec, tools, limits, log)
    if failed:
        return failed, respec_secs, peak
    rc, _, err, _, _ = run([tools.clang, "-w"] + meta["others"] + [meta["driver"], "spec.respec.o"]
                        + ["-o", "specialized"], d, 120, log)
    if rc != 0:
        return (Outcome("mismatch", "respec's object does not link: " + err.strip()[-300:],
                        "link error", respec_secs, peak), respec_secs, peak)
    return None, respec_secs, peak


# The spec functions, as respec finds them: RESPEC_SPECIALIZE, a return type, the
# name and the parameter list (the generators write no function-pointer parameters).
SPEC_FUNCTION = re.compile(r"RESPEC_SPECIALIZE\s[^;{()]*?\b(\w+)\s*\(([^()]*)\)\s*\{")


def spec_functions(spec_text):
    """[(name, named parameter count, first parameter's type)] of the spec's
    RESPEC_SPECIALIZE functions."""
    functions = []
    for name, params in SPEC_FUNCTION.findall(spec_text):
        named = [p.strip() for p in params.split(",") if p.strip() not in ("", "void", "...")]
        first_type = re.sub(r"\s*\b\w+$", "", named[0]) if named else None
        functions.append((name, len(named), first_type))
    return functions


# Integer parameter types a thunk can compare in a register: the comparison's width.
# The x86-64 callers clang builds extend 8- and 16-bit arguments to 32 bits.
REGISTER_COMPARE = dict([(t, "cmpl $%d, %%edi") for t in (
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int", "unsigned")]
    + [(t, "cmpq $%d, %%rdi") for t in ("int64_t", "uint64_t")])


def first_static_value(first_type, static_first):
    """The value a spec function is specialized for in its first argument, or None:
    `static_first` where the first parameter is an integer a thunk can compare."""
    return static_first if first_type in REGISTER_COMPARE else None


def jit_thunk(name, first_type, static_value):
    """The driver's way into spec function `name` in the run-time mode: a jump
    through fuzz_target_NAME, which the host points at the specialized code. With
    a static first argument the specialized code is only for that value, so the
    thunk compares the argument and takes the generic function otherwise."""
    head = "\t.text\n\t.globl fuzz_thunk_%s\n\t.type fuzz_thunk_%s, @function\nfuzz_thunk_%s:\n" % (
        name, name, name)
    if static_value is not None:
        head += "\t%s\n\tjne %s@PLT\n" % (REGISTER_COMPARE[first_type] % static_value, name)
    return head + "\tjmp *fuzz_target_%s(%%rip)\n" % name


# What respec-fuzz-jit-host prints on stderr once every spec function is specialized.
JIT_DRIVER_RUNS = "jit-host: running the driver"


def build_jit_case(d, meta, tools, limits, log):
    """The run-time mode: case.so for respec-fuzz-jit-host (jit_host.c), which
    specializes every spec function with librespec-jit, all arguments dynamic,
    before it runs the driver. The spec and the sources respec sees come from
    `respec embed --replaces-sources`; the driver reaches each spec function
    through a thunk, `jmp *fuzz_target_NAME`, which the host points at the
    specialized code. Returns (failed outcome or None, respec's seconds, peak)."""
    cflags = ["-I" + tools.include_dir, "-w", "-fPIC"] + meta["cflags"]
    embed = [tools.respec, "embed", meta["spec"]] + meta.get("respec_sources", []) + cflags \
        + ["--replaces-sources", "--name", "fuzz", "-o", "spec.embedded.o", "-q"]
    failed, respec_secs, peak = run_respec(d, embed, tools, limits, log)
    if failed:
        return failed, respec_secs, peak
    with open(os.path.join(d, meta["spec"])) as f:
        functions = spec_functions(f.read())
    static_values = [first_static_value(t, meta.get("jit_static_first")) for _, _, t in functions]
    write(d, "fuzz_jit.c", "\n".join(
        ["/* The spec functions, for respec-fuzz-jit-host: written by harness.py. */",
         "struct fuzz_function {", "\tconst char *name;", "\tvoid **target;",
         "\tunsigned arity;", "\tint first_static;", "\tunsigned long long first_value;", "};"]
        + ["__attribute__((visibility(\"hidden\"))) void *fuzz_target_%s;" % n
           for n, _, _ in functions]
        + ["const struct fuzz_function fuzz_functions[] = {"]
        + ["\t{\"%s\", &fuzz_target_%s, %d, %d, %dull}," % (
            n, n, a, v is not None, v or 0) for (n, a, _), v in zip(functions, static_values)]
        + ["};", "const unsigned fuzz_function_count = %d;" % len(functions)]) + "\n")
    write(d, "fuzz_thunks.s", "".join(jit_thunk(n, t, v)
                                      for (n, _, t), v in zip(functions, static_values))
          + "\t.section .note.GNU-stack,\"\",@progbits\n")
    objcopy = os.path.join(os.path.dirname(tools.clang), "llvm-objcopy")
    not_embedded = [o for o in meta["others"] if o not in meta.get("respec_sources", [])]
    steps = [[tools.clang, "-c", "-Dmain=fuzz_main"] + cflags + [meta["driver"], "-o", "driver.o"],
             [objcopy] + ["--redefine-sym=%s=fuzz_thunk_%s" % (n, n) for n, _, _ in functions]
             + ["driver.o"],
             [tools.clang, "-shared"] + cflags + not_embedded
             + ["driver.o", "spec.embedded.o", "fuzz_jit.c", "fuzz_thunks.s", "-o", "case.so"]]
    for step in steps:
        rc, _, err, _, _ = run(step, d, 120, log)
        if rc != 0:
            return (Outcome("mismatch", "the run-time case does not build: " + err.strip()[-300:],
                            "link error", respec_secs, peak), respec_secs, peak)
    return None, respec_secs, peak


NO_TYPE_RULES = "-fno-strict-aliasing"


def breaks_type_rules(d, cc, sources, generic_out, limits, log):
    """Whether the generic build prints otherwise at -O2 or -O3 than at -O1, and
    does not once type-based alias analysis is off."""
    def output(flags, name):
        rc, _, _, _, _ = run(cc + flags + sources + ["-o", name], d, 120, log)
        if rc != 0:
            return None
        rc, out, _, _, _ = run(["./" + name], d, limits.specialized_seconds, log)
        return out if rc == 0 else None

    for level in ("-O2", "-O3"):
        if output([level], "generic" + level) != generic_out:
            return output([level, NO_TYPE_RULES], "generic" + level + "-no-tbaa") == generic_out
    return False


def sanitizer_check(d, cc, sources, generic_out, limits, log):
    """None when the -O0 ASan+UBSan build runs clean and prints what -O1 printed."""
    rc, _, err, _, _ = run(cc + SANITIZE + sources + ["-o", "generic-san"], d, 120, log)
    if rc != 0:
        return "sanitizer build failed: " + err.strip()[-300:]
    rc, out, err, _, _ = run(["./generic-san"], d, 20 * limits.generic_seconds + 10, log)
    if rc is None:
        return None  # slow, which says nothing about undefined behaviour
    if rc != 0:
        summary = [l for l in err.splitlines() if "runtime error" in l or "ERROR:" in l]
        return "sanitized run failed (%s): %s" % (rc, (summary or [err.strip()[-200:]])[0])
    if out != generic_out:
        return "-O0 and -O1 differ: " + first_difference(generic_out, out)
    return None


def write(d, name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)
