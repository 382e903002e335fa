// -p reads each source's flags from compile_commands.json: every listed file is
// searched, or only the files named. The struct is declared in a header found
// only through the database's -I, with a -D the source needs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import json; print(json.dumps([{'directory': '%inputs', 'file': 'db_a.c', 'command': 'cc -Idb_include -DFIELD=state -c db_a.c -o db_a.o'}, {'directory': '%inputs', 'arguments': ['cc', '-Idb_include', '-DFIELD=state', '-c', 'db_b.c'], 'file': '%inputs/db_b.c'}]))" > %t/compile_commands.json
// RUN: %respec guard -p %t --term 'struct job::state' | %FileCheck --check-prefix=ALL %s
// ALL: db_a.c:3:{{[0-9]+}}: store: struct job::state
// ALL: db_b.c:3:{{[0-9]+}}: increment: struct job::state
// ALL: summary: 2 writes
// RUN: %respec guard -p %t --term 'struct job::state' %inputs/db_b.c | %FileCheck --check-prefix=ONE %s
// ONE-NOT: db_a.c
// ONE: db_b.c:3:{{[0-9]+}}: increment: struct job::state
// ONE: summary: 1 writes
