// The Sun RPC case study, found without being told: rpc-calls (examples/rpc) with
// the generic client stack built with the value profiling, making ECHO_INTS calls
// of 20 ints over loopback UDP to the real rpc-server it starts. What the case
// study specializes — the XDR stream's operation and its operations table — must
// rank in the top 3: the operation as a quasi-invariant of each stream (encode,
// decode, free: one per stream, read far more often than written), the table as
// one value.
//
// The table is a file-static variable of xdr_mem.c: the profile names it from
// the program's symbol tables (a "variable" record), so the fact is stated with
// respec_variable() and measured by the partial evaluator with xdr_mem.c beside
// the measuring spec; the run wrote no struct xdr_ops, so the table's contents
// are stated static too, and the indirect calls through it fold. The stream's
// operation, a quasi-invariant of each stream, is measured as a variant per
// value (the free variant folds to `return TRUE`), and the prediction weighs
// each line by the variants that reach it.
//
// REQUIRES: rpc
// RUN: rm -rf %t.profile %t.profile2 %t.specs
// RUN: env RESPEC_PROFILE_OUT=%t.profile %rpc-calls-profiled profiled udp 20 500
// RUN: %respec profile report %t.profile --top 3 --measure 3 --specs %t.specs > %t.report
// RUN: FileCheck %s < %t.report
// RUN: FileCheck %s --check-prefix=ENTRY < %t.report
// RUN: FileCheck %s --check-prefix=RAW < %t.profile
// A second run has its own addresses (ASLR); the two profiles' pointers to
// xdrmem_ops merge by its name,
// RUN: env RESPEC_PROFILE_OUT=%t.profile2 %rpc-calls-profiled profiled udp 20 300
// (the table's x_putlong and x_getlong entries are read about as often, so
// either can rank third: the fourth is listed too)
// RUN: %respec profile report %t.profile %t.profile2 --top 4 --measure 0 | FileCheck %s --check-prefix=MERGED
// MERGED: xdr_int: xdrs->x_ops == respec_variable("xdr_mem.c:xdrmem_ops")
// MERGED-NEXT: function called 48000 times
// MERGED-NEXT: benefit {{[0-9]+}} (100.0% of {{[0-9]+}})
// and so do the functions its entries hold, named too (not split into a
// quasi-invariant of two addresses):
// MERGED: xdr_int: xdrs->x_ops->x_getlong == xdr_mem.c:xdrmem_getlong
// RUN: FileCheck %s --check-prefix=DRAFT < %t.specs/xdr_int_spec.c
//
// CHECK-DAG: XDR+0 (xdrs->x_op) is a quasi-invariant of each object: 3 values ({{[0-2]}}: {{.*}}, {{[0-2]}}: {{.*}}, {{[0-2]}}: {{.*}})
// CHECK-DAG: xdr_int: xdrs->x_ops == respec_variable("xdr_mem.c:xdrmem_ops")
//
// ENTRY: xdr_int: xdrs->x_ops == respec_variable("xdr_mem.c:xdrmem_ops")
// ENTRY-NEXT: field at
// ENTRY-NEXT: benefit
// ENTRY-NEXT: measured by the partial evaluator: xdr_int specializes to {{[0-9]+}}, {{[0-9]+}}, 1 instructions with xdrs->x_ops == respec_variable("xdr_mem.c:xdrmem_ops") and xdrs->x_op == 0 ({{[0-9.]+}}%), 1 ({{[0-9.]+}}%), 2 ({{[0-9.]+}}%): a variant per value of XDR+0, a quasi-invariant of each object; {{[0-9]+}} without
// ENTRY-NEXT: predicted speedup {{1\.[1-9]|[2-9]\.[0-9]}}x: {{[0-9.]+}} IR instructions per call without the facts
//
// RAW: variable {{[0-9a-f]+}} xdr_mem.c xdrmem_ops 0{{[[:space:]]+}}1{{$}}
//
// DRAFT: xdrs->x_op takes 3 values, each object keeping its own
// DRAFT: respec specialize {{.*}}/xdr_int_spec.c {{.*}}/xdr_mem.c {{.*}} --replaces-sources -o xdr_int_spec.o
// The guards the facts need, as respec guard finds them in the program's sources:
// DRAFT: Every statement of the program's sources that may break these facts
// DRAFT: {{[0-9]+}} writes and {{[0-9]+}} frees need a guard
// DRAFT: clnt_udp.c:[[#]]:[[#]]: store: struct XDR::x_op: 'xdrs->x_op = XDR_ENCODE'
// DRAFT: xdr_mem.c:[[#]]:[[#]]: store: struct XDR::x_ops: 'xdrs->x_ops = &xdrmem_ops'
// and how to keep the quasi-invariant true with librespec, in xdr_int's names:
// a slot per stream holding the variant for its operation, a predicate on the
// term, guarded stores at the writes above.
// DRAFT: At run time, with librespec
// DRAFT: case 0: return RESPEC_FN(xdr_int_specialized_x_op_0);
// DRAFT: case 2: return RESPEC_FN(xdr_int_specialized_x_op_2);
// DRAFT: return xdr_int_variant(((XDR *)object)->x_op);
// DRAFT: respec_predicate_create("XDR+0");
// DRAFT: respec_predicate_watch(p, &xdrs->spid);
// DRAFT: RESPEC_CALL(&slot, bool_t (*)(XDR *, int *), xdrs, ip)
// DRAFT: RESPEC_SPECIALIZE bool_t xdr_int_specialized(XDR * xdrs, int * ip)
// DRAFT: respec_assume(xdrs->x_ops == respec_variable("xdr_mem.c:xdrmem_ops"));
// DRAFT-NEXT: respec_static_variable("xdr_mem.c:xdrmem_ops");
// DRAFT-NEXT: return xdr_int(xdrs, ip);
// DRAFT: RESPEC_SPECIALIZE bool_t xdr_int_specialized_x_op_0(XDR * xdrs, int * ip)
// DRAFT: respec_assume(xdrs->x_op == 0);
// DRAFT: RESPEC_SPECIALIZE bool_t xdr_int_specialized_x_op_1(XDR * xdrs, int * ip)
// DRAFT: respec_assume(xdrs->x_op == 1);
// DRAFT: RESPEC_SPECIALIZE bool_t xdr_int_specialized_x_op_2(XDR * xdrs, int * ip)
// DRAFT: respec_assume(xdrs->x_op == 2);
// The draft compiles as it is, with the command it gives:
// RUN: sh -c "cd %t.specs && %respec specialize $(sed -n 's|^ \*   respec specialize||p' %t.specs/xdr_int_spec.c) -q"
