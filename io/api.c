/*
 * api.c — the public API of respec/io.h: open/adopt a descriptor, read, pread,
 * readv, lseek and close through the specialized path, unspecialize before
 * sharing, and look at what was decided. The shim's interposers use the same
 * inline fast paths (internal.h); this file adds the library's one-time setup.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_library(void)
{
	io_disclosure_init();
	io_stats_at_exit_init();
	io_fork_handlers_init();
}

void io_library_init(void)
{
	pthread_once(&init_once, init_library);
}

/* Which opens become candidates: read-only, and nothing that changes how
 * read(2) behaves (those descriptors are left to the kernel for good). */
bool io_open_is_candidate(int flags)
{
	return (flags & O_ACCMODE) == O_RDONLY &&
	       !(flags & (O_PATH | O_DIRECT | O_ASYNC | O_DIRECTORY | O_TRUNC));
}

/* Opens for writing (or truncating) in this process must not wait for our own
 * lease's break: unspecialize that file first. */
bool io_open_writes(int flags)
{
	return (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC);
}

mode_t io_open_mode(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, mode_t) : 0;
}

int respec_io_openat(int dirfd, const char *path, int flags, ...)
{
	io_library_init();
	va_list ap;
	va_start(ap, flags);
	mode_t mode = io_open_mode(flags, ap);
	va_end(ap);
	if (io_open_writes(flags))
		io_guard_before_writer(dirfd, path);
	int fd = io_real.openat(dirfd, path, flags, mode);
	if (fd >= 0) {
		if (io_open_is_candidate(flags))
			io_track(fd, flags);
		else
			io_untrack(fd);
	}
	return fd;
}

int respec_io_open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = io_open_mode(flags, ap);
	va_end(ap);
	return respec_io_openat(AT_FDCWD, path, flags, mode);
}

int respec_io_adopt(int fd)
{
	io_library_init();
	if (fd < 0 || io_real.fcntl(fd, F_GETFD) < 0) {
		errno = EBADF;
		return -1;
	}
	if (fd >= IO_MAX_FDS)
		return 0; /* valid, just never specialized */
	io_track(fd, -1);
	struct io_file *f = io_lookup(fd);
	off_t at = io_real.lseek(fd, 0, SEEK_CUR);
	if (f && at > 0)
		f->cand_pos = (uint64_t)at; /* where reads continue; nothing read yet */
	return 0;
}

ssize_t respec_io_read(int fd, void *buf, size_t count)
{
	return io_read(fd, buf, count);
}

ssize_t respec_io_pread(int fd, void *buf, size_t count, off_t offset)
{
	return io_pread(fd, buf, count, offset);
}

ssize_t respec_io_readv(int fd, const struct iovec *iov, int iovcnt)
{
	return io_readv(fd, iov, iovcnt, -1);
}

off_t respec_io_lseek(int fd, off_t offset, int whence)
{
	return io_lseek(fd, offset, whence);
}

int respec_io_close(int fd)
{
	io_library_init();
	io_untrack(fd);
	return io_real.close(fd);
}

int respec_io_unspecialize(int fd)
{
	io_library_init();
	if (fd < 0 || io_real.fcntl(fd, F_GETFD) < 0) {
		errno = EBADF;
		return -1;
	}
	io_unspecialize_fd(fd, IO_REASON_SHARED);
	return 0;
}

void respec_io_unspecialize_all(void)
{
	io_unspecialize_every(IO_REASON_SHARED);
}

int respec_io_info(int fd, struct respec_io_info *out)
{
	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	*out = (struct respec_io_info){0};
	struct io_file *f = io_lookup(fd);
	if (!f || atomic_load(&f->state) == IO_UNTRACKED)
		return 0;
	/* Under the lock: the lease guard's thread unspecializes the file concurrently. */
	sigset_t saved;
	io_block_signals(&saved);
	pthread_mutex_lock(&f->lock);
	int state = atomic_load(&f->state);
	out->tracked = true;
	out->specialized = state == IO_SPECIALIZED;
	out->strategy = out->specialized ? f->strategy : RESPEC_IO_KERNEL;
	out->guard = out->specialized ? f->guard : RESPEC_IO_GUARD_NONE;
	out->why_generic = out->specialized ? NULL : f->why_generic;
	out->size = out->specialized ? f->size : 0;
	pthread_mutex_unlock(&f->lock);
	io_restore_signals(&saved);
	return 0;
}

const char *respec_io_strategy_name(enum respec_io_strategy strategy)
{
	switch (strategy) {
	case RESPEC_IO_KERNEL: return "kernel";
	case RESPEC_IO_BUFFER: return "buffer";
	case RESPEC_IO_WINDOW: return "window";
	case RESPEC_IO_WHOLE: return "whole";
	}
	return "?";
}

const char *respec_io_guard_name(enum respec_io_guard guard)
{
	switch (guard) {
	case RESPEC_IO_GUARD_NONE: return "none";
	case RESPEC_IO_GUARD_LEASE: return "lease";
	case RESPEC_IO_GUARD_VERITY: return "fs-verity";
	case RESPEC_IO_GUARD_IMMUTABLE: return "immutable";
	case RESPEC_IO_GUARD_SEALED: return "memfd seals";
	}
	return "?";
}
