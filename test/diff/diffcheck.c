/*
 * diffcheck.c — implementation of the differential-test helpers (see diffcheck.h).
 */
#define _GNU_SOURCE
#include "diffcheck.h"
#include "../test_seed.h"
#include "variant_targets.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define DIFF_CANARY_VALUE 0xa5

/* splitmix64: small, fast, and every seed gives a full-period stream. */
uint64_t diff_rng_next(struct diff_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t diff_rng_below(struct diff_rng *rng, uint64_t bound)
{
	return (uint64_t)(((unsigned __int128)diff_rng_next(rng) * bound) >> 64);
}

bool diff_rng_one_in(struct diff_rng *rng, uint64_t n)
{
	return diff_rng_below(rng, n) == 0;
}

void diff_rng_fill(struct diff_rng *rng, void *dst, size_t nbytes)
{
	unsigned char *out = dst;
	while (nbytes > 0) {
		uint64_t bits = diff_rng_next(rng);
		size_t chunk = nbytes < sizeof bits ? nbytes : sizeof bits;
		memcpy(out, &bits, chunk);
		out += chunk;
		nbytes -= chunk;
	}
}

int32_t diff_rng_int32(struct diff_rng *rng)
{
	static const int32_t edges[] = { 0, 1, -1, 2, INT32_MIN, INT32_MAX, INT32_MIN + 1,
					 INT32_MAX - 1 };
	switch (diff_rng_below(rng, 8)) {
	case 0:
		return edges[diff_rng_below(rng, sizeof edges / sizeof edges[0])];
	case 1:
	case 2:
		return (int32_t)diff_rng_below(rng, 512) - 256;
	case 3: {
		uint32_t bit = 1u << diff_rng_below(rng, 32);
		return (int32_t)(diff_rng_one_in(rng, 2) ? bit : (uint32_t)0 - bit);
	}
	default:
		return (int32_t)(uint32_t)diff_rng_next(rng);
	}
}

/* The run being checked, for the fault handler. */
static const struct diff_run *active_run;

static void write_str(const char *s)
{
	ssize_t ignored = write(STDERR_FILENO, s, strlen(s));
	(void)ignored;
}

static void write_u64(uint64_t value)
{
	char digits[21];
	char *p = digits + sizeof digits;
	*--p = '\0';
	do
		*--p = (char)('0' + value % 10);
	while ((value /= 10) != 0);
	write_str(p);
}

/* Async-signal-safe: only write(2) and _exit. */
static void on_fault(int signo)
{
	const struct diff_run *run = active_run;
	bool memory = signo == SIGSEGV || signo == SIGBUS;
	write_str(memory ? "\nFAIL: memory fault" : "\nFAIL: fatal signal (illegal instruction or arithmetic)");
	if (run != NULL && run->function != NULL) {
		write_str(" in ");
		write_str(run->function);
		write_str(", variant ");
		write_str(run->variant);
		write_str(", iteration ");
		write_u64(run->iteration);
		write_str(", seed ");
		write_u64(run->seed);
		write_str(memory ? ": an input read past its end, or a wild access\nreplay: "
				 : "\nreplay: ");
		write_str(run->program);
		write_str(" ");
		write_str(run->variant);
		write_str(" --seed ");
		write_u64(run->seed);
		write_str(" --function ");
		write_str(run->function);
		write_str(" --iteration ");
		write_u64(run->iteration);
	}
	write_str("\n");
	_exit(1);
}

static _Noreturn void usage(const char *program)
{
	fprintf(stderr,
		"usage: %s VARIANT [--seed N] [--iterations N] [--iteration I] [--function NAME]\n"
		"(without --seed: RESPEC_TEST_SEED, or a fresh seed)\n",
		program);
	exit(2);
}

static uint64_t parse_u64(const char *program, const char *text)
{
	char *end;
	unsigned long long value = strtoull(text, &end, 0);
	if (*text == '\0' || *end != '\0')
		usage(program);
	return value;
}

const void *diff_find_variant(const char *name, const void *variants, size_t count, size_t size)
{
	const char *base = variants;
	for (size_t i = 0; i < count; i++)
		if (strcmp(*(const char *const *)(base + i * size), name) == 0)
			return base + i * size;
	fprintf(stderr, "unknown variant '%s'; this build has:", name);
	for (size_t i = 0; i < count; i++)
		fprintf(stderr, " %s", *(const char *const *)(base + i * size));
	fprintf(stderr, "\n");
	exit(2);
}

void diff_begin(struct diff_run *run, int argc, char **argv, uint64_t default_iterations)
{
	*run = (struct diff_run){
		.program = argv[0],
		.seed = respec_test_seed(),
		.iterations = default_iterations,
	};
	if (argc < 2 || argv[1][0] == '-')
		usage(argv[0]);
	run->variant = argv[1];
	for (int i = 2; i < argc; i++) {
		if (i + 1 >= argc)
			usage(argv[0]);
		const char *option = argv[i], *value = argv[++i];
		if (strcmp(option, "--seed") == 0) {
			run->seed = parse_u64(argv[0], value);
		} else if (strcmp(option, "--iterations") == 0) {
			run->iterations = parse_u64(argv[0], value);
		} else if (strcmp(option, "--iteration") == 0) {
			run->has_only_iteration = true;
			run->only_iteration = parse_u64(argv[0], value);
		} else if (strcmp(option, "--function") == 0) {
			run->only_function = value;
		} else {
			usage(argv[0]);
		}
	}
	printf("%s: variant %s vs generic, seed %llu, %llu inputs per function\n", argv[0],
	       run->variant, (unsigned long long)run->seed,
	       (unsigned long long)(run->has_only_iteration ? 1 : run->iterations));
	fflush(stdout);

	/* A variant built for another target (respec-v3: -march=x86-64-v3) runs only on a
	 * CPU with that target's features; elsewhere it is skipped, not failed. */
	const struct variant_target *target = variant_target_of(run->variant);
	char missing[128];
	if (target != NULL && !variant_target_check(target, missing, sizeof missing)) {
		printf("%s: skipping %s (built for -march=%s): this CPU lacks %s\n", argv[0],
		       run->variant, target->cpu, missing);
		exit(DIFF_SKIP_STATUS);
	}

	active_run = run;
	struct sigaction action = { .sa_handler = on_fault };
	sigemptyset(&action.sa_mask);
	sigaction(SIGSEGV, &action, NULL);
	sigaction(SIGBUS, &action, NULL);
	sigaction(SIGILL, &action, NULL);
	sigaction(SIGFPE, &action, NULL);
}

static uint64_t hash_name(const char *name)
{
	uint64_t hash = 0xcbf29ce484222325ULL;
	for (; *name != '\0'; name++)
		hash = (hash ^ (unsigned char)*name) * 0x100000001b3ULL;
	return hash;
}

bool diff_next(struct diff_run *run, const char *function, struct diff_rng *rng)
{
	if (run->only_function != NULL && strcmp(run->only_function, function) != 0)
		return false;
	if (run->function == NULL || strcmp(run->function, function) != 0) {
		run->function = function;
		run->iteration = run->has_only_iteration ? run->only_iteration : 0;
		run->succeeded = run->failed = 0;
	} else {
		if (run->has_only_iteration)
			return false;
		run->iteration++;
	}
	if (!run->has_only_iteration && run->iteration >= run->iterations)
		return false;
	struct diff_rng mixer = { run->seed ^ hash_name(function) };
	rng->state = diff_rng_next(&mixer) ^ (run->iteration * 0xd1342543de82ef95ULL);
	return true;
}

void diff_function_done(const struct diff_run *run, const char *function)
{
	/* A function the --function filter skipped never became the current one. */
	if (run->function == NULL || strcmp(run->function, function) != 0)
		return;
	uint64_t total = run->succeeded + run->failed;
	if (total == 0) {
		/* A function that cannot fail has no outcomes to tally. */
		printf("  %-18s %llu inputs agree\n", run->function,
		       (unsigned long long)(run->has_only_iteration ? 1 : run->iterations));
		fflush(stdout);
		return;
	}
	printf("  %-18s %llu inputs agree (generic succeeded on %llu, failed on %llu)\n",
	       run->function, (unsigned long long)total, (unsigned long long)run->succeeded,
	       (unsigned long long)run->failed);
	fflush(stdout);
	if (total >= 1000 && (run->succeeded < total / 100 || run->failed < total / 100))
		diff_fail(run, "the inputs hardly reach one of the outcomes; fix the generator");
}

void diff_count_outcome(struct diff_run *run, bool succeeded)
{
	if (succeeded)
		run->succeeded++;
	else
		run->failed++;
}

void diff_fail(const struct diff_run *run, const char *fmt, ...)
{
	fflush(stdout);
	fprintf(stderr, "\nFAIL: %s, variant %s, iteration %llu, seed %llu: ",
		run->function ? run->function : "?", run->variant,
		(unsigned long long)run->iteration, (unsigned long long)run->seed);
	va_list args;
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fprintf(stderr, "\nreplay: %s %s --seed %llu --function %s --iteration %llu\n",
		run->program, run->variant, (unsigned long long)run->seed,
		run->function ? run->function : "?", (unsigned long long)run->iteration);
	exit(1);
}

void diff_expect_equal_int(const struct diff_run *run, const char *what, long long generic,
			   long long variant)
{
	if (generic != variant)
		diff_fail(run, "%s differs: generic %lld, variant %lld", what, generic, variant);
}

enum { HEX_ROW = 16, HEX_MAX_ROWS = 8 };

static void print_hex_row(const char *label, const unsigned char *row, size_t n,
			  const unsigned char *other)
{
	fprintf(stderr, "    %-8s", label);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, row[i] == other[i] ? " %02x" : "*%02x", row[i]);
	fprintf(stderr, "\n");
}

