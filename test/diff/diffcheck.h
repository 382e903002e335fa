/*
 * diffcheck.h — helpers for differential tests: run a variant of a spec function and
 * the generic variant on identical random inputs, and require identical behaviour.
 *
 * "Identical" covers everything a caller can observe: the return value, every byte
 * of every output buffer (which starts with the same random contents for both runs
 * and is fenced by canary bytes, so stray writes on either side show), and the
 * inputs, which must be unchanged. Inputs live at the very end of a readable
 * mapping followed by an inaccessible page, so reading one byte past an input
 * crashes, and the crash is reported with the seed and iteration that caused it.
 *
 * Every input of iteration i comes from a generator seeded with (seed, function, i),
 * so a failure is replayed alone with --seed S --iteration I. A run without --seed
 * takes RESPEC_TEST_SEED, or else a fresh seed (test_seed.h), and prints it.
 */
#ifndef RESPEC_DIFFCHECK_H
#define RESPEC_DIFFCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- random inputs ---- */

struct diff_rng {
	uint64_t state;
};

uint64_t diff_rng_next(struct diff_rng *rng);
/* Uniform in [0, bound); bound > 0. */
uint64_t diff_rng_below(struct diff_rng *rng, uint64_t bound);
/* True with probability 1/n. */
bool diff_rng_one_in(struct diff_rng *rng, uint64_t n);
void diff_rng_fill(struct diff_rng *rng, void *dst, size_t nbytes);
/* An int32 drawn from a mix that favours edge cases: 0, ±1, extremes, small values,
 * single bits, and the full range. */
int32_t diff_rng_int32(struct diff_rng *rng);

/* ---- the run: options, context for failure reports ---- */

struct diff_run {
	const char *program;
	const char *variant;
	uint64_t seed;
	uint64_t iterations;
	/* Replay only this iteration when has_only_iteration. */
	bool has_only_iteration;
	uint64_t only_iteration;
	/* Test only this function when not NULL. */
	const char *only_function;
	/* Where the run is, for failure reports (also from the fault handler). */
	const char *function;
	uint64_t iteration;
	/* How the current function's generic calls ended, to check input coverage. */
	uint64_t succeeded, failed;
};

/*
 * Parses `PROGRAM VARIANT [--seed N] [--iterations N] [--iteration I]
 * [--function NAME]`, prints the seed, and installs the fault handler. A VARIANT built
 * for another target (its name ends in the target's suffix: respec-v3, see
 * examples/variant_targets.h) that this CPU cannot run is skipped: the program says
 * which features the CPU lacks and exits with DIFF_SKIP_STATUS.
 */
#define DIFF_SKIP_STATUS 77
void diff_begin(struct diff_run *run, int argc, char **argv, uint64_t default_iterations);

/*
 * The element named NAME of an array of COUNT variants of SIZE bytes each, every
 * one starting with its `const char *name`; an unknown name lists the known ones
 * and exits with status 2.
 */
const void *diff_find_variant(const char *name, const void *variants, size_t count, size_t size);
#define DIFF_FIND_VARIANT(name, array) \
	diff_find_variant((name), (array), sizeof(array) / sizeof((array)[0]), sizeof((array)[0]))

/*
 * Iterates over the inputs of one function: returns false when the function is
 * filtered out or its iterations are done; otherwise seeds rng for the current
 * iteration (run->iteration) and returns true.
 */
bool diff_next(struct diff_run *run, const char *function, struct diff_rng *rng);
/* Tallies whether the generic call of this iteration succeeded or reported failure. */
void diff_count_outcome(struct diff_run *run, bool succeeded);
/*
 * Prints how many inputs of function agreed, if it ran, and fails when the inputs
 * did not exercise both outcomes (at least 1% each over 1000 or more inputs): a
 * generator that never reaches the error paths would test only half the code.
 * Functions that cannot fail simply never call diff_count_outcome.
 */
void diff_function_done(const struct diff_run *run, const char *function);

/* Reports a mismatch with the seed, iteration and a replay command, then exits 1. */
_Noreturn void diff_fail(const struct diff_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void diff_expect_equal_int(const struct diff_run *run, const char *what, long long generic,
			   long long variant);

/* Compares two byte ranges; on mismatch prints a hex diff of the differing rows. */
void diff_expect_equal_bytes(const struct diff_run *run, const char *what, const void *generic,
			     const void *variant, size_t nbytes);

/* ---- canaried output buffers ---- */

#define DIFF_CANARY_BYTES 64

struct diff_buffer {
	unsigned char *block; /* canary, data, canary */
	size_t size;
};

void diff_buffer_init(struct diff_buffer *buffer, size_t size);
void diff_buffer_destroy(struct diff_buffer *buffer);
void *diff_buffer_data(const struct diff_buffer *buffer);
/* Fills the data with random bytes and the fences with the canary pattern. */
void diff_buffer_randomize(struct diff_buffer *buffer, struct diff_rng *rng);
/* Makes dst's whole block (fences included) a copy of src's. */
void diff_buffer_copy(struct diff_buffer *dst, const struct diff_buffer *src);
/* Requires intact fences on both, then identical data. */
void diff_expect_equal_buffers(const struct diff_run *run, const char *what,
			       const struct diff_buffer *generic, const struct diff_buffer *variant);

/* ---- inputs ending at an inaccessible page ---- */

struct diff_input {
	unsigned char *mapping;
	size_t readable;	 /* bytes before the guard page */
	unsigned char *data;	 /* the current input: ends at the guard page */
	size_t size;
	unsigned char *pristine; /* copy to check that nobody wrote to the input */
};

void diff_input_init(struct diff_input *input, size_t capacity);
void diff_input_destroy(struct diff_input *input);
/* Places an input of size bytes (size <= capacity) and returns where it lives. */
void *diff_input_place(struct diff_input *input, size_t size);
/* Records the current contents as those the input must keep. */
void diff_input_seal(struct diff_input *input);
void diff_expect_input_unchanged(const struct diff_run *run, const char *what,
				 const struct diff_input *input);

#endif /* RESPEC_DIFFCHECK_H */
