/*
 * errors.c — errors behave exactly as with read(2), under the shim: each call
 * is made through the shim and as a raw system call, and the results and errno
 * values must match — bad and closed descriptors (EBADF), directories
 * (EISDIR), pipes (ESPIPE, EAGAIN, EINTR without SA_RESTART), write-only and
 * O_PATH descriptors, invalid offsets, whence values and vectors (EINVAL,
 * ENXIO), on generic and on specialized descriptors alike.
 *
 * Run with LD_PRELOAD=librespec-io-preload.so.
 */
#include "iotest.h"

#include <limits.h>
#include <signal.h>
#include <sys/time.h>

static const char *path = "errors.dat";
enum { SIZE = 1 << 20 };

#define SAME(call, raw_call, what)                                                    \
	do {                                                                          \
		errno = 0;                                                            \
		long got_ = (long)(call);                                             \
		int got_errno_ = errno;                                               \
		errno = 0;                                                            \
		long want_ = (long)(raw_call);                                        \
		int want_errno_ = errno;                                              \
		CHECK(got_ == want_ && (got_ >= 0 || got_errno_ == want_errno_),      \
		      "%s: %ld (errno %d), read(2) says %ld (errno %d)", what, got_,  \
		      got_errno_, want_, want_errno_);                                \
	} while (0)

static int specialized(void)
{
	int fd = open(path, O_RDONLY);
	char b;
	CHECK(read(fd, &b, 1) == 1, "first read");
	CHECK(shim_info(fd).specialized, "not specialized");
	return fd;
}

static void on_alarm(int sig)
{
	(void)sig;
}

int main(void)
{
	free(make_file(path, SIZE, 5));
	char buf[64];

	/* Descriptors that are not open, or not readable. */
	SAME(read(-1, buf, 8), raw_read(-1, buf, 8), "read(-1)");
	SAME(read(12345, buf, 8), raw_read(12345, buf, 8), "read(12345)");
	SAME(read(1 << 20, buf, 8), raw_read(1 << 20, buf, 8), "read(beyond the table)");
	int fd = specialized();
	close(fd);
	SAME(read(fd, buf, 8), raw_read(fd, buf, 8), "read after close");
	SAME(lseek(fd, 0, SEEK_SET), raw_lseek(fd, 0, SEEK_SET), "lseek after close");
	SAME(pread(fd, buf, 8, 0), raw_pread(fd, buf, 8, 0), "pread after close");
	int wfd = open("errors-w.dat", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	SAME(read(wfd, buf, 8), raw_read(wfd, buf, 8), "read of a write-only descriptor");
	close(wfd);
	unlink("errors-w.dat");
	int pfd = open(path, O_PATH);
	SAME(read(pfd, buf, 8), raw_read(pfd, buf, 8), "read of an O_PATH descriptor");
	close(pfd);
	int dfd = open(".", O_RDONLY);
	SAME(read(dfd, buf, 8), raw_read(dfd, buf, 8), "read of a directory");
	close(dfd);

	/* Pipes: always read(2) itself. */
	int p[2];
	CHECK(pipe2(p, O_NONBLOCK) == 0, "pipe");
	SAME(lseek(p[0], 0, SEEK_CUR), raw_lseek(p[0], 0, SEEK_CUR), "lseek of a pipe");
	SAME(pread(p[0], buf, 8, 0), raw_pread(p[0], buf, 8, 0), "pread of a pipe");
	SAME(read(p[0], buf, 8), raw_read(p[0], buf, 8), "read of an empty non-blocking pipe");
	close(p[0]);
	close(p[1]);
	CHECK(pipe(p) == 0, "pipe");
	struct sigaction action = {0};
	action.sa_handler = on_alarm; /* no SA_RESTART */
	sigaction(SIGALRM, &action, NULL);
	struct itimerval once = {{0, 0}, {0, 20000}};
	setitimer(ITIMER_REAL, &once, NULL);
	errno = 0;
	CHECK(read(p[0], buf, 8) == -1 && errno == EINTR, "blocked pipe read interrupted: errno %d",
	      errno);
	close(p[0]);
	close(p[1]);

	/* Specialized descriptor against a second, raw one on the same file. */
	fd = specialized();
	int ref = (int)raw_open(path, O_RDONLY);
	raw_lseek(ref, 1, SEEK_SET);
	SAME(pread(fd, buf, 8, -1), raw_pread(ref, buf, 8, -1), "pread at a negative offset");
	SAME(lseek(fd, -5, SEEK_SET), raw_lseek(ref, -5, SEEK_SET), "lseek to a negative offset");
	SAME(lseek(fd, 0, 99), raw_lseek(ref, 0, 99), "lseek with whence 99");
	SAME(lseek(fd, LLONG_MIN, SEEK_CUR), raw_lseek(ref, LLONG_MIN, SEEK_CUR), "lseek overflow");
	SAME(lseek(fd, -SIZE - 1, SEEK_END), raw_lseek(ref, -SIZE - 1, SEEK_END), "before the start");
	SAME(lseek(fd, 1ll << 50, SEEK_SET), raw_lseek(ref, 1ll << 50, SEEK_SET), "past the limit");
	SAME(lseek(fd, SIZE + 10, SEEK_DATA), raw_lseek(ref, SIZE + 10, SEEK_DATA), "SEEK_DATA past end");
	SAME(lseek(fd, 1, SEEK_SET), raw_lseek(ref, 1, SEEK_SET), "back to 1");
	struct iovec iov[2] = {{buf, 8}, {buf + 8, 8}};
	/* Counts and lengths the kernel refuses (the calls go through variables so
	 * that the compiler does not refuse them first). */
	volatile int negative = -1, too_many = 1025;
	SAME(readv(fd, iov, negative), raw_readv(ref, iov, negative), "readv with -1 vectors");
	SAME(readv(fd, iov, too_many), raw_readv(ref, iov, too_many), "readv with 1025 vectors");
	struct iovec huge[2] = {{buf, (size_t)SSIZE_MAX}, {buf, 8}};
	volatile int two = 2;
	SAME(readv(fd, huge, two), raw_readv(ref, huge, two), "readv of a segment of SSIZE_MAX");
	huge[0].iov_len = (size_t)SSIZE_MAX + 1;
	SAME(readv(fd, huge, two), raw_readv(ref, huge, two), "readv of a negative length");
	SAME(read(fd, NULL, 0), raw_read(ref, NULL, 0), "read of 0 bytes");
	SAME(lseek(fd, 0, SEEK_END), raw_lseek(ref, 0, SEEK_END), "to the end");
	SAME(read(fd, buf, 8), raw_read(ref, buf, 8), "read at the end");
	CHECK(shim_info(fd).specialized, "an error unspecialized the descriptor");
	close(fd);
	raw_close(ref);
	unlink(path);
	printf("PASS\n");
	return 0;
}
