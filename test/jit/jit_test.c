/*
 * jit_test.c — tests of run-time specialization (respec/jit.h) on the example
 * interpreter: specialized code computes what the generic interpreter computes
 * on random inputs; results are cached by static *contents*, not addresses;
 * static integer arguments are bound; specialized code shares the program's
 * globals, file-static ones included, and calls its functions; inline assembly is assembled; released
 * code is forgotten; an asynchronous request replugs a librespec slot while
 * other threads call through it and never see a wrong result; misuse fails
 * with a message; RESPEC_JIT_DUMP writes what was compiled.
 */
#include "vm.h"

#include <respec/jit.h>
#include <respec/runtime.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

RESPEC_DECLARE_BITCODE(jit_test);

typedef int32_t (*run_fn)(const struct insn *, const int32_t *, size_t);
typedef int32_t (*affine_fn)(int32_t, int32_t, int32_t);

int32_t run_program(const struct insn *program, const int32_t *input, size_t n);

#include "check.h"
#include "dump.h"

/* Sum of input[0..count) with negative words subtracted twice: a loop with a
 * static trip count and a data-dependent branch. `count` is patched per test. */
static struct insn program[] = {
	{VM_LOADI, 0, 0, 0},   /* r0 = i */
	{VM_LOADI, 1, 0, 8},   /* r1 = count */
	{VM_LOADI, 2, 0, 0},   /* r2 = sum */
	{VM_LOADI, 6, 0, 0},   /* r6 = 0 */
	{VM_LOADIN, 4, 0, 0},  /* 4: r4 = input[i] */
	{VM_ADD, 2, 4, 0},     /* sum += w */
	{VM_JLT, 6, 4, 8},     /* if 0 < w goto 8 */
	{VM_SUB, 2, 4, 0},     /* sum -= w (twice in all for w <= 0) */
	{VM_ADDI, 0, 0, 1},    /* 8: i++ */
	{VM_JLT, 0, 1, 4},     /* if i < count goto 4 */
	{VM_RET, 2, 0, 0},
};

static unsigned long compare_on_random_inputs(run_fn specialized, unsigned seed)
{
	int32_t input[16];
	unsigned long faults = 0;
	srand(seed);
	for (int i = 0; i < 20000; i++) {
		size_t n = (size_t)(rand() % 17);
		for (size_t j = 0; j < n; j++)
			input[j] = rand() - RAND_MAX / 2;
		int32_t expected = vm_run(program, input, n);
		int32_t got = specialized(NULL, input, n);
		faults += expected == VM_FAULT;
		if (got != expected) {
			CHECK(0, "seed %u input %d (n=%zu): specialized %d, generic %d", seed, i, n,
			      got, expected);
			return faults;
		}
	}
	return faults;
}

static struct respec_arg program_args(void)
{
	return RESPEC_STATIC_MEMORY(program, sizeof program);
}

static void test_equivalence_and_cache(respec_jit *jit)
{
	struct respec_arg args[] = {program_args(), RESPEC_DYNAMIC, RESPEC_DYNAMIC};
	run_fn eight = (run_fn)respec_jit_specialize(jit, "run_program", args, 3);
	CHECK(eight, "specialize: %s", respec_jit_error(jit));
	if (!eight)
		return;
	unsigned long faults = compare_on_random_inputs(eight, 1);
	CHECK(faults > 1000 && faults < 19000, "both outcomes exercised (%lu faults)", faults);

	CHECK(respec_jit_specialize(jit, "run_program", args, 3) == (void *)eight,
	      "same static contents: cached code");
	program[1].imm = 5; /* same address, new contents: new code */
	run_fn five = (run_fn)respec_jit_specialize(jit, "run_program", args, 3);
	CHECK(five && five != eight, "new contents: new specialization");
	if (five)
		compare_on_random_inputs(five, 2);
	program[1].imm = 8;
	CHECK(respec_jit_specialize(jit, "run_program", args, 3) == (void *)eight,
	      "old contents again: the first code, from the cache");

	struct respec_jit_stats stats;
	respec_jit_get_stats(jit, &stats);
	CHECK(stats.specializations == 2 && stats.cache_hits == 2,
	      "stats: %u specializations, %u cache hits", stats.specializations,
	      stats.cache_hits);
	CHECK(stats.last_ms > 0 && stats.total_ms >= stats.last_ms, "generation time measured");
	printf("run_program: 2 specializations, %.2f ms in all\n", stats.total_ms);
}

