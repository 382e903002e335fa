// Bad input: file:line errors, exit status 1 (2 for a bad command line), and
// with -o no report left behind.
// RUN: %not %respec guard %s --term 'struct nosuch::f' 2>&1 | %FileCheck --check-prefix=STRUCT %s
// STRUCT: error: term 'struct nosuch::f': no struct, union or typedef named 'struct nosuch' in the analyzed sources
// RUN: %not %respec guard %s --term 'struct conn::sate' 2>&1 | %FileCheck --check-prefix=FIELD %s
// FIELD: error: term 'struct conn::sate': struct conn ({{.*}}errors.c:[[@LINE+7]]) has no field 'sate'; its fields: state, fd{{$}}
// RUN: %not %respec guard %s --term nosuch 2>&1 | %FileCheck --check-prefix=GLOBAL %s
// GLOBAL: error: term 'nosuch': no global variable named 'nosuch'
// RUN: %not %respec guard %s --term reset 2>&1 | %FileCheck --check-prefix=FUNCTION %s
// FUNCTION: error: term 'reset': 'reset' is a function ({{.*}}errors.c:[[@LINE+4]]), not a global variable
// RUN: %not %respec guard %s --term 'struct conn::' 2>&1 | %FileCheck --check-prefix=SYNTAX %s
// SYNTAX: --term: error: 'struct conn::' is not a term: write 'struct TAG::FIELD', 'TYPEDEF::FIELD' or 'GLOBAL_VARIABLE'
struct conn { int state; int fd; };
void reset(struct conn *c) { c->state = 0; }
// RUN: rm -rf %t && mkdir -p %t
// RUN: %not %respec guard -p %t --term 'struct conn::state' 2>&1 | %FileCheck --check-prefix=NODB %s
// NODB: {{.*}}compile_commands.json: error: cannot read the compilation database: No such file or directory
// RUN: echo '[{"directory": "%t", "file": "x.c",' > %t/compile_commands.json
// RUN: %not %respec guard -p %t --term 'struct conn::state' 2>&1 | %FileCheck --check-prefix=BADDB %s
// BADDB: compile_commands.json:2: error: not valid JSON
// RUN: %not %respec guard %s --term 'struct conn::state' -o %t/report.txt -DBROKEN 2>&1 \
// RUN:   | %FileCheck --check-prefix=CLANG %s
// RUN: test ! -e %t/report.txt
// CLANG: errors.c:[[@LINE+3]]:2: error: this source does not compile
// CLANG: error: clang cannot compile the sources
#ifdef BROKEN
#error this source does not compile
#endif
// RUN: %not %respec guard %s 2>&1 | %FileCheck --check-prefix=USAGE %s
// USAGE: respec guard: error: no term: name one with --term, or a spec with --spec
// RUN: %respec guard --help | %FileCheck --check-prefix=HELP %s
// HELP: examples:
// HELP: respec guard -p build --term 'struct cu_data::cu_total' --term 'CLIENT::cl_auth'
