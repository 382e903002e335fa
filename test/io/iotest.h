/*
 * iotest.h — what librespec-io's tests share: failing checks with file:line,
 * generated files (built in the test's working directory, never committed),
 * raw system calls that bypass the LD_PRELOAD shim (the reference a shim test
 * compares against), and the shim's own view of a descriptor (looked up at run
 * time, since the shim tests must not link a second copy of the library).
 */
#ifndef RESPEC_IO_TEST_H
#define RESPEC_IO_TEST_H

#define _GNU_SOURCE
#include <respec/io.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define CHECK(cond, ...)                                                              \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                 \
			fputc('\n', stderr);                                          \
			exit(1);                                                      \
		}                                                                     \
	} while (0)

/* Deterministic pseudo-random numbers (xorshift64*). */
static inline uint64_t test_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Byte i of a "position" file: every aligned 8-byte word holds its own offset,
 * so any chunk read tells where it came from. */
static inline unsigned char position_byte(uint64_t i)
{
	uint64_t word = i & ~7ull;
	return (unsigned char)(word >> (8 * (i & 7)));
}

/* Writes `size` bytes: position-encoded (seed 0) or pseudo-random, in 1 MiB
 * writes. Returns the content (caller frees). */
static inline unsigned char *make_file(const char *path, uint64_t size, uint64_t seed)
{
	unsigned char *data = malloc(size ? size : 1);
	CHECK(data != NULL, "out of memory");
	uint64_t state = seed;
	for (uint64_t i = 0; i < size; i++)
		data[i] = seed ? (unsigned char)test_rand(&state) : position_byte(i);
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0, "create %s: %s", path, strerror(errno));
	for (uint64_t done = 0; done < size;) {
		uint64_t part = size - done < (1u << 20) ? size - done : (1u << 20);
		long w = syscall(SYS_write, fd, data + done, part);
		CHECK(w > 0, "write %s: %s", path, strerror(errno));
		done += (uint64_t)w;
	}
	syscall(SYS_close, fd);
	return data;
}

/* The kernel's own calls, untouched by the shim. */
static inline long raw_open(const char *path, int flags)
{
	return syscall(SYS_openat, AT_FDCWD, path, flags, 0644);
}
static inline long raw_read(int fd, void *buf, size_t n)
{
	return syscall(SYS_read, fd, buf, n);
}
static inline long raw_pread(int fd, void *buf, size_t n, off_t at)
{
	return syscall(SYS_pread64, fd, buf, n, at);
}
static inline long raw_readv(int fd, const struct iovec *iov, int cnt)
{
	return syscall(SYS_readv, fd, iov, cnt);
}
static inline long raw_lseek(int fd, off_t off, int whence)
{
	return syscall(SYS_lseek, fd, off, whence);
}
static inline long raw_close(int fd)
{
	return syscall(SYS_close, fd);
}

/* respec_io_strategy_name, for tests that do not link the library. */
static inline const char *strategy_name(enum respec_io_strategy strategy)
{
	static const char *const names[] = {"kernel", "buffer", "window", "whole"};
	return (unsigned)strategy < 4 ? names[strategy] : "?";
}

/* The shim's respec_io_info, or NULL when the test does not run under it. */
typedef int (*test_info_fn)(int, struct respec_io_info *);
static inline test_info_fn shim_info_fn(void)
{
	return (test_info_fn)dlsym(RTLD_DEFAULT, "respec_io_info");
}

static inline struct respec_io_info shim_info(int fd)
{
	static test_info_fn info;
	if (!info)
		info = shim_info_fn();
	CHECK(info != NULL, "not running under the librespec-io shim (LD_PRELOAD)");
	struct respec_io_info out;
	CHECK(info(fd, &out) == 0, "respec_io_info(%d)", fd);
	return out;
}

#endif /* RESPEC_IO_TEST_H */