static void test_static_values(respec_jit *jit)
{
	struct respec_arg args[] = {RESPEC_DYNAMIC, RESPEC_STATIC_VALUE(-3), RESPEC_STATIC_VALUE(7)};
	affine_fn f = (affine_fn)respec_jit_specialize(jit, "affine", args, 3);
	CHECK(f, "specialize affine: %s", respec_jit_error(jit));
	for (int32_t x = -1000; f && x <= 1000; x += 13)
		CHECK(f(x, 0, 0) == x * -3 + 7, "affine(%d) = %d", x, f(x, 0, 0));
}

struct dumped_definitions {
	int defines;
	int misnamed; /* lines of a file not named affine.N.ll */
};

static void count_definitions(const char *name, const char *line, void *context)
{
	struct dumped_definitions *d = context;
	d->defines += strncmp(line, "define ", 7) == 0;
	d->misnamed += strncmp(name, "affine.", 7) != 0 || !strstr(name, ".ll");
}

/* RESPEC_JIT_DUMP=DIR: each compiled specialization's IR in DIR/FUNCTION.N.ll. */
static void test_dump(respec_jit *jit)
{
	char directory[] = "/tmp/respec-jit-dump.XXXXXX";
	CHECK(mkdtemp(directory), "mkdtemp");
	setenv("RESPEC_JIT_DUMP", directory, 1);
	struct respec_arg args[] = {RESPEC_DYNAMIC, RESPEC_STATIC_VALUE(5), RESPEC_STATIC_VALUE(-2)};
	affine_fn f = (affine_fn)respec_jit_specialize(jit, "affine", args, 3);
	unsetenv("RESPEC_JIT_DUMP");
	CHECK(f && f(10, 0, 0) == 48, "specialize affine for the dump: %s", respec_jit_error(jit));
	struct dumped_definitions d = {0, 0};
	int dumped = read_dump(directory, count_definitions, &d);
	CHECK(d.misnamed == 0 && d.defines == 1, "dumped: %d definitions, %d lines in a file not "
						"named affine.N.ll", d.defines, d.misnamed);
	CHECK(dumped == 1, "%d files dumped, 1 expected", dumped);
}

static void test_errors(respec_jit *jit)
{
	struct respec_arg args[] = {program_args(), RESPEC_DYNAMIC, RESPEC_DYNAMIC};
	CHECK(!respec_jit_specialize(jit, "no_such_function", args, 3) &&
		      strstr(respec_jit_error(jit), "no function 'no_such_function'"),
	      "unknown function: %s", respec_jit_error(jit));
	CHECK(!respec_jit_specialize(jit, "run_program", args, 2) &&
		      strstr(respec_jit_error(jit), "takes 3 arguments, 2 given"),
	      "argument count: %s", respec_jit_error(jit));
	struct respec_arg not_a_pointer[] = {RESPEC_STATIC_MEMORY(program, 8), RESPEC_DYNAMIC,
					     RESPEC_DYNAMIC};
	CHECK(!respec_jit_specialize(jit, "affine", not_a_pointer, 3) &&
		      strstr(respec_jit_error(jit), "is not a pointer"),
	      "static memory for an integer: %s", respec_jit_error(jit));
}

typedef int32_t (*weigh_fn)(int32_t, int32_t, int32_t);
int32_t weigh(int32_t x, int32_t which, int32_t step);
typedef int32_t (*accumulate_fn)(int32_t, int32_t);
int32_t accumulate(int32_t x, int32_t scale);
extern int32_t jit_calls_counted;

/* Specialized code updates the program's own global, reads constant data, and
 * calls generic functions chosen at run time, as the generic code does. */
