/*
 * threads.c — NO_FP_SHARE between threads, under the shim. Threads reading the
 * same descriptor together must get every 8-byte word of the file exactly once
 * (the kernel serializes reads on one file offset, so must the library: the
 * second thread's first read takes the descriptor back to read(2)); pread from
 * other threads leaves the owner specialized; descriptors of their own stay
 * specialized in each thread; an owner that exits hands over cleanly.
 *
 * Run with LD_PRELOAD=librespec-io-preload.so.
 */
#include "iotest.h"

#include <pthread.h>
#include <stdatomic.h>

enum { WORDS = 1 << 20, SIZE = WORDS * 8, READERS = 3 };

static const char *path = "threads.dat";
static int shared_fd;
static _Atomic int seen[WORDS];

static void record(uint64_t word)
{
	CHECK(word % 8 == 0 && word < SIZE, "read garbage %llu", (unsigned long long)word);
	int before = atomic_fetch_add(&seen[word / 8], 1);
	CHECK(before == 0, "word at %llu read twice", (unsigned long long)word);
}

static void *read_shared(void *arg)
{
	uint64_t words[4], rng = (uint64_t)(uintptr_t)arg + 1;
	for (;;) {
		ssize_t n = read(shared_fd, words, (1 + test_rand(&rng) % 4) * 8);
		if (n == 0)
			return NULL;
		CHECK(n > 0 && n % 8 == 0, "read %zd", n);
		for (ssize_t i = 0; i < n / 8; i++)
			record(words[i]);
	}
}

static void same_descriptor(void)
{
	shared_fd = open(path, O_RDONLY);
	uint64_t first;
	CHECK(read(shared_fd, &first, 8) == 8 && first == 0, "first read");
	record(first);
	CHECK(shim_info(shared_fd).specialized, "not specialized");
	pthread_t readers[READERS];
	for (int i = 0; i < READERS; i++)
		pthread_create(&readers[i], NULL, read_shared, (void *)(uintptr_t)(i + 1));
	read_shared(NULL);
	for (int i = 0; i < READERS; i++)
		pthread_join(readers[i], NULL);
	for (int i = 0; i < WORDS; i++)
		CHECK(atomic_load(&seen[i]) == 1, "word %d read %d times", i, atomic_load(&seen[i]));
	CHECK(!shim_info(shared_fd).specialized, "still specialized after four threads read it");
	close(shared_fd);
}

static _Atomic bool owner_done;

static void *pread_around(void *arg)
{
	uint64_t rng = (uint64_t)(uintptr_t)arg;
	while (!atomic_load(&owner_done)) {
		uint64_t at = (test_rand(&rng) % WORDS) * 8, word;
		CHECK(pread(shared_fd, &word, 8, (off_t)at) == 8 && word == at, "pread at %llu",
		      (unsigned long long)at);
	}
	return NULL;
}

static void preads_beside_the_owner(void)
{
	shared_fd = open(path, O_RDONLY);
	uint64_t word;
	CHECK(read(shared_fd, &word, 8) == 8, "first read");
	pthread_t others[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&others[i], NULL, pread_around, (void *)(uintptr_t)(i + 7));
	for (uint64_t at = 8; at < SIZE; at += 8)
		CHECK(read(shared_fd, &word, 8) == 8 && word == at, "owner read at %llu",
		      (unsigned long long)at);
	atomic_store(&owner_done, true);
	for (int i = 0; i < 2; i++)
		pthread_join(others[i], NULL);
	CHECK(shim_info(shared_fd).specialized, "pread from other threads unspecialized the owner");
	close(shared_fd);
}

static void *read_own(void *arg)
{
	(void)arg;
	int fd = open(path, O_RDONLY);
	uint64_t word;
	for (uint64_t at = 0; at < SIZE; at += 8) {
		CHECK(read(fd, &word, 8) == 8 && word == at, "own descriptor at %llu",
		      (unsigned long long)at);
		if (at == 8)
			CHECK(shim_info(fd).specialized, "own descriptor not specialized");
	}
	CHECK(shim_info(fd).specialized, "own descriptor lost its specialization");
	close(fd);
	return NULL;
}

static void *read_half_and_exit(void *arg)
{
	(void)arg;
	shared_fd = open(path, O_RDONLY);
	uint64_t word;
	for (uint64_t at = 0; at < SIZE / 2; at += 8)
		CHECK(read(shared_fd, &word, 8) == 8 && word == at, "first owner");
	CHECK(shim_info(shared_fd).specialized, "first owner not specialized");
	return NULL;
}

int main(void)
{
	free(make_file(path, SIZE, 0));
	same_descriptor();
	preads_beside_the_owner();

	pthread_t own[READERS];
	for (int i = 0; i < READERS; i++)
		pthread_create(&own[i], NULL, read_own, NULL);
	for (int i = 0; i < READERS; i++)
		pthread_join(own[i], NULL);

	pthread_t first;
	pthread_create(&first, NULL, read_half_and_exit, NULL);
	pthread_join(first, NULL);
	uint64_t word;
	for (uint64_t at = SIZE / 2; at < SIZE; at += 8)
		CHECK(read(shared_fd, &word, 8) == 8 && word == at, "after the owner exited, at %llu",
		      (unsigned long long)at);
	CHECK(read(shared_fd, &word, 8) == 0, "end of file");
	close(shared_fd);
	unlink(path);
	printf("PASS\n");
	return 0;
}
