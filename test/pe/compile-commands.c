// --compile-commands DIR (-p DIR): each input file is compiled with its own
// flags from DIR/compile_commands.json ("command" shell-split or "arguments",
// response files expanded), relative paths resolved in the entry's directory,
// then the command line's flags; output and dependency-file flags dropped. A
// file the database does not list (the spec) gets the command line's flags only.
// A database respec cannot use is an error that names it.
//
// RUN: rm -rf %t && mkdir -p %t/db %t/elsewhere && cp -r %S/Inputs/cc %t/cc
// RUN: echo '[{"directory": "%t/cc", "file": "lib.c", "command": "/usr/bin/cc -Iinclude -D LIB_OFFSET=3 -include config.h -MD -MF lib.d -c -o lib.o lib.c"},' > %t/db/compile_commands.json
// RUN: echo ' {"directory": "%t/cc", "file": "%t/cc/other.c", "arguments": ["cc", "@other.rsp", "-c", "other.c", "-o", "other.o"]}]' >> %t/db/compile_commands.json
// RUN: cd %t/elsewhere && %respec specialize %s %t/cc/lib.c ../cc/other.c -p ../db -DFROM_COMMAND_LINE=1000 --emit-llvm -o - -q | %FileCheck %s
// RUN: test ! -e %t/cc/lib.d && test ! -e %t/elsewhere/lib.d
//
// RUN: %not %respec specialize %s %t/cc/lib.c --compile-commands %t/missing -o %t/x.o 2>&1 | %FileCheck --check-prefix=MISSING %s
// RUN: mkdir -p %t/bad && echo '[{"directory": 1,, }]' > %t/bad/compile_commands.json
// RUN: %not %respec specialize %s %t/cc/lib.c -p %t/bad -o %t/x.o 2>&1 | %FileCheck --check-prefix=MALFORMED %s
// RUN: echo '{}' > %t/bad/compile_commands.json
// RUN: %not %respec specialize %s %t/cc/lib.c -p %t/bad -o %t/x.o 2>&1 | %FileCheck --check-prefix=NOT-A-DATABASE %s
//
// (40 + 3 + 2) * 10000 + (9 + 1000) * 10 + 1000
// CHECK-LABEL: define {{.*}} @values(
// CHECK: ret i32 461090
// MISSING: missing/compile_commands.json: error: cannot read the compilation database: No such file or directory
// MALFORMED: bad/compile_commands.json:1: error: not valid JSON: {{.+}}
// NOT-A-DATABASE: bad/compile_commands.json: error: not a compilation database (an array of entries)
#include <respec/respec.h>

#ifdef LIB_OFFSET
#error "the spec is not in the database: it gets the command line's flags only"
#endif

int lib_value(void);
int other_value(void);
RESPEC_SPECIALIZE int values(void) {
  return lib_value() * 10000 + other_value() * 10 + FROM_COMMAND_LINE;
}
