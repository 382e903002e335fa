/*
 * shim.c — the LD_PRELOAD interposers: librespec-io for unmodified programs.
 *
 * Three kinds of calls are interposed:
 *   - the read path itself (read, pread, readv, preadv, preadv2, lseek and
 *     the _FORTIFY_SOURCE variants __read_chk/__pread_chk that hardened
 *     programs call instead): the inline fast paths of internal.h;
 *   - the calls that create or destroy descriptor numbers (open, openat,
 *     creat and their variants, close, close_range, closefrom, dup2 onto a
 *     number, and stdio's fdopen/fclose/freopen/fcloseall, whose own open,
 *     read and close calls stay inside libc and never reach a PLT), so that
 *     the table always describes what each number is;
 *   - the guards: every call after which a quasi-invariant may no longer hold
 *     unspecializes first — dup/dup2/dup3/F_DUPFD, fork (a pthread_atfork
 *     handler, file.c), _Fork, vfork, clone, posix_spawn, the exec family,
 *     system, popen (NO_FP_SHARE); sendmsg/sendmmsg with SCM_RIGHTS
 *     (NO_FP_SHARE across processes); copy_file_range, sendfile and splice
 *     with the kernel's offset, ioctl(FIONREAD) (the kernel offset is read);
 *     fcntl of leases, signals, O_DIRECT or O_ASYNC (the program's own use of
 *     what the guard uses); opens for writing and truncate of a leased file
 *     in this very process (READ_ONLY; the lease would also catch them, after
 *     a signal round trip).
 * Everything else is passed on unchanged. RESPEC_IO=off disables tracking.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#define SHIM __attribute__((visibility("default")))

/* libc's report of a failed _FORTIFY_SOURCE check (exported, not declared). */
extern void __chk_fail(void) __attribute__((noreturn));

/* The next definition of a function (libc's), looked up on first use so that
 * calls made before this library's constructor work too. */
#define NEXT(name)                                                                    \
	({                                                                            \
		static __typeof__(name) *next_;                                       \
		__typeof__(name) *fn_ = __atomic_load_n(&next_, __ATOMIC_ACQUIRE);    \
		if (!fn_) {                                                           \
			fn_ = (__typeof__(name) *)dlsym(RTLD_NEXT, #name);            \
			__atomic_store_n(&next_, fn_, __ATOMIC_RELEASE);              \
		}                                                                     \
		fn_;                                                                  \
	})

static bool disabled;

__attribute__((constructor)) static void shim_init(void)
{
	io_library_init();
	const char *setting = getenv("RESPEC_IO");
	disabled = setting && (strcmp(setting, "off") == 0 || strcmp(setting, "0") == 0);
}

static int after_open(int fd, int flags)
{
	if (fd >= 0) {
		if (!disabled && io_open_is_candidate(flags))
			io_track(fd, flags);
		else
			io_untrack(fd); /* anything known about the number is stale */
	}
	return fd;
}

/* ---- opening ------------------------------------------------------------------ */

SHIM int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = io_open_mode(flags, ap);
	va_end(ap);
	io_library_init();
	if (io_open_writes(flags))
		io_guard_before_writer(dirfd, path);
	return after_open(NEXT(openat)(dirfd, path, flags, mode), flags);
}

SHIM int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = io_open_mode(flags, ap);
	va_end(ap);
	return openat(dirfd, path, flags, mode);
}

SHIM int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = io_open_mode(flags, ap);
	va_end(ap);
	return openat(AT_FDCWD, path, flags, mode);
}

SHIM int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = io_open_mode(flags, ap);
	va_end(ap);
	return openat(AT_FDCWD, path, flags, mode);
}

/* _FORTIFY_SOURCE variants: libc's own check (O_CREAT needs a mode) first. */
SHIM int __openat_2(int dirfd, const char *path, int flags)
{
	io_library_init();
	if (io_open_writes(flags))
		io_guard_before_writer(dirfd, path);
	return after_open(NEXT(__openat_2)(dirfd, path, flags), flags);
}

SHIM int __openat64_2(int dirfd, const char *path, int flags)
{
	return __openat_2(dirfd, path, flags);
}

SHIM int __open_2(const char *path, int flags)
{
	return __openat_2(AT_FDCWD, path, flags);
}

SHIM int __open64_2(const char *path, int flags)
{
	return __openat_2(AT_FDCWD, path, flags);
}

