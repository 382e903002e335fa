// The BPF case study, found without being told: respec-pcap (tools/respec-pcap)
// built with the value profiling and libpcap's interpreter (examples/profile),
// filtering a synthetic capture with its interpreter. The filter program, memory
// the interpreter walks through its `pc` parameter and that never changes, must
// rank first: it is what examples/bpf specializes.
//
// REQUIRES: bpf
// RUN: rm -f %t.profile
// RUN: env RESPEC_PROFILE_OUT=%t.profile %pcap-profiled --engine=interp --quiet \
// RUN:   'tcp port 80 and (tcp[tcpflags] & tcp-syn) != 0' %bpf-traces/synthetic-mix.pcap
// RUN: %respec profile report %t.profile --top 3 | FileCheck %s
//
// CHECK: 1. {{(pcap|bpf)}}_filter_with_aux_data: memory behind 'pc' (const struct bpf_insn *) is constant
// CHECK-NEXT: region at {{.*}}bpf_filter.c:{{.*}}; function called 20000 times
// The program is memory the run computed (pcap_compile's), so it is
// specialized at run time, by librespec-jit; a capture of 20000 packets is
// too short to pay for that, and the report says how much longer a run must be:
// CHECK-NEXT: benefit {{[0-9]+}} (reads of unchanging memory, 1 distinct base address(es)) x {{[0-9.]+}} ns (measured on {{(pcap|bpf)}}_filter_with_aux_data) = {{.*}}; cost specializing at run time 1.60 ms + 0 replugs = 1.60 ms; score -{{[0-9.]+}} ms (specializing pays in a run {{[0-9.]+}}x as long)
// The partial evaluator, given the program the run read as a constant, folds
// the interpreter away:
// CHECK-NEXT: measured by the partial evaluator: {{.*}} specializes to [[#]] instructions with memory behind 'pc' {{.*}}, [[#]] without ({{[1-9][0-9]*}} fewer)
// and predicts a speedup from the run's block counts (bench/run profile
// compares it with respec-pcap's measured one):
// CHECK-NEXT: predicted speedup {{[2-9]\.[0-9]}}x: {{[0-9.]+}} IR instructions per call without the facts, {{[0-9.]+}} with them (10 of them the call, {{[0-9.]+}} the mispredictions of the branches they leave); [[#]] fewer over the run
// CHECK-NEXT: Synthetix's estimate for the run: -{{[0-9.]+}} ms = 20000 calls x {{.*}} - specializing 1.60 ms (at run time, on the memory the run computed) - 0 guarded writes, 0 replugs and 0 choices of variant (0 ns); specializing pays for itself after {{[1-9][0-9]+}} calls
