/*
 * jit.h — run-time specialization: the same spec, specialized in-process for
 * static inputs known only when the program runs (a filter compiled from a
 * user's expression, a configuration read at startup).
 *
 * At build time, `respec embed SPEC.c SOURCE.c... -o OUT.o --name NAME` puts the
 * LLVM bitcode of the spec and the generic code into the program (symbols
 * respec_bitcode_NAME and respec_bitcode_NAME_size; declare them with
 * RESPEC_DECLARE_BITCODE(NAME)). At run time, respec_jit_specialize() partially
 * evaluates one RESPEC_SPECIALIZE function of it for the given static arguments
 * — the same partial evaluator as `respec specialize` — compiles the result with
 * LLVM ORC, and returns a function with the *same signature* as the spec
 * function (static parameters are ignored by the specialized code). Results are
 * cached by function and static inputs (values and memory contents).
 *
 * Static memory (RESPEC_ARG_STATIC_MEMORY) is read when specializing: the bytes
 * must not change while the specialized function may be called.
 *
 * Environment: RESPEC_JIT_REPORT=1 prints a line per specialization on stderr
 * (time, the partial evaluator's counts, loops kept residual and why);
 * RESPEC_JIT_DUMP=DIR writes the code of each as it is compiled, LLVM IR in
 * DIR/FUNCTION.N.ll (N counts the compilations of this respec_jit).
 *
 * Thread safety: one respec_jit may be used from several threads; calls are
 * serialized internally. respec_jit_specialize_async() compiles on a background
 * thread and replugs a librespec slot (runtime.h) when done, so callers keep
 * running the generic function meanwhile and never wait for a compile.
 *
 *   RESPEC_DECLARE_BITCODE(filters);
 *   respec_jit *jit = respec_jit_create(respec_bitcode_filters, respec_bitcode_filters_size);
 *   struct respec_arg args[] = {
 *           RESPEC_STATIC_MEMORY(prog.bf_insns, prog.bf_len * sizeof *prog.bf_insns),
 *           RESPEC_DYNAMIC, RESPEC_DYNAMIC, RESPEC_DYNAMIC };
 *   match_fn match = (match_fn)respec_jit_specialize(jit, "match_program", args, 4);
 *   if (!match) fprintf(stderr, "%s\n", respec_jit_error(jit));
 */
#ifndef RESPEC_JIT_H
#define RESPEC_JIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct respec_jit respec_jit;
struct respec_slot;

enum respec_arg_kind {
	RESPEC_ARG_DYNAMIC,       /* known only per call */
	RESPEC_ARG_STATIC_VALUE,  /* an integer or pointer argument, fixed */
	RESPEC_ARG_STATIC_MEMORY, /* a pointer argument, fixed, to `size` bytes of fixed contents */
};

struct respec_arg {
	enum respec_arg_kind kind;
	uint64_t value; /* STATIC_VALUE: the value; STATIC_MEMORY: the address */
	size_t size;    /* STATIC_MEMORY: how many bytes at the address are static */
};

#define RESPEC_DYNAMIC ((struct respec_arg){RESPEC_ARG_DYNAMIC, 0, 0})
#define RESPEC_STATIC_VALUE(v) ((struct respec_arg){RESPEC_ARG_STATIC_VALUE, (uint64_t)(v), 0})
#define RESPEC_STATIC_MEMORY(p, n) \
	((struct respec_arg){RESPEC_ARG_STATIC_MEMORY, (uint64_t)(uintptr_t)(p), (n)})

#define RESPEC_DECLARE_BITCODE(name)                         \
	extern const unsigned char respec_bitcode_##name[]; \
	extern const size_t respec_bitcode_##name##_size

/* Loads embedded bitcode; NULL (with a message on stderr) if it is unusable.
 * The generic code's functions and variables are found in the program by its
 * symbol table (file-static ones in .symtab, told apart by source file; a name
 * the table holds several times, say in two copies of a library, stays
 * unbound, and specialized code cannot use it). */
respec_jit *respec_jit_create(const void *bitcode, size_t size);

/*
 * `respec embed --replaces-sources` also compiles the generic code into OUT.o,
 * for the program to link instead of the sources, with the address of every
 * function and variable it defines (respec_symbols_NAME): specialized code
 * then binds to exactly that copy, in a stripped program or beside other
 * copies of the same library. NULL (with a message) if the table does not
 * match the bitcode.
 *
 *   RESPEC_DECLARE_EMBEDDED_CODE(rpc);
 *   respec_jit *jit = RESPEC_JIT_CREATE_WITH_CODE(rpc);
 */
respec_jit *respec_jit_create_with_symbols(const void *bitcode, size_t size,
					   const void *const *symbols, size_t count);

#define RESPEC_DECLARE_EMBEDDED_CODE(name)                  \
	RESPEC_DECLARE_BITCODE(name);                        \
	extern const void *const respec_symbols_##name[];   \
	extern const size_t respec_symbols_##name##_count
#define RESPEC_JIT_CREATE_WITH_CODE(name)                                             \
	respec_jit_create_with_symbols(respec_bitcode_##name, respec_bitcode_##name##_size, \
				       respec_symbols_##name, respec_symbols_##name##_count)
void respec_jit_destroy(respec_jit *jit);

/* How much specialized code is optimized before it is compiled. LIGHT, the
 * default: stack objects promoted, constants and branches folded, dead code
 * removed — generation time first (packet filters, compiled per filter).
 * FULL: clang's -O2 pipeline (inlining, loop passes, vectorizers), for code
 * compiled once and run long (a client call specialized per handle). */
enum respec_jit_cleanup { RESPEC_JIT_CLEANUP_LIGHT, RESPEC_JIT_CLEANUP_FULL };
void respec_jit_set_cleanup(respec_jit *jit, enum respec_jit_cleanup cleanup);

/* Specializes and compiles now (or returns the cached result). NULL on error;
 * respec_jit_error() says why (unknown function, wrong argument count, a
 * static argument the function cannot use, ...). */
void *respec_jit_specialize(respec_jit *jit, const char *function,
			    const struct respec_arg *args, unsigned nargs);

/* Specializes on a background thread, then respec_replug()s SLOT to the result;
 * returns 0 if the request was queued. The caller keeps static memory alive and
 * unchanged until the slot no longer uses it. */
int respec_jit_specialize_async(respec_jit *jit, const char *function,
				const struct respec_arg *args, unsigned nargs,
				struct respec_slot *slot);

/* Frees specialized code this specializer returned and forgets it (a later
 * request for the same inputs compiles again). The caller guarantees nothing
 * runs or will call the code: e.g. a slot was replugged away from it and
 * respec_replug returned. Returns 0, or -1 (respec_jit_error says why). */
int respec_jit_release(respec_jit *jit, void *code);

/* Waits for every queued asynchronous specialization. */
void respec_jit_wait(respec_jit *jit);

struct respec_jit_stats {
	unsigned specializations; /* compiled */
	unsigned cache_hits;
	double last_ms;           /* wall time of the last specialization + compile */
	double total_ms;
	/* What the last specialization left of the generic code's dispatch (as
	 * respec explain counts them): indirect calls made direct, and loops kept
	 * residual because their control depends on run-time data. (The layout
	 * of this struct may still grow: build against the header you link.) */
	unsigned last_calls_devirtualized;
	unsigned last_loops_kept;
};
void respec_jit_get_stats(respec_jit *jit, struct respec_jit_stats *stats);

/* The calling thread's last error from this library. */
const char *respec_jit_error(respec_jit *jit);

#ifdef __cplusplus
}
#endif

#endif /* RESPEC_JIT_H */