static void test_what_specialized_code_reaches(respec_jit *jit)
{
	struct respec_arg args[] = {RESPEC_DYNAMIC, RESPEC_DYNAMIC, RESPEC_STATIC_VALUE(3)};
	weigh_fn f = (weigh_fn)respec_jit_specialize(jit, "weigh", args, 3);
	CHECK(f, "specialize weigh: %s", respec_jit_error(jit));
	for (int32_t x = -500; f && x <= 500; x += 7) {
		for (int32_t which = 0; which < 2; which++) {
			int32_t before = jit_calls_counted;
			int32_t expected = weigh(x, which, 3);
			CHECK(jit_calls_counted == before + 3, "generic weigh counts");
			int32_t got = f(x, which, 0); /* the static 3 is used, not this 0 */
			CHECK(got == expected, "weigh(%d, %d): specialized %d, generic %d", x, which,
			      got, expected);
			CHECK(jit_calls_counted == before + 6,
			      "specialized weigh updates the program's counter (%d, expected %d)",
			      jit_calls_counted, before + 6);
		}
	}
	/* A file-static variable is the program's own too: generic and specialized
	 * calls add to the same total. */
	struct respec_arg hidden[] = {RESPEC_DYNAMIC, RESPEC_STATIC_VALUE(2)};
	accumulate_fn add = (accumulate_fn)respec_jit_specialize(jit, "accumulate", hidden, 2);
	CHECK(add, "specialize accumulate: %s", respec_jit_error(jit));
	int32_t total = accumulate(0, 2);
	for (int32_t x = -20; add && x <= 20; x += 3) {
		total += 2 * x;
		int32_t got = x & 1 ? add(x, 0) : accumulate(x, 2);
		CHECK(got == total, "accumulate(%d): %d, expected %d (%s)", x, got, total,
		      x & 1 ? "specialized" : "generic");
	}
}

typedef int32_t (*rotate_fn)(int32_t, int32_t);
int32_t rotate(int32_t x, int32_t by);

/* Inline assembly in the specialized code is assembled (ORC's code generator
 * needs the target's assembly parser for it) and runs as in the generic code. */
static void test_inline_assembly(respec_jit *jit)
{
	struct respec_arg args[] = {RESPEC_DYNAMIC, RESPEC_STATIC_VALUE(3)};
	rotate_fn f = (rotate_fn)respec_jit_specialize(jit, "rotate", args, 2);
	CHECK(f, "specialize rotate: %s", respec_jit_error(jit));
	for (int32_t x = -1000; f && x <= 1000; x += 17)
		CHECK(f(x, 0) == rotate(x, 3), "rotate(%d, 3): specialized %d, generic %d", x,
		      f(x, 0), rotate(x, 3));
}

typedef int (*glob_fn)(const char *, const char *);
int glob_match(const char *pattern, const char *s);

/* A recursive matcher over a pattern in static host memory: its recursive
 * calls become calls to variants bound to positions in that memory. */
static void test_recursion_over_host_memory(respec_jit *jit)
{
	static const char pattern[] = "a*b?c*";
	static const char alphabet[] = "abcd";
	struct respec_arg args[] = {RESPEC_STATIC_MEMORY(pattern, sizeof pattern), RESPEC_DYNAMIC};
	glob_fn f = (glob_fn)respec_jit_specialize(jit, "glob_match", args, 2);
	CHECK(f, "specialize glob_match: %s", respec_jit_error(jit));
	unsigned matched = 0;
	char s[12];
	srand(17);
	for (int round = 0; f && round < 20000; round++) {
		size_t n = (size_t)rand() % 11;
		for (size_t i = 0; i < n; i++)
			s[i] = alphabet[rand() % 4];
		s[n] = 0;
		int expected = glob_match(pattern, s);
		matched += expected;
		CHECK(f(pattern, s) == expected, "glob_match(\"%s\", \"%s\"): specialized %d",
		      pattern, s, !expected);
	}
	CHECK(matched > 100, "too few matching subjects (%u) to test anything", matched);
}

/* Released code is forgotten: the same inputs compile again; releasing twice,
 * or what the specializer never returned, fails. */
