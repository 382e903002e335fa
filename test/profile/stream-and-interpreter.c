// A stream whose operation and operations table never change, an interpreter
// running one constant program, a cursor that changes on every call, and a
// mode re-stored before every read: the report must rank the first two kinds,
// in that order, and neither of the others.
//
// RUN: rm -rf %t && mkdir -p %t
// The link flags before the source, where builds put LDFLAGS:
// RUN: sh -c '%clang -O2 $(%respec profile --cflags) $(%respec profile --ldflags) %s -o %t/program'
//
// A short run: fewer observations per site than the runtime records exactly
// (1024), so every count is exact.
// RUN: env RESPEC_PROFILE_OUT=%t/profile.txt %t/program 60
// RUN: %respec profile report %t/profile.txt --specs %t/specs --html %t/report.html | FileCheck %s
// RUN: FileCheck %s --check-prefix=HTML < %t/report.html
// RUN: FileCheck %s --check-prefix=SPEC < %t/specs/code_int_spec.c
// The draft specs compile as they are:
// RUN: %respec specialize %t/specs/code_int_spec.c -q -o %t/code_int_spec.o
// RUN: %respec specialize %t/specs/run_spec.c -q -o %t/run_spec.o
// RUN: FileCheck %s --check-prefix=RAW < %t/profile.txt
//
// The function a pointer holds is named by the program's symbol tables:
// CHECK: 1. code_int: s->ops->put == stream-and-interpreter.c:put
// CHECK-NEXT: field at {{.*}}stream-and-interpreter.c:[[#]]; function called 960 times
// Each observation is priced at what the partial evaluator measured the
// function's facts to save (below), in ns:
// CHECK-NEXT: benefit 960 (100.0% of 960) x {{[0-9.]+}} ns (measured on code_int) = {{[0-9]+}} ns; cost 0 writes to ops+0 + 0 changes = 0 ns; score {{[1-9][0-9]*}} ns
// The partial evaluator, on a spec that includes this file and states the
// function's facts: the integer, and the table by the name the program's
// symbol tables gave its address (the put function's address has no variable
// to name it; the table's contents give it):
// CHECK-NEXT: measured by the partial evaluator: code_int specializes to [[#]] instructions with s->op == 0 and s->ops == respec_variable("stream_ops"), [[#]] without
// The run's block counts weighed by what the partial evaluator left residual
// on each line: the test of s->op goes, and the indirect call becomes put's
// body.
// CHECK-NEXT: predicted speedup {{1\.[1-9]|[2-9]\.[0-9]}}x: {{[0-9.]+}} IR instructions per call without the facts, {{[0-9.]+}} with them (10 of them the call, {{[0-9.]+}} the mispredictions of the branches they leave); [[#]] fewer over the run
// and Synthetix's estimate in ns: the facts are the source's, specialized at
// build time, so the run pays only a guard on each fact's one write (s->op's
// and s->ops's).
// CHECK-NEXT: Synthetix's estimate for the run: +{{[0-9]+}} ns = 960 calls x {{[0-9.]+}} IR instructions x 0.25 ns ({{[0-9]+}} ns; the profiled run's CPU time over the instructions it counted: {{[0-9.]+}} ns) - specializing 0 ns (at build time: respec took [[#]] ms here) - 2 guarded writes, 0 replugs and 0 choices of variant (0 ns){{$}}
// CHECK: 2. code_int: s->op == 0
// CHECK-NEXT: field
// CHECK-NEXT: benefit 960 (100.0% of 960) x {{[0-9.]+}} ns (measured on code_int) = {{[0-9]+}} ns; cost 1 writes to stream+0 + 0 changes = 0 ns; score {{[1-9][0-9]*}} ns
// CHECK: 3. code_int: s->ops == respec_variable("stream_ops")
// CHECK: 4. run: memory behind 'pc' (const struct insn *) is constant: reads at offsets 0..40
// CHECK-NEXT: region at
// The program is a variable's memory (its address is program's): known when
// the program is built, so specializing costs the run nothing.
// CHECK-NEXT: benefit 540 (reads of unchanging memory, 1 distinct base address(es)) x {{[0-9.]+}} ns (measured on run) = {{[0-9]+}} ns; cost specializing at build time (a variable's memory) + 0 replugs = 0 ns; score {{[1-9][0-9]*}} ns
// The program, as the run read it, becomes a constant the spec passes:
// CHECK-NEXT: measured by the partial evaluator: run specializes to [[#]] instructions with memory behind 'pc' {{.*}}, [[#]] without ({{[1-9][0-9]*}} fewer)
// Six dispatches per call folded into the four operations they select, plus
// the call itself (--call-cost 10):
// CHECK-NEXT: predicted speedup {{[3-9]\.[0-9]}}x: {{[0-9.]+}} IR instructions per call without the facts, 14.0 with them (10 of them the call, 0.0 the mispredictions of the branches they leave); [[#]] fewer over the run
// A load at an offset from a `void *` has no member to name (this crashed the
// plugin once, on libpcap):
// CHECK: 5. uses_opaque: *(uint32_t *)((char *)context + 4) == 3
// CHECK-NOT: s->left
// CHECK-NOT: s->mode
// CHECK-NOT: . main
//
// The same report as a page: a row per candidate, the figures beside it.
// HTML: <table>
// HTML: <tr><td class="rank">1</td><td><div class="fact">code_int: s-&gt;ops-&gt;put == stream-and-interpreter.c:put</div>
// HTML: <div class="why">benefit 960 (100.0% of 960) x {{[0-9.]+}} ns (measured on code_int) = {{[0-9]+}} ns; cost 0 writes to ops+0 + 0 changes = 0 ns; score {{[0-9]+}} ns</div>
// HTML: <div class="why predicted">predicted speedup
// HTML: <tr><td class="rank">4</td><td><div class="fact">run: memory behind 'pc'
// HTML: </table>
//
// SPEC: What the run saw:
// SPEC: s->ops->put == stream-and-interpreter.c:put: 100.0% of 960 observations, 0 changes, 0 writes to ops+0 (not stated: a function, which the table it is read from gives)
// SPEC: s->op == 0: 100.0% of 960 observations, 0 changes, 1 writes to stream+0
// SPEC: respec specialize {{.*}}code_int_spec.c {{.*}}-o code_int_spec.o
// The facts' terms are written in the run (s->op and s->ops, once each): how
// to keep them true with librespec, in code_int's names.
// SPEC: At run time, with librespec
// SPEC: respec_predicate_add_slot(p, &slot, RESPEC_FN(code_int_specialized));
// SPEC: respec_predicate_watch(p, &s->spid);
// SPEC: RESPEC_CALL(&slot, int (*)(struct stream *, int32_t *), s, v)
// SPEC: #include "{{.*}}stream-and-interpreter.c"
// SPEC: RESPEC_SPECIALIZE int code_int_specialized(struct stream * s, int32_t * v)
// SPEC-NEXT: {
// SPEC-NEXT: respec_assume(s->op == 0);
// SPEC-NEXT: respec_assume(s->ops == respec_variable("stream_ops"));
// SPEC-NEXT: respec_static_variable("stream_ops");
// SPEC-NEXT: return code_int(s, v);
//
// The raw profile: the program's six instructions, no offset read two values;
// the mode, always 1, is written as often as it is read (no candidate).
// RAW-DAG: region run {{.*}}stream-and-interpreter.c:[[#]] pc insn+0 const struct insn * 360 1 6:0:360:0:0:40
// RAW-DAG: write main {{.*}}stream-and-interpreter.c:[[#]] stream+28 60
// RAW-DAG: field uses_mode {{.*}} s->mode stream+28 int 60 0 1:60:0
//
// A first, cheap profile (calls only) names the functions to record values in:
// RUN: sh -c 'RESPEC_PROFILE_MODE=calls %clang -O2 $(%respec profile --cflags) $(%respec profile --ldflags) %s -o %t/calls-only'
// RUN: env RESPEC_PROFILE_OUT=%t/calls.txt %t/calls-only 60
// RUN: %respec profile report %t/calls.txt --top 2 | FileCheck %s --check-prefix=CALLS
// CALLS: No value was recorded (a calls-only profile). The most called functions:
// CALLS-NEXT: code_int: 960 calls
// CALLS-NEXT: put: 960 calls
// CALLS-NEXT: Rebuild with RESPEC_PROFILE_FUNCTIONS=code_int,put in clang's environment to record values in them only.
//
// A long run: past its first 1024 observations a site records about one in 64,
// weighted. The same facts lead, with estimated counts; calls and writes are
// still counted exactly, so the mode is still written as often as it is read
// (not a quasi-invariant: each write would replug).
// RUN: env RESPEC_PROFILE_OUT=%t/long.txt %t/program 20000
// RUN: %respec profile report %t/long.txt --top 3 | FileCheck %s --check-prefix=LONG
// RUN: FileCheck %s --check-prefix=LONG-RAW < %t/long.txt
// LONG-DAG: code_int: s->ops->put == stream-and-interpreter.c:put
// LONG-DAG: code_int: s->op == 0
// LONG-DAG: code_int: s->ops == respec_variable("stream_ops")
// LONG-DAG: function called 320000 times
// LONG-RAW-DAG: call code_int {{.*}} 320000
// LONG-RAW-DAG: write main {{.*}}stream-and-interpreter.c:[[#]] stream+28 20000
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct stream;
enum op { ENCODE, DECODE };
struct ops { int (*put)(struct stream *, int32_t); };
struct stream {
  enum op op;
  const struct ops *ops;
  unsigned char *cur;
  unsigned left;
  int mode;
};
struct insn { uint16_t code; int32_t k; };

