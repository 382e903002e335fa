/*
 * respec.h — the spec vocabulary.
 *
 * A *spec* is an ordinary C file that sits beside the generic code it specializes
 * and is compiled with the same headers. Each function marked RESPEC_SPECIALIZE is
 * one specialization: its parameters are the *dynamic* inputs; everything its body
 * builds from literals, const data, addresses of functions and globals, and calls on
 * such data is *static*. Facts about memory that only a dynamic pointer reaches are
 * stated with the predicates below.
 *
 * Compiled by respec (`respec specialize`, which defines __RESPEC_PE__), the marked
 * functions get bodies with the interpretation of static data evaluated away.
 * Compiled by any C compiler without respec, the same file is a correct generic
 * implementation: predicates become run-time checks (or no-ops with
 * -DRESPEC_NO_CHECKS). That generic build is the fallback and the oracle the
 * differential tests compare against.
 *
 * Stability: the names in this header are the public vocabulary; specs written
 * against them keep working.
 */
#ifndef RESPEC_RESPEC_H
#define RESPEC_RESPEC_H

#include <stddef.h>

/* Marks a spec function: respec replaces its body with a specialized one. */
#define RESPEC_SPECIALIZE __attribute__((annotate("respec.specialize"), noinline, used))

#ifdef __RESPEC_PE__

/* Seen by the partial evaluator as calls; never linked. */
void __respec_assume(_Bool holds);
void __respec_static_memory(const volatile void *ptr, size_t nbytes);

#define respec_assume(cond) __respec_assume(!!(cond))
#define respec_static_memory(ptr, nbytes) __respec_static_memory((ptr), (nbytes))

#else /* generic build */

#include <stdio.h>
#include <stdlib.h>

static inline void respec_assume_failed_(const char *cond, const char *file, int line)
{
	fprintf(stderr, "%s:%d: respec predicate violated: %s\n", file, line, cond);
	abort();
}

#ifdef RESPEC_NO_CHECKS
#define respec_assume(cond) ((void)0)
#else
#define respec_assume(cond) \
	((cond) ? (void)0 : respec_assume_failed_(#cond, __FILE__, __LINE__))
#endif
#define respec_static_memory(ptr, nbytes) ((void)(ptr), (void)(nbytes))

#endif /* __RESPEC_PE__ */

/*
 * respec_assume(cond)
 *   States a fact that holds on entry to the point where it is written, e.g.
 *   respec_assume(xdrs->x_op == XDR_ENCODE). A comparison `LOAD == constant` (or
 *   `!=` negated, or a plain truth test) over memory reached through a dynamic
 *   pointer makes that memory cell static with the given value until the
 *   specialized code may write it: a store that may alias it under C's type rules
 *   (a store of a compatible type through another pointer, which could point to
 *   the same object), a memcpy to memory that is not provably elsewhere, or a call
 *   of code respec cannot see that may write memory. Other code is assumed not to
 *   change it meanwhile. To keep a value fixed across such writes, copy it into a
 *   local of the spec (examples/rpc/rpc_spec.c does this for an array's count).
 *   The field may be narrow (char, short), a bit-field (only the bits that decide
 *   the comparison become known), volatile (the access stays and yields the
 *   fact) or reached through a chain of pointers (a->b->c == K). A predicate
 *   respec cannot use is an error; one that is statically false is reported as a
 *   contradiction; one that decides nothing is a warning ("assumption had no
 *   effect", an error with -Werror).
 *
 * respec_static_memory(ptr, nbytes)
 *   Declares that the nbytes at ptr hold their known contents (a global's
 *   initializer at build time, live process memory at run time) and do not change
 *   while specialized code runs: loads from there are evaluated away.
 */

#endif /* RESPEC_RESPEC_H */