static void test_release(respec_jit *jit)
{
	struct respec_arg args[] = {RESPEC_DYNAMIC, RESPEC_STATIC_VALUE(5), RESPEC_STATIC_VALUE(-1)};
	affine_fn f = (affine_fn)respec_jit_specialize(jit, "affine", args, 3);
	CHECK(f && f(4, 0, 0) == 19, "affine before release");
	struct respec_jit_stats before, after;
	respec_jit_get_stats(jit, &before);
	CHECK(respec_jit_release(jit, (void *)f) == 0, "release: %s", respec_jit_error(jit));
	CHECK(respec_jit_release(jit, (void *)f) == -1 &&
		      strstr(respec_jit_error(jit), "not code of this specializer"),
	      "second release: %s", respec_jit_error(jit));
	CHECK(respec_jit_release(jit, (void *)test_release) == -1, "foreign code is not released");
	affine_fn again = (affine_fn)respec_jit_specialize(jit, "affine", args, 3);
	respec_jit_get_stats(jit, &after);
	CHECK(again && again(4, 0, 0) == 19, "affine after release");
	CHECK(after.specializations == before.specializations + 1 &&
		      after.cache_hits == before.cache_hits,
	      "after release the same inputs compile again");
}

/* Callers run through a slot while the specialized version is compiled and
 * plugged in behind their backs. */
static respec_slot run_slot;
static atomic_int stop_callers;
static atomic_long calls_checked;

static void *caller(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;
	int32_t input[16];
	while (!atomic_load(&stop_callers)) {
		size_t n = (size_t)(rand_r(&seed) % 17);
		for (size_t j = 0; j < n; j++)
			input[j] = (int32_t)rand_r(&seed) - RAND_MAX / 2;
		int32_t got = RESPEC_CALL(&run_slot, run_fn, program, input, n);
		if (got != vm_run(program, input, n)) {
			fprintf(stderr, "caller: wrong result through the slot\n");
			abort();
		}
		atomic_fetch_add(&calls_checked, 1);
	}
	return NULL;
}

static void test_async_replug(respec_jit *jit)
{
	CHECK(respec_slot_init(&run_slot, "run_program", RESPEC_PROTOCOL_DEFAULT,
			       RESPEC_FN(run_program)) == 0,
	      "slot: %s", respec_last_error());
	/* Not in the cache: a real compile happens while the callers run. The
	 * program itself must not change while anyone may run it. */
	program[1].imm = 11;
	pthread_t threads[2];
	for (uintptr_t t = 0; t < 2; t++)
		pthread_create(&threads[t], NULL, caller, (void *)(t + 1));
	struct respec_arg args[] = {program_args(), RESPEC_DYNAMIC, RESPEC_DYNAMIC};
	CHECK(respec_jit_specialize_async(jit, "run_program", args, 3, &run_slot) == 0,
	      "async request: %s", respec_jit_error(jit));
	respec_jit_wait(jit);
	long before = atomic_load(&calls_checked);
	while (atomic_load(&calls_checked) < before + 20000)
		;
	atomic_store(&stop_callers, 1);
	for (int t = 0; t < 2; t++)
		pthread_join(threads[t], NULL);
	CHECK(respec_slot_current(&run_slot) != respec_slot_generic(&run_slot),
	      "the slot now runs the specialized code");
	printf("async: %ld calls checked through the slot\n", atomic_load(&calls_checked));
	respec_slot_destroy(&run_slot);
}

int main(void)
{
	respec_jit *jit = respec_jit_create(respec_bitcode_jit_test, respec_bitcode_jit_test_size);
	CHECK(jit, "respec_jit_create");
	if (!jit)
		return 1;
	test_equivalence_and_cache(jit);
	test_static_values(jit);
	test_dump(jit);
	test_errors(jit);
	test_what_specialized_code_reaches(jit);
	test_inline_assembly(jit);
	test_recursion_over_host_memory(jit);
	test_release(jit);
	test_async_replug(jit);
	respec_jit_destroy(jit);
	printf("%s\n", failures ? "FAILED" : "all run-time specialization tests passed");
	return failures != 0;
}
