// --fix on a struct written on one line: the SPID member goes just before the
// first term, on the same line (nothing before it on the line is repeated).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/fix-one-line-struct.c
// RUN: %respec guard %t/fix-one-line-struct.c --term 'struct pair::second' --fix \
// RUN:   | %FileCheck --check-prefix=REPORT %s
// RUN: %FileCheck --check-prefix=FIXED %s < %t/fix-one-line-struct.c
// RUN: %clang -fsyntax-only -Werror -I%inc %t/fix-one-line-struct.c
struct pair { int first; int second; };
void set(struct pair *p) { p->second = 2; }
// REPORT: fix-one-line-struct.c:9:28: store: struct pair::second: 'p->second = 2' [rewritten]
// FIXED: {{^}}struct pair { int first; respec_spid spid; /* respec guard --fix: armed while a predicate covers this object */ int second; };{{$}}
// FIXED: RESPEC_GUARDED_STORE(p->spid, p->second, 2);
