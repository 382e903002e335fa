// Passing an object that holds terms to code outside the analyzed sources: a
// function no analyzed file defines, or an indirect call. Calls of functions the
// sources define (here helper, in this file; lib_init, in Inputs/lib.c when that
// file is analyzed too) are not warned.
// RUN: %respec guard %s --term 'struct client::auth' | %FileCheck %s
// RUN: %respec guard %s %inputs/lib.c --term 'struct client::auth' \
// RUN:   | %FileCheck --check-prefix=BOTH %s
struct client { void *auth; };
struct ops { void (*destroy)(struct client *); };
void lib_init(struct client *c);
static void helper(struct client *c) { (void)c; }

void use(struct client *c, const struct ops *ops)
{
	helper(c);
	// CHECK: alias-external.c:[[@LINE+2]]:11: alias-external: struct client: the object is passed to 'lib_init', which is defined in none of the analyzed sources: 'c'
	// BOTH-NOT: 'lib_init'
	lib_init(c);
	// CHECK: alias-external.c:[[@LINE+2]]:15: alias-external: struct client: the object is passed to an indirect call, whose target may be outside the analyzed sources: 'c'
	// BOTH: alias-external.c:[[@LINE+1]]:15: alias-external: struct client: the object is passed to an indirect call
	ops->destroy(c);
}
// CHECK-NOT: alias-external.c
// CHECK: by kind:{{.*}} alias-external 2
// BOTH: by kind:{{.*}} alias-external 1
