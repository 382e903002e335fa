// --fix writes nothing when the rewritten sources would not compile: here the
// SPID member named by --spid-field exists but is a bit-field, whose address
// RESPEC_GUARDED_STORE cannot take.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/fix-fails.c
// RUN: %not %respec guard %t/fix-fails.c --term 'struct conn::state' --fix \
// RUN:   --spid-field busy 2>&1 | %FileCheck %s
// RUN: cmp %s %t/fix-fails.c
// CHECK: error: address of bit-field requested
// CHECK: error: the rewritten sources do not compile (clang's errors above); no file was changed
struct conn { unsigned busy : 1; int state; };
void set(struct conn *c) { c->state = 1; }
