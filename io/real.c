/*
 * real.c — the system's own read, pread, lseek, ... as the library calls them.
 *
 * The library never calls read() or close() by name: in the LD_PRELOAD shim
 * those names are the interposers themselves. Built into the shim
 * (RESPEC_IO_PRELOAD), each entry starts as a stub that looks up the next
 * definition (libc's) on its first call and replaces itself, so that a process
 * pays only for the lookups of what it uses (every process started under the
 * shim runs this). Built into the API library, the table holds libc's
 * functions directly. Going through libc rather than raw system calls keeps
 * its behavior exact: errno, cancellation points, the vDSO.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef RESPEC_IO_PRELOAD
static void *next(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);
	if (!fn) {
		/* Nothing sensible can run without the real call: say so plainly. */
		fprintf(stderr, "librespec-io: cannot find %s after the preloaded library: %s\n",
			name, dlerror());
		abort();
	}
	return fn;
}

/* Resolves io_real.field to libc's `name` (concurrent first calls store the
 * same pointer). */
#define RESOLVE(field, name)                                                          \
	({                                                                            \
		__typeof__(io_real.field) fn_ = next(name);                           \
		__atomic_store_n(&io_real.field, fn_, __ATOMIC_RELEASE);              \
		fn_;                                                                  \
	})

static ssize_t first_read(int fd, void *buf, size_t count)
{
	return RESOLVE(read, "read")(fd, buf, count);
}

static ssize_t first_pread(int fd, void *buf, size_t count, off_t at)
{
	return RESOLVE(pread, "pread")(fd, buf, count, at);
}

static ssize_t first_readv(int fd, const struct iovec *iov, int iovcnt)
{
	return RESOLVE(readv, "readv")(fd, iov, iovcnt);
}

static ssize_t first_preadv(int fd, const struct iovec *iov, int iovcnt, off_t at)
{
	return RESOLVE(preadv, "preadv")(fd, iov, iovcnt, at);
}

static off_t first_lseek(int fd, off_t offset, int whence)
{
	return RESOLVE(lseek, "lseek")(fd, offset, whence);
}

static int first_close(int fd)
{
	return RESOLVE(close, "close")(fd);
}

static int first_fcntl(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	return RESOLVE(fcntl, "fcntl")(fd, cmd, arg);
}

static int first_openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = va_arg(ap, mode_t);
	va_end(ap);
	return RESOLVE(openat, "openat")(dirfd, path, flags, mode);
}

struct io_real io_real = {
	.read = first_read,
	.pread = first_pread,
	.readv = first_readv,
	.preadv = first_preadv,
	.lseek = first_lseek,
	.close = first_close,
	.fcntl = first_fcntl,
	.openat = first_openat,
};
#else
struct io_real io_real = {
	.read = read,
	.pread = pread,
	.readv = readv,
	.preadv = preadv,
	.lseek = lseek,
	.close = close,
	.fcntl = fcntl,
	.openat = openat,
};
#endif