/* Compares expected and actual bytes, naming the two sides in the hex diff. */
static void expect_equal_bytes(const struct diff_run *run, const char *what,
			       const char *expected_label, const void *expected,
			       const char *actual_label, const void *actual, size_t nbytes)
{
	const unsigned char *g = expected, *v = actual;
	if (memcmp(g, v, nbytes) == 0)
		return;
	size_t differing = 0, first = nbytes;
	for (size_t i = 0; i < nbytes; i++) {
		if (g[i] != v[i]) {
			differing++;
			if (first == nbytes)
				first = i;
		}
	}
	fprintf(stderr, "\n%s: %zu of %zu bytes differ, first at offset %zu (* marks them)\n",
		what, differing, nbytes, first);
	int rows = 0;
	for (size_t row = first / HEX_ROW * HEX_ROW; row < nbytes && rows < HEX_MAX_ROWS;
	     row += HEX_ROW) {
		size_t n = nbytes - row < HEX_ROW ? nbytes - row : HEX_ROW;
		if (memcmp(g + row, v + row, n) == 0)
			continue;
		fprintf(stderr, "  offset %#zx:\n", row);
		print_hex_row(expected_label, g + row, n, v + row);
		print_hex_row(actual_label, v + row, n, g + row);
		rows++;
	}
	diff_fail(run, "%s differs (%zu bytes)", what, differing);
}

