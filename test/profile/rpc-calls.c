// The Sun RPC case study, found without being told: rpc-calls (examples/rpc) with
// the generic client stack built with the value profiling, making ECHO_INTS calls
// of 20 ints over loopback UDP to the real rpc-server it starts. What the case
// study specializes — the XDR stream's operation and its operations table — must
// rank in the top 3: the operation as a quasi-invariant of each stream (encode,
// decode, free: one per stream, read far more often than written), the table as
// one value.
//
// REQUIRES: rpc
// RUN: rm -f %t.profile
// RUN: env RESPEC_PROFILE_OUT=%t.profile %rpc-calls-profiled profiled udp 20 500
// RUN: %respec profile report %t.profile --top 3 | FileCheck %s
//
// CHECK-DAG: XDR+0 (xdrs->x_op) is a quasi-invariant of each object: 3 values ({{[0-2]}}: {{.*}}, {{[0-2]}}: {{.*}}, {{[0-2]}}: {{.*}})
// CHECK-DAG: xdrs->x_ops == 0x{{[0-9a-f]+}}