SHIM int creat(const char *path, mode_t mode)
{
	return openat(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

SHIM int creat64(const char *path, mode_t mode)
{
	return openat(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

SHIM int truncate(const char *path, off_t length)
{
	io_library_init();
	io_guard_before_writer(AT_FDCWD, path);
	return NEXT(truncate)(path, length);
}

SHIM int truncate64(const char *path, off_t length)
{
	return truncate(path, length);
}

/* ---- the read path ---------------------------------------------------------------- */

SHIM ssize_t read(int fd, void *buf, size_t count)
{
	return io_read(fd, buf, count);
}

SHIM ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen)
{
	if (count > buflen)
		__chk_fail();
	return io_read(fd, buf, count);
}

SHIM ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
	return io_pread(fd, buf, count, offset);
}

SHIM ssize_t pread64(int fd, void *buf, size_t count, off_t offset)
{
	return io_pread(fd, buf, count, offset);
}

SHIM ssize_t __pread_chk(int fd, void *buf, size_t count, off_t offset, size_t buflen)
{
	if (count > buflen)
		__chk_fail();
	return io_pread(fd, buf, count, offset);
}

SHIM ssize_t __pread64_chk(int fd, void *buf, size_t count, off_t offset, size_t buflen)
{
	return __pread_chk(fd, buf, count, offset, buflen);
}

SHIM ssize_t readv(int fd, const struct iovec *iov, int iovcnt)
{
	return io_readv(fd, iov, iovcnt, -1);
}

SHIM ssize_t preadv(int fd, const struct iovec *iov, int iovcnt, off_t offset)
{
	if (offset < 0) /* the kernel's EINVAL */
		return io_real.preadv(fd, iov, iovcnt, offset);
	return io_readv(fd, iov, iovcnt, offset);
}

SHIM ssize_t preadv64(int fd, const struct iovec *iov, int iovcnt, off_t offset)
{
	return preadv(fd, iov, iovcnt, offset);
}

SHIM ssize_t preadv2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags)
{
	if (flags == 0 && offset >= -1)
		return io_readv(fd, iov, iovcnt, offset);
	/* RWF_NOWAIT and friends ask the kernel for its own behavior. */
	if (offset == -1)
		io_unspecialize_fd(fd, IO_REASON_KERNEL_IO);
	return NEXT(preadv2)(fd, iov, iovcnt, offset, flags);
}

SHIM ssize_t preadv64v2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags)
{
	return preadv2(fd, iov, iovcnt, offset, flags);
}

SHIM off_t lseek(int fd, off_t offset, int whence)
{
	return io_lseek(fd, offset, whence);
}

SHIM off_t lseek64(int fd, off_t offset, int whence)
{
	return io_lseek(fd, offset, whence);
}

/* ---- descriptor numbers: close and duplicate ------------------------------------- */

SHIM int close(int fd)
{
	io_library_init();
	io_untrack(fd);
	return io_real.close(fd);
}

SHIM int close_range(unsigned first, unsigned last, int flags)
{
	if (!(flags & CLOSE_RANGE_CLOEXEC)) {
		int max = atomic_load(&io_max_tracked_fd);
		for (unsigned fd = first; fd <= last && (int)fd <= max; fd++)
			io_untrack((int)fd);
	}
	return NEXT(close_range)(first, last, flags);
}

SHIM void closefrom(int lowfd)
{
	int max = atomic_load(&io_max_tracked_fd);
	for (int fd = lowfd < 0 ? 0 : lowfd; fd <= max; fd++)
		io_untrack(fd);
	NEXT(closefrom)(lowfd);
}

SHIM int dup(int fd)
{
	io_unspecialize_fd(fd, IO_REASON_SHARED);
	int copy = NEXT(dup)(fd);
	if (copy >= 0)
		io_untrack(copy);
	return copy;
}

SHIM int dup3(int fd, int newfd, int flags)
{
	if (fd != newfd) {
		io_unspecialize_fd(fd, IO_REASON_SHARED);
		io_untrack(newfd); /* replaced by the duplicate */
	}
	return NEXT(dup3)(fd, newfd, flags);
}

SHIM int dup2(int fd, int newfd)
{
	if (fd != newfd) {
		io_unspecialize_fd(fd, IO_REASON_SHARED);
		io_untrack(newfd);
	}
	return NEXT(dup2)(fd, newfd);
}

