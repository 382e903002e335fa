/*
 * jit_host.c — runs one fuzz case with its spec functions specialized at run time
 * (the campaign's --mode jit; harness.py builds the case).
 *
 *   respec-fuzz-jit-host CASE.so [light|full]
 *
 * CASE.so holds the case's driver (its main renamed fuzz_main), the other
 * translation units, and the spec with the sources respec sees, compiled by
 * `respec embed --replaces-sources --name fuzz` beside their bitcode. The driver
 * calls each spec function through a thunk that jumps through a pointer; the case
 * lists the functions, their pointers and their parameter counts in fuzz_functions.
 * This host loads the case, specializes every spec function with librespec-jit —
 * every argument dynamic, or (the campaign picks it per program) the first one
 * static where it is an integer: then the thunk takes the specialized code only
 * for that value and the generic function otherwise; beyond that, what is static
 * is what the spec makes so, and the memory the specialized code stores to
 * itself, in the program's globals (pe/HostMemory.cpp) — with the light clean-up
 * or the full -O2 pipeline
 * (respec_jit_set_cleanup; the campaign picks one per program), points the
 * thunks at the specialized code and runs the driver. What it prints must be
 * what the generic build prints.
 *
 * Exit status: the driver's; 3 when the specializer declines a function (its
 * message on stderr), 2 on a case that does not load. "jit-host: running the
 * driver" on stderr says that every function was specialized.
 */
#include <respec/jit.h>

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the case's fuzz_jit.c defines (harness.py writes it). */
struct fuzz_function {
	const char *name;
	void **target; /* the thunk jumps through it */
	unsigned arity;
	int first_static; /* specialize for first_value; the thunk checks it */
	unsigned long long first_value;
};

static void *find(void *program, const char *symbol)
{
	void *address = dlsym(program, symbol);
	if (!address) {
		fprintf(stderr, "jit-host: the case defines no %s\n", symbol);
		exit(2);
	}
	return address;
}

int main(int argc, char **argv)
{
	bool full = argc == 3 && strcmp(argv[2], "full") == 0;
	if (argc < 2 || argc > 3 || (argc == 3 && !full && strcmp(argv[2], "light") != 0)) {
		fprintf(stderr, "usage: respec-fuzz-jit-host CASE.so [light|full]\n");
		return 2;
	}
	/* RTLD_GLOBAL: the specialized code calls the case's other translation
	 * units, which are not in the bitcode, by name. */
	void *program = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
	if (!program) {
		fprintf(stderr, "jit-host: %s\n", dlerror());
		return 2;
	}
	const unsigned char *bitcode = find(program, "respec_bitcode_fuzz");
	const size_t *bitcode_size = find(program, "respec_bitcode_fuzz_size");
	const void *const *symbols = find(program, "respec_symbols_fuzz");
	const size_t *symbol_count = find(program, "respec_symbols_fuzz_count");
	const struct fuzz_function *functions = find(program, "fuzz_functions");
	const unsigned *function_count = find(program, "fuzz_function_count");
	int (*driver_main)(void) = (int (*)(void))find(program, "fuzz_main");

	respec_jit *jit =
		respec_jit_create_with_symbols(bitcode, *bitcode_size, symbols, *symbol_count);
	if (!jit) /* its message is on stderr: the embedded code does not load */
		return 2;
	respec_jit_set_cleanup(jit, full ? RESPEC_JIT_CLEANUP_FULL : RESPEC_JIT_CLEANUP_LIGHT);
	for (unsigned i = 0; i < *function_count; i++) {
		struct respec_arg args[64];
		if (functions[i].arity > sizeof args / sizeof *args) {
			fprintf(stderr, "jit-host: %s has %u parameters\n", functions[i].name,
				functions[i].arity);
			return 2;
		}
		for (unsigned a = 0; a < functions[i].arity; a++)
			args[a] = RESPEC_DYNAMIC;
		if (functions[i].first_static)
			args[0] = RESPEC_STATIC_VALUE(functions[i].first_value);
		void *code = respec_jit_specialize(jit, functions[i].name, args, functions[i].arity);
		if (!code) {
			fprintf(stderr, "jit-host: error: %s: %s\n", functions[i].name,
				respec_jit_error(jit));
			return 3;
		}
		*functions[i].target = code;
	}
	/* harness.py (JIT_DRIVER_RUNS): a failure from here on is the specialized
	 * code's, not the specializer's. */
	fprintf(stderr, "jit-host: running the driver\n");
	int status = driver_main();
	fflush(stdout);
	respec_jit_destroy(jit);
	return status;
}