void diff_expect_equal_bytes(const struct diff_run *run, const char *what, const void *generic,
			     const void *variant, size_t nbytes)
{
	expect_equal_bytes(run, what, "generic", generic, "variant", variant, nbytes);
}

void diff_buffer_init(struct diff_buffer *buffer, size_t size)
{
	buffer->size = size;
	buffer->block = malloc(size + 2 * DIFF_CANARY_BYTES);
	if (buffer->block == NULL) {
		perror("diff_buffer_init");
		exit(2);
	}
}

void diff_buffer_destroy(struct diff_buffer *buffer)
{
	free(buffer->block);
	buffer->block = NULL;
}

void *diff_buffer_data(const struct diff_buffer *buffer)
{
	return buffer->block + DIFF_CANARY_BYTES;
}

void diff_buffer_randomize(struct diff_buffer *buffer, struct diff_rng *rng)
{
	memset(buffer->block, DIFF_CANARY_VALUE, DIFF_CANARY_BYTES);
	diff_rng_fill(rng, diff_buffer_data(buffer), buffer->size);
	memset(buffer->block + DIFF_CANARY_BYTES + buffer->size, DIFF_CANARY_VALUE,
	       DIFF_CANARY_BYTES);
}

void diff_buffer_copy(struct diff_buffer *dst, const struct diff_buffer *src)
{
	memcpy(dst->block, src->block, src->size + 2 * DIFF_CANARY_BYTES);
}

static void expect_canaries(const struct diff_run *run, const char *what, const char *side,
			    const struct diff_buffer *buffer)
{
	const unsigned char *fences[2] = { buffer->block,
					   buffer->block + DIFF_CANARY_BYTES + buffer->size };
	for (int f = 0; f < 2; f++) {
		for (size_t i = 0; i < DIFF_CANARY_BYTES; i++) {
			if (fences[f][i] != DIFF_CANARY_VALUE) {
				size_t distance = f == 0 ? DIFF_CANARY_BYTES - i : i + 1;
				diff_fail(run, "%s: %s variant wrote the canary %zu byte(s) %s the buffer",
					  what, side, distance, f == 0 ? "before" : "after");
			}
		}
	}
}

void diff_expect_equal_buffers(const struct diff_run *run, const char *what,
			       const struct diff_buffer *generic, const struct diff_buffer *variant)
{
	expect_canaries(run, what, "generic", generic);
	expect_canaries(run, what, "tested", variant);
	diff_expect_equal_bytes(run, what, diff_buffer_data(generic), diff_buffer_data(variant),
				generic->size);
}

void diff_input_init(struct diff_input *input, size_t capacity)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	input->readable = (capacity + page - 1) / page * page;
	if (input->readable == 0)
		input->readable = page;
	input->mapping = mmap(NULL, input->readable + page, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (input->mapping == MAP_FAILED ||
	    mprotect(input->mapping + input->readable, page, PROT_NONE) != 0) {
		perror("diff_input_init");
		exit(2);
	}
	input->pristine = malloc(input->readable);
	if (input->pristine == NULL) {
		perror("diff_input_init");
		exit(2);
	}
	input->data = input->mapping + input->readable;
	input->size = 0;
}

void diff_input_destroy(struct diff_input *input)
{
	munmap(input->mapping, input->readable + (size_t)sysconf(_SC_PAGESIZE));
	free(input->pristine);
}

void *diff_input_place(struct diff_input *input, size_t size)
{
	if (size > input->readable) {
		fprintf(stderr, "diff_input_place: %zu bytes exceed the capacity\n", size);
		exit(2);
	}
	input->size = size;
	input->data = input->mapping + input->readable - size;
	return input->data;
}

void diff_input_seal(struct diff_input *input)
{
	memcpy(input->pristine, input->data, input->size);
}

void diff_expect_input_unchanged(const struct diff_run *run, const char *what,
				 const struct diff_input *input)
{
	expect_equal_bytes(run, what, "before", input->pristine, "after", input->data, input->size);
}