static int put(struct stream *s, int32_t v) {
  if (s->left < 4)
    return 0;
  for (int i = 0; i < 4; i++)
    *s->cur++ = (unsigned char)(v >> (24 - 8 * i));
  s->left -= 4;
  return 1;
}
static const struct ops stream_ops = {put};

__attribute__((noinline)) int code_int(struct stream *s, int32_t *v) {
  if (s->op == ENCODE)
    return s->ops->put(s, *v);
  return 0;
}

__attribute__((noinline)) int uses_mode(struct stream *s) { return s->mode * 3; }

__attribute__((noinline)) int uses_opaque(const void *context) {
  return *(const int32_t *)((const char *)context + 4);
}

__attribute__((noinline)) int32_t run(const struct insn *pc, int32_t x) {
  int32_t acc = 0;
  for (;; pc++) {
    switch (pc->code) {
    case 0: return acc;
    case 1: acc += pc->k; break;
    case 2: acc *= x; break;
    case 3: acc ^= pc->k; break;
    }
  }
}

static const struct insn program[] = {{1, 3}, {2, 0}, {3, 7}, {2, 0}, {1, 1}, {0, 0}};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  unsigned char buf[64];
  struct stream s = {ENCODE, &stream_ops, buf, sizeof buf, 1};
  int64_t total = 0;
  for (int i = 0; i < n; i++) {
    s.cur = buf;
    s.left = sizeof buf;
    for (int32_t j = 0; j < 16; j++)
      total += code_int(&s, &j);
    s.mode = 1;
    total += uses_mode(&s);
    total += run(program, i);
    total += uses_opaque(program);
  }
  printf("%lld\n", (long long)total);
  return 0;
}
