/*
 * arena_test.c — the electric malloc (examples/electric/arena_malloc.c) linked in
 * place of glibc's, under random use: every block keeps the bytes written to it
 * until freed, calloc's blocks are zero (reused ones too), realloc keeps the
 * prefix, aligned blocks are aligned, usable sizes cover the request. First with
 * one thread (no locking), then across a fork, then from four threads at once
 * (the lock taken once __libc_single_threaded is clear).
 */
#include "test_seed.h"
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char __libc_single_threaded;

enum { SLOTS = 512 };
struct block {
	unsigned char *p;
	size_t n;
	unsigned char fill;
};

static void fail(const char *what, size_t n)
{
	fprintf(stderr, "arena_test: FAIL: %s (size %zu)\n", what, n);
	exit(1);
}

static uint64_t next(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static size_t random_size(uint64_t *state)
{
	switch (next(state) % 8) {
	case 0: return next(state) % 17;              /* tiny, zero included */
	case 1: return 4080 + next(state) % 40;       /* around the small classes' end */
	case 2: return next(state) % (256 << 10);     /* large classes */
	default: return next(state) % 600;
	}
}

static void check(const struct block *b)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->p[i] != (unsigned char)(b->fill + i))
			fail("a block lost its contents", b->n);
	if (b->p && malloc_usable_size(b->p) < b->n)
		fail("usable size below the request", b->n);
}

static void fill(struct block *b, unsigned char value)
{
	b->fill = value;
	for (size_t i = 0; i < b->n; i++)
		b->p[i] = (unsigned char)(value + i);
}

static void churn(uint64_t seed, int operations)
{
	struct block blocks[SLOTS] = {0};
	uint64_t state = seed | 1;
	for (int k = 0; k < operations; k++) {
		struct block *b = &blocks[next(&state) % SLOTS];
		check(b);
		size_t n = random_size(&state);
		switch (next(&state) % 6) {
		case 0:
			free(b->p);
			b->p = malloc(n);
			break;
		case 1:
			free(b->p);
			b->p = calloc(1, n);
			for (size_t i = 0; b->p && i < n; i++)
				if (b->p[i])
					fail("calloc returned a block that is not zero", n);
			break;
		case 2: {
			unsigned char *grown = realloc(b->p, n ? n : 1);
			if (!grown)
				fail("realloc", n);
			size_t kept = b->n < n ? b->n : n;
			for (size_t i = 0; i < kept; i++)
				if (grown[i] != (unsigned char)(b->fill + i))
					fail("realloc lost the prefix", n);
			b->p = grown;
			break;
		}
		case 3: {
			size_t alignment = (size_t)16 << (next(&state) % 9); /* 16 .. 4096 */
			free(b->p);
			if (posix_memalign((void **)&b->p, alignment, n))
				fail("posix_memalign", n);
			if ((uintptr_t)b->p % alignment)
				fail("posix_memalign's block is not aligned", alignment);
			break;
		}
		case 4:
			free(b->p);
			b->p = aligned_alloc(64, n);
			if ((uintptr_t)b->p % 64)
				fail("aligned_alloc's block is not aligned", n);
			break;
		default:
			free(b->p);
			b->p = NULL;
			n = 0;
		}
		if (n && !b->p)
			fail("out of memory", n);
		b->n = b->p ? n : 0;
		fill(b, (unsigned char)next(&state));
	}
	for (int i = 0; i < SLOTS; i++) {
		check(&blocks[i]);
		free(blocks[i].p);
	}
}

static void *thread_churn(void *seed)
{
	churn((uint64_t)(uintptr_t)seed, 200000);
	return NULL;
}

int main(void)
{
	uint64_t seed = respec_test_seed();
	printf("arena_test: seed %llu\n", (unsigned long long)seed);
	/* The allocator in use is the arena's, not glibc's. */
	void *probe = malloc(100);
	if (malloc_usable_size(probe) != 112)
		fail("malloc is not the arena's (usable size of 100 bytes should be 112)",
		     malloc_usable_size(probe));
	free(probe);

	if (!__libc_single_threaded)
		fail("the test should start single-threaded", 0);
	churn(seed, 300000);

	/* A block larger than the largest class has a mapping of its own. */
	size_t huge = (size_t)40 << 20;
	unsigned char *big = malloc(huge);
	if (!big)
		fail("a 40 MiB block", huge);
	memset(big, 0xab, huge);
	big = realloc(big, huge * 2);
	if (!big || big[huge - 1] != 0xab)
		fail("realloc of a mapped block", huge * 2);
	free(big);

	pid_t child = fork();
	if (child == 0) {
		churn(seed + 1, 50000);
		_exit(0);
	}
	int status;
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
		fail("the forked child", 0);

	pthread_t threads[4];
	for (int i = 0; i < 4; i++)
		if (pthread_create(&threads[i], NULL, thread_churn, (void *)(uintptr_t)(seed + 2 + i)))
			fail("pthread_create", 0);
	for (int i = 0; i < 4; i++)
		pthread_join(threads[i], NULL);
	if (__libc_single_threaded)
		fail("threads ran, yet the process reads as single-threaded", 0);
	puts("arena_test: ok");
	return 0;
}
