// Static variables of the generic sources have one instance in the program.
// With --replaces-sources the object is linked instead of the generic source:
// it defines new_id and new_ticket itself (with the only `next` and `counter`),
// so the program's calls and the specialized ones count together. A static the
// generic code never writes may be copied: `triple` links beside the source.
// (Without the option, the first two are errors: errors/copied-static.c.)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s %S/Inputs/ids.c --function take --function take_ticket --replaces-sources -o %t/replaces.o -q
// RUN: llvm-nm %t/replaces.o | %FileCheck --check-prefix=REPLACES %s
// RUN: %clang -O2 -I%inc -DMAIN_REPLACES %s %t/replaces.o -o %t/specialized
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN_REPLACES %s %t/generic.o %S/Inputs/ids.c -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %FileCheck --check-prefix=OUT %s < %t/specialized.out
//
// RUN: %respec specialize %s %S/Inputs/ids.c --function triple -o %t/beside.o -q
// RUN: %clang -O2 -I%inc -DMAIN_BESIDE %s %t/beside.o %S/Inputs/ids.c -o %t/beside
// RUN: %clang -O2 -I%inc -DMAIN_BESIDE %s %t/generic.o %S/Inputs/ids.c -o %t/beside-generic
// RUN: %t/beside > %t/beside.out
// RUN: %t/beside-generic > %t/beside-generic.out
// RUN: diff %t/beside.out %t/beside-generic.out
//
// REPLACES-DAG: T new_id
// REPLACES-DAG: T new_ticket
// REPLACES-DAG: b next
// REPLACES-DAG: d new_ticket.counter
// REPLACES-DAG: T take
// REPLACES-DAG: T take_ticket
// OUT: take 3
// OUT: take_ticket 130
#include <respec/respec.h>
#include <stdio.h>

unsigned new_id(void);
unsigned new_ticket(void);
unsigned scaled(unsigned x);

#if defined(MAIN_REPLACES)
unsigned take(void);
unsigned take_ticket(void);
int main(void) {
  new_id();
  new_id();
  printf("take %u\n", take());
  new_ticket();
  new_ticket();
  printf("take_ticket %u\n", take_ticket());
  return 0;
}
#elif defined(MAIN_BESIDE)
unsigned triple(unsigned x);
int main(void) {
  for (unsigned x = 0; x < 5; x++)
    printf("%u %u\n", x, triple(x));
  return 0;
}
#else
RESPEC_SPECIALIZE unsigned take(void) { return new_id(); }
RESPEC_SPECIALIZE unsigned take_ticket(void) { return new_ticket(); }
RESPEC_SPECIALIZE unsigned triple(unsigned x) { return scaled(x); }
#endif