SHIM int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	void *arg = va_arg(ap, void *); /* every command takes at most one word */
	va_end(ap);
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC: {
		io_unspecialize_fd(fd, IO_REASON_SHARED);
		int copy = NEXT(fcntl)(fd, cmd, arg);
		if (copy >= 0)
			io_untrack(copy);
		return copy;
	}
	case F_SETFL:
		if ((long)arg & (O_DIRECT | O_ASYNC))
			io_unspecialize_fd(fd, IO_REASON_ASYNC);
		break;
	case F_SETLEASE:
	case F_GETLEASE:
	case F_SETSIG:
	case F_GETSIG:
	case F_SETOWN:
	case F_GETOWN:
	case F_SETOWN_EX:
	case F_GETOWN_EX:
	case F_NOTIFY:
		/* The program's own lease or signals: the guard steps aside. */
		io_unspecialize_fd(fd, IO_REASON_ASYNC);
		break;
	}
	return NEXT(fcntl)(fd, cmd, arg);
}

SHIM int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	return fcntl(fd, cmd, arg);
}

SHIM int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	va_start(ap, request);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	if (request == FIONREAD)
		io_sync_offset(fd); /* it reports size minus the kernel's offset */
	return NEXT(ioctl)(fd, request, arg);
}

/* ---- processes: every offset becomes shared --------------------------------------- */

IO_HIDDEN void io_share_all(void)
{
	io_library_init();
	io_unspecialize_every(IO_REASON_SHARED);
}

SHIM pid_t _Fork(void)
{
	io_share_all();
	return NEXT(_Fork)();
}

/* vfork's child runs on the parent's stack until it execs: a C wrapper's frame
 * would be clobbered by the child's return. So the interposer is a stub that
 * unspecializes and then jumps to libc's vfork with the caller's frame intact. */
IO_HIDDEN pid_t (*io_next_vfork)(void);
IO_HIDDEN void io_vfork_prepare(void)
{
	io_share_all();
	if (!io_next_vfork)
		io_next_vfork = (pid_t(*)(void))dlsym(RTLD_NEXT, "vfork");
}
#if defined(__x86_64__)
__asm__(".text\n"
	".globl vfork\n"
	".type vfork, @function\n"
	"vfork:\n"
	"	subq $8, %rsp\n"
	"	call io_vfork_prepare\n"
	"	addq $8, %rsp\n"
	"	jmp *io_next_vfork(%rip)\n"
	".size vfork, .-vfork\n");
#else
/* Elsewhere: fork, which POSIX allows vfork to be. */
SHIM pid_t vfork(void)
{
	io_share_all();
	return fork();
}
#endif

SHIM int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	va_list ap;
	va_start(ap, arg);
	/* libc's clone reads these three whatever the flags say. */
	pid_t *parent_tid = va_arg(ap, pid_t *);
	void *tls = va_arg(ap, void *);
	pid_t *child_tid = va_arg(ap, pid_t *);
	va_end(ap);
	io_share_all();
	return NEXT(clone)(fn, stack, flags, arg, parent_tid, tls, child_tid);
}

SHIM int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
		     const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	io_share_all();
	return NEXT(posix_spawn)(pid, path, actions, attr, argv, envp);
}

SHIM int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
		      const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	io_share_all();
	return NEXT(posix_spawnp)(pid, file, actions, attr, argv, envp);
}

SHIM int execve(const char *path, char *const argv[], char *const envp[])
{
	io_share_all();
	return NEXT(execve)(path, argv, envp);
}

SHIM int execv(const char *path, char *const argv[])
{
	io_share_all();
	return NEXT(execv)(path, argv);
}

SHIM int execvp(const char *file, char *const argv[])
{
	io_share_all();
	return NEXT(execvp)(file, argv);
}

SHIM int execvpe(const char *file, char *const argv[], char *const envp[])
{
	io_share_all();
	return NEXT(execvpe)(file, argv, envp);
}

SHIM int fexecve(int fd, char *const argv[], char *const envp[])
{
	io_share_all();
	return NEXT(fexecve)(fd, argv, envp);
}

SHIM int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
	io_share_all();
	return NEXT(execveat)(dirfd, path, argv, envp, flags);
}

/* execl, execlp, execle: collect the list, then the vector forms above. */
#define COLLECT_ARGS(first, ap, argv)                                                 \
	size_t argc_ = 1;                                                             \
	va_start(ap, first);                                                          \
	while (va_arg(ap, char *))                                                    \
		argc_++;                                                              \
	va_end(ap);                                                                   \
	char **argv = __builtin_alloca((argc_ + 1) * sizeof(char *));                 \
	va_start(ap, first);                                                          \
	argv[0] = (char *)(first);                                                    \
	for (size_t i_ = 1; i_ <= argc_; i_++)                                        \
		argv[i_] = va_arg(ap, char *)

