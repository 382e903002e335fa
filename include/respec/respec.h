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
void __respec_static_variable(const char *name);
void *__respec_variable(const char *name);
int __respec_fact(const char *name);

#define respec_assume(cond) __respec_assume(!!(cond))
#define respec_static_memory(ptr, nbytes) __respec_static_memory((ptr), (nbytes))
#define respec_static_variable(name) __respec_static_variable(name)
#define respec_variable(name) __respec_variable(name)
#define respec_fact(name) __respec_fact(name)

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
#define respec_static_variable(name) ((void)(name))
/* librespec (runtime/symbols.c): from the program's ELF symbol tables, looked
 * up once per use (the address does not change while the program runs). */
void *respec_variable_address(const char *name);
#define respec_variable(name)                                                          \
	__extension__({                                                                \
		static void *respec_variable_cached_;                                  \
		void *respec_variable_ =                                               \
			__atomic_load_n(&respec_variable_cached_, __ATOMIC_RELAXED);   \
		if (!respec_variable_) {                                               \
			respec_variable_ = respec_variable_address(name);              \
			__atomic_store_n(&respec_variable_cached_, respec_variable_,   \
					 __ATOMIC_RELAXED);                            \
		}                                                                      \
		respec_variable_;                                                      \
	})
#define respec_fact(name) ((void)(name), 0)

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
 *   At run time (respec/jit.h) ptr may be any address in the program, such as
 *   a field of a handle the spec was given as a static value; the bytes are
 *   read once, when the code is specialized.
 *
 * respec_static_variable("file.c:name")
 *   respec_static_memory() over the whole of a variable of the generic code,
 *   named by a string: the way to reach a file-static variable of code the
 *   spec cannot otherwise name (`"name"` alone when only one variable has
 *   it). At build time the variable holds its initializer; at run time, its
 *   contents in the program when the code is specialized.
 *
 * respec_variable("file.c:name")
 *   The address of a variable of the generic code, named as for
 *   respec_static_variable(): the way a spec states that a pointer holds the
 *   address of a file-static object it cannot otherwise name, e.g.
 *       respec_assume(xdrs->x_ops == respec_variable("xdr_mem.c:xdrmem_ops"));
 *   A constant variable's contents then fold where the pointer is read
 *   (the operations table's entries become direct calls). In the generic
 *   build it is librespec's respec_variable_address(): the address of the
 *   variable in the running program, from its images' ELF symbol tables
 *   (link with librespec; a stripped program has none, and the call aborts
 *   saying so).
 *
 * respec_fact("NAME")
 *   1 when the fact NAME holds for the client the library is being linked
 *   into, 0 otherwise: `respec link` establishes facts from the client's
 *   symbols and disclosed properties by the library's rules (link/rules.h)
 *   and specializes the library's code with them. Outside `respec link`
 *   (the generic build, `respec specialize`, run time) nothing is known about
 *   the client and it is 0. So a spec writes what a fact makes true as
 *       if (respec_fact("single-threaded"))
 *               respec_assume(counter->locking == 0);
 *   and the generic build is the code for any client.
 */

/*
 * Facts about external functions: code respec is not given (the C library, a
 * system library). Written at file scope in the spec, each names a function
 * declared in scope; every misuse is an error at the declaration's file:line.
 * `respec explain` lists each fact with the lines it decided ("fact: ...");
 * one that decides nothing in any spec function is a warning (an error with
 * -Werror) that says why. In the generic build they check what can be checked.
 *
 * RESPEC_PURE(fn)
 *   Contract: fn has no side effects (it writes no memory, errno included, and
 *   does no I/O), returns for every argument (respec may evaluate it on paths
 *   a run does not take), and its result depends only on its argument values
 *   and on the memory reachable from its pointer arguments — not on their
 *   addresses, except that a pointer result may point into that memory.
 *   Effect: a residual call of fn forgets nothing that is known about memory
 *   and lets nothing escape (if fn returns a pointer, what its arguments reach
 *   escapes: the result may point into it). A call with static arguments over
 *   static memory is evaluated at specialization time when fn is one of these
 *   C library functions, which respec computes itself, by the C standard, on
 *   the target's data layout (so the build machine's C library plays no part;
 *   all are independent of the locale):
 *     strlen strnlen strchr strrchr memchr memrchr rawmemchr strpbrk strstr
 *     strspn strcspn strcmp strncmp memcmp bcmp abs labs llabs ffs ffsl ffsll
 *     htonl htons ntohl ntohs
 *   A pointer result is a pointer into the argument's object (or null). The
 *   standard fixes only the sign of strcmp, strncmp and memcmp and only the
 *   zeroness of bcmp: a nonzero result folds at build time only where every
 *   use tests just that (through returns of unfolded callers), and at run time
 *   respec calls the process's own function on the same bytes. Wherever such
 *   a call stays residual and its value is used beyond that, it is marked so
 *   that LLVM does not fold it either (glibc returns a byte difference where
 *   LLVM would fold to -1 or 1). Other functions are not evaluated (a note
 *   says so); a function respec has the definition of is unfolded as usual.
 *   Declaring pure a C library function known to have effects (memcpy,
 *   strtol, which sets errno, malloc, printf, ...) is an error.
 *
 * RESPEC_STABLE(fn, nbytes)            RESPEC_STABLE_AS(fn, contents)
 *   Contract: fn takes no arguments, has no side effects and returns a
 *   pointer, the same one throughout each call of a specialized function, and
 *   the nbytes at any pointer fn returns never change. Effect: the call is
 *   that pointer and loads from those bytes fold. Not for memory that changes:
 *   errno's location (__errno_location()) is stable in pointer only, and needs
 *   no declaration (glibc declares it const: its calls forget nothing).
 *
 * RESPEC_STABLE_TABLE(fn, first, count)  RESPEC_STABLE_TABLE_AS(fn, first, contents)
 *   Contract: fn takes no arguments, has no side effects and returns a
 *   pointer to a pointer T (fn's result may differ between threads; glibc's
 *   __ctype_b_loc returns a thread-local one); T is the same throughout each
 *   call of a specialized function, and the elements T[first] ...
 *   T[first + count - 1] (of T's element type) never change for a given T.
 *   Effect: T[i] for a static i in that range folds, and the residual code
 *   reads the table through a T fetched once on entry.
 *
 *   Where stable contents come from: at run time (librespec-jit) respec calls
 *   fn in the program's process and reads the memory; at build time only the
 *   _AS forms fold, with the contents the spec vouches for (`contents`: an
 *   object of exactly the stable size, e.g. a const array of count elements).
 *   Checked, not only assumed: a specialized function that folded stable memory
 *   starts with a guard that fetches fn's pointer again and runs the spec's
 *   generic code instead if it is not the pointer read at run-time
 *   specialization, or at build time if the memory there does not hold the
 *   vouched contents (compared once per distinct pointer). What stays assumed:
 *   the memory at a pointer fn returns does not change, and fn returns the
 *   same pointer throughout one specialized call. The generic build compares
 *   vouched contents with the real memory once at startup and aborts with the
 *   declaration's file:line if they differ (-DRESPEC_NO_CHECKS: no check).
 *
 * <respec/libc.h> has RESPEC_C_LOCALE_CTYPE(): glibc's ctype tables vouched
 * for with the "C" locale's contents, so isdigit(c), toupper(c), ... fold.
 */

#endif /* RESPEC_RESPEC_H */
