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

#define RESPEC_CAT2_(a, b) a##b
#define RESPEC_CAT_(a, b) RESPEC_CAT2_(a, b)

#ifdef __RESPEC_PE__

/* Seen by the partial evaluator as calls; never linked. */
void __respec_assume(_Bool holds);
void __respec_static_memory(const volatile void *ptr, size_t nbytes);

#define respec_assume(cond) __respec_assume(!!(cond))
#define respec_static_memory(ptr, nbytes) __respec_static_memory((ptr), (nbytes))

/* A declared fact about an external function: a constant the partial evaluator
 * reads (with the file:line clang records for the annotation). */
struct respec_fact_ {
	void (*function)(void);
	long long first;              /* RESPEC_STABLE_TABLE: first element */
	unsigned long long count;     /* bytes (STABLE) or elements (STABLE_TABLE) */
	unsigned long long element;   /* bytes per element */
	const void *contents;         /* the _AS forms: the contents vouched for */
	unsigned long long contents_size;
	unsigned flags;               /* 1: part of RESPEC_C_LOCALE_CTYPE() */
};
#define RESPEC_FACT_(kind, fn, first, count, element, contents, size, flags)         \
	static const struct respec_fact_ RESPEC_CAT_(respec_fact_, __COUNTER__)        \
		__attribute__((used, annotate("respec." kind))) = {                   \
			(void (*)(void))&(fn), (first), (count), (element), (contents), \
			(size), (flags)}
#define RESPEC_PURE(fn) RESPEC_FACT_("pure", fn, 0, 0, 0, 0, 0, 0)
#define RESPEC_STABLE(fn, nbytes) RESPEC_FACT_("stable", fn, 0, (nbytes), 1, 0, 0, 0)
#define RESPEC_STABLE_AS(fn, contents) \
	RESPEC_FACT_("stable", fn, 0, sizeof(contents), 1, &(contents), sizeof(contents), 0)
#define RESPEC_STABLE_TABLE(fn, first, count) \
	RESPEC_FACT_("stable_table", fn, (first), (count), sizeof(**(fn)()), 0, 0, 0)
#define RESPEC_STABLE_TABLE_AS_(fn, first, contents, flags)                         \
	RESPEC_FACT_("stable_table", fn, (first), sizeof(contents) / sizeof((contents)[0]), \
		     sizeof(**(fn)()), &(contents), sizeof(contents), (flags))

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

#include <string.h>

/* The declarations of external facts: the function must exist; contents vouched
 * for are compared with the real memory once at startup. */
static inline void respec_fact_failed_(const char *what, const char *file, int line)
{
	fprintf(stderr, "%s:%d: respec fact violated: %s: the memory does not hold the "
			"contents vouched for\n", file, line, what);
	abort();
}
#define RESPEC_DECLARED_(fn) extern char respec_declared_fact_[sizeof(&(fn)) != 0]
#ifdef RESPEC_NO_CHECKS
#define RESPEC_CHECK_CONTENTS_(name, what, start, contents) RESPEC_DECLARED_(contents)
#else
#define RESPEC_CHECK_CONTENTS_(name, what, start, contents)                          \
	__attribute__((constructor)) static void name(void)                           \
	{                                                                             \
		if (memcmp((const void *)(start), &(contents), sizeof(contents)) != 0) \
			respec_fact_failed_(what, __FILE__, __LINE__);                \
	}                                                                             \
	RESPEC_DECLARED_(contents)
#endif
#define RESPEC_PURE(fn) RESPEC_DECLARED_(fn)
#define RESPEC_STABLE(fn, nbytes) RESPEC_DECLARED_(fn)
#define RESPEC_STABLE_TABLE(fn, first, count) RESPEC_DECLARED_(fn)
#define RESPEC_STABLE_AS(fn, contents)                                                 \
	RESPEC_CHECK_CONTENTS_(RESPEC_CAT_(respec_check_, __COUNTER__),                \
			       "RESPEC_STABLE_AS(" #fn ")", (fn)(), contents)
#define RESPEC_STABLE_TABLE_AS_(fn, first, contents, flags)                            \
	RESPEC_CHECK_CONTENTS_(RESPEC_CAT_(respec_check_, __COUNTER__),                \
			       "RESPEC_STABLE_TABLE_AS(" #fn ")", *(fn)() + (first), contents)

#endif /* __RESPEC_PE__ */

#define RESPEC_STABLE_TABLE_AS(fn, first, contents) RESPEC_STABLE_TABLE_AS_(fn, first, contents, 0)

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