SHIM int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	COLLECT_ARGS(arg, ap, argv);
	va_end(ap);
	return execv(path, argv);
}

SHIM int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	COLLECT_ARGS(arg, ap, argv);
	va_end(ap);
	return execvp(file, argv);
}

SHIM int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	COLLECT_ARGS(arg, ap, argv);
	char *const *envp = va_arg(ap, char *const *);
	va_end(ap);
	return execve(path, argv, envp);
}

SHIM int system(const char *command)
{
	io_share_all();
	return NEXT(system)(command);
}

SHIM FILE *popen(const char *command, const char *mode)
{
	io_share_all();
	return NEXT(popen)(command, mode);
}

/* ---- passing descriptors to other processes -------------------------------------- */

static void share_passed_descriptors(const struct msghdr *msg)
{
	if (!msg || !msg->msg_control)
		return;
	for (struct cmsghdr *c = CMSG_FIRSTHDR((struct msghdr *)msg); c;
	     c = CMSG_NXTHDR((struct msghdr *)msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		const int *fds = (const int *)CMSG_DATA(c);
		for (size_t i = 0; i < count; i++) {
			int fd;
			memcpy(&fd, fds + i, sizeof fd);
			io_unspecialize_fd(fd, IO_REASON_SHARED);
		}
	}
}

SHIM ssize_t sendmsg(int sock, const struct msghdr *msg, int flags)
{
	share_passed_descriptors(msg);
	return NEXT(sendmsg)(sock, msg, flags);
}

SHIM int sendmmsg(int sock, struct mmsghdr *msgs, unsigned count, int flags)
{
	for (unsigned i = 0; i < count; i++)
		share_passed_descriptors(&msgs[i].msg_hdr);
	return NEXT(sendmmsg)(sock, msgs, count, flags);
}

/* ---- the kernel's offset used by the kernel itself --------------------------------- */

SHIM ssize_t copy_file_range(int in, off64_t *in_off, int out, off64_t *out_off, size_t len,
			     unsigned flags)
{
	if (!in_off)
		io_unspecialize_fd(in, IO_REASON_KERNEL_IO);
	return NEXT(copy_file_range)(in, in_off, out, out_off, len, flags);
}

SHIM ssize_t sendfile(int out, int in, off_t *offset, size_t count)
{
	if (!offset)
		io_unspecialize_fd(in, IO_REASON_KERNEL_IO);
	return NEXT(sendfile)(out, in, offset, count);
}

SHIM ssize_t sendfile64(int out, int in, off64_t *offset, size_t count)
{
	return sendfile(out, in, offset, count);
}

SHIM ssize_t splice(int in, off64_t *in_off, int out, off64_t *out_off, size_t len, unsigned flags)
{
	if (!in_off)
		io_unspecialize_fd(in, IO_REASON_KERNEL_IO);
	return NEXT(splice)(in, in_off, out, out_off, len, flags);
}

/* ---- stdio: its descriptors are opened, read and closed inside libc ---------------- */

SHIM FILE *fdopen(int fd, const char *mode)
{
	/* stdio will read with the kernel's offset from now on. */
	io_unspecialize_fd(fd, IO_REASON_SHARED);
	return NEXT(fdopen)(fd, mode);
}

SHIM int fclose(FILE *stream)
{
	int fd = stream ? fileno(stream) : -1;
	if (fd >= 0)
		io_untrack(fd);
	return NEXT(fclose)(stream);
}

SHIM FILE *freopen(const char *path, const char *mode, FILE *stream)
{
	int fd = stream ? fileno(stream) : -1;
	if (fd >= 0)
		io_untrack(fd);
	return NEXT(freopen)(path, mode, stream);
}

SHIM FILE *freopen64(const char *path, const char *mode, FILE *stream)
{
	return freopen(path, mode, stream);
}

SHIM int fcloseall(void)
{
	int r = NEXT(fcloseall)();
	/* Which numbers the streams had is not known: forget the closed ones. */
	int max = atomic_load(&io_max_tracked_fd);
	for (int fd = 0; fd <= max; fd++) {
		struct io_file *f = io_lookup(fd);
		if (f && atomic_load(&f->state) != IO_UNTRACKED && io_real.fcntl(fd, F_GETFD) < 0)
			io_untrack(fd);
	}
	return r;
}
