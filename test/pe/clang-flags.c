// Every option respec does not own goes to clang, and an option that takes a
// value takes the next argument with it (-include FILE, -x c, -D NAME, -Xclang
// ARG, -isystem DIR): none of them is mistaken for an input file. Relative
// paths are from the current directory. respec's own -o, -O, -q stay its own.
//
// RUN: cd %S && %respec specialize clang-flags.c -nostdinc -pthread --target=x86_64-linux-gnu \
// RUN:   -x c -std=gnu11 -include Inputs/include/flag-values.h -D FROM_SEPARATE_D=7 \
// RUN:   -U UNDEFINED_HERE -DUNDEFINED_HERE -isystem Inputs/include -Xclang -fno-pch-timestamp \
// RUN:   -Wno-unused-macros -O0 -q --emit-llvm -o - | %FileCheck %s
// RUN: %not %respec specialize %s -fno-such-clang-option -o %t.o 2>&1 | %FileCheck --check-prefix=UNKNOWN %s
//
// CHECK-LABEL: define {{.*}} @facts(
// CHECK: ret i32 1275
// UNKNOWN: clang{{.*}}: error: unknown argument: '-fno-such-clang-option'
// UNKNOWN: clang-flags.c: error: clang rejected this file

#define RESPEC_SPECIALIZE __attribute__((annotate("respec.specialize"), noinline, used))

#if __has_include(<stdio.h>) /* -nostdinc: no system headers */
#define SYSTEM_HEADERS 1
#else
#define SYSTEM_HEADERS 0
#endif
#if defined(__STRICT_ANSI__) || __STDC_VERSION__ != 201112L /* -std=gnu11 */
#define GNU11 0
#else
#define GNU11 1
#endif
#ifdef _REENTRANT /* -pthread */
#define PTHREAD 1
#else
#define PTHREAD 0
#endif
#ifdef UNDEFINED_HERE /* -U, then -D: the order is kept */
#define ORDER_KEPT 1
#else
#define ORDER_KEPT 0
#endif
#include <flag-values.h> /* from -isystem */

RESPEC_SPECIALIZE int facts(void) {
  return 1000 * GNU11 + 200 * PTHREAD + 100 * SYSTEM_HEADERS + 10 * FROM_SEPARATE_D +
         FROM_FORCED_INCLUDE * ORDER_KEPT;
}
