/*
 * interposed.c — every other call the shim interposes, each on a specialized
 * descriptor of a file that holds its own offsets: the open variants, the
 * _FORTIFY_SOURCE read entry points, pread/readv/preadv/preadv2, lseek64,
 * ioctl(FIONREAD), the kernel-offset users (copy_file_range, sendfile,
 * splice), the program's own fcntl of leases and signals, stdio's fdopen,
 * fclose, freopen and fcloseall, in-process writers (creat, truncate), and
 * close/close_range/closefrom followed by reuse of the number for a pipe —
 * which must then read the pipe, not what the number used to be.
 *
 * Run with LD_PRELOAD=librespec-io-preload.so.
 */
#include "iotest.h"

#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <time.h>

extern int __open_2(const char *path, int flags);
extern int __openat_2(int dirfd, const char *path, int flags);
extern ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen);
extern ssize_t __pread_chk(int fd, void *buf, size_t count, off_t at, size_t buflen);

static const char *data_path = "interposed.dat";
enum { DATA_SIZE = 1 << 20 };

static uint64_t word_at_read(int fd)
{
	uint64_t word = ~0ull;
	CHECK(read(fd, &word, 8) == 8, "read");
	return word;
}

static void expect_at(int fd, uint64_t offset, const char *what)
{
	uint64_t word = word_at_read(fd);
	CHECK(word == offset, "%s: read offset %llu, expected %llu", what, (unsigned long long)word,
	      (unsigned long long)offset);
}

static void expect_specialized(int fd, bool yes, const char *what)
{
	struct respec_io_info info = shim_info(fd);
	CHECK(info.specialized == yes, "%s: %sspecialized (%s)", what, yes ? "not " : "",
	      info.why_generic ? info.why_generic : "-");
}

/* Opened by `opener`, read once (offset 0): specialized at offset 8. */
static int specialized(int fd, const char *opener)
{
	CHECK(fd >= 0, "%s", opener);
	expect_at(fd, 0, opener);
	expect_specialized(fd, true, opener);
	return fd;
}

static void test_opens_and_reads(void)
{
	int fds[] = {
		specialized(open(data_path, O_RDONLY), "open"),
		specialized(open64(data_path, O_RDONLY), "open64"),
		specialized(openat(AT_FDCWD, data_path, O_RDONLY), "openat"),
		specialized(openat64(AT_FDCWD, data_path, O_RDONLY), "openat64"),
		specialized(__open_2(data_path, O_RDONLY), "__open_2"),
		specialized(__openat_2(AT_FDCWD, data_path, O_RDONLY), "__openat_2"),
	};
	int fd = fds[0];
	uint64_t word;
	CHECK(__read_chk(fd, &word, 8, sizeof word) == 8 && word == 8, "__read_chk");
	CHECK(pread(fd, &word, 8, 4096) == 8 && word == 4096, "pread");
	CHECK(pread64(fd, &word, 8, 8192) == 8 && word == 8192, "pread64");
	CHECK(__pread_chk(fd, &word, 8, 16384, sizeof word) == 8 && word == 16384, "__pread_chk");
	uint64_t two[2];
	struct iovec iov[2] = {{&two[0], 8}, {&two[1], 8}};
	CHECK(readv(fd, iov, 2) == 16 && two[0] == 16 && two[1] == 24, "readv");
	CHECK(preadv(fd, iov, 2, 800) == 16 && two[0] == 800 && two[1] == 808, "preadv");
	CHECK(preadv2(fd, iov, 1, -1, 0) == 8 && two[0] == 32, "preadv2 at the offset");
	CHECK(preadv2(fd, iov, 1, 64, 0) == 8 && two[0] == 64, "preadv2 at 64");
	expect_specialized(fd, true, "after the read variants");
	CHECK(lseek64(fd, 1000, SEEK_SET) == 1000 && lseek(fd, 0, SEEK_CUR) == 1000, "lseek64");
	expect_at(fd, 1000, "after lseek64");
	expect_specialized(fd, true, "after lseek64");

	/* RWF_NOWAIT at the file offset: the kernel's own behavior, so the
	 * descriptor goes back to it first. */
	errno = 0;
	long r = preadv2(fd, iov, 1, -1, RWF_NOWAIT);
	CHECK(r == 8 && two[0] == 1008, "preadv2(RWF_NOWAIT) read offset %llu (r %ld, errno %d)",
	      (unsigned long long)two[0], r, errno);
	expect_specialized(fd, false, "after preadv2(RWF_NOWAIT)");
	expect_at(fd, 1016, "after preadv2(RWF_NOWAIT)");
	for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
		close(fds[i]);
}

static void test_ioctl_and_kernel_offset_users(void)
{
	int fd = specialized(open(data_path, O_RDONLY), "open");
	int pending = -1;
	CHECK(ioctl(fd, FIONREAD, &pending) == 0 && pending == DATA_SIZE - 8, "FIONREAD says %d",
	      pending);
	expect_specialized(fd, true, "after FIONREAD");

	int out = open("interposed.out", O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(copy_file_range(fd, NULL, out, NULL, 16, 0) == 16, "copy_file_range");
	uint64_t copied[2];
	CHECK(pread(out, copied, 16, 0) == 16 && copied[0] == 8 && copied[1] == 16, "copied %llu",
	      (unsigned long long)copied[0]);
	expect_at(fd, 24, "after copy_file_range");
	close(fd);

	fd = specialized(open(data_path, O_RDONLY), "open");
	CHECK(sendfile(out, fd, NULL, 8) == 8, "sendfile");
	expect_at(fd, 16, "after sendfile");
	close(fd);

	fd = specialized(open(data_path, O_RDONLY), "open");
	int p[2];
	CHECK(pipe(p) == 0, "pipe");
	CHECK(splice(fd, NULL, p[1], NULL, 8, 0) == 8, "splice");
	uint64_t word;
	CHECK(read(p[0], &word, 8) == 8 && word == 8, "spliced %llu", (unsigned long long)word);
	expect_at(fd, 16, "after splice");
	close(p[0]);
	close(p[1]);
	close(fd);
	close(out);
	unlink("interposed.out");
}

static void test_program_fcntl(void)
{
	static const int commands[] = {F_SETSIG, F_GETLEASE, F_SETOWN, F_NOTIFY};
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		int fd = specialized(open(data_path, O_RDONLY), "open");
		fcntl(fd, commands[i], 0);
		expect_specialized(fd, false, "after the program's own fcntl");
		expect_at(fd, 8, "after fcntl");
		close(fd);
	}
	int fd = specialized(open(data_path, O_RDONLY), "open");
	CHECK(fcntl(fd, F_SETLEASE, F_RDLCK) == 0, "the program's lease");
	CHECK(fcntl(fd, F_GETLEASE) == F_RDLCK, "the program's lease is its own");
	expect_at(fd, 8, "under the program's lease");
	CHECK(fcntl(fd, F_SETLEASE, F_UNLCK) == 0, "release");
	close(fd);
	fd = specialized(open(data_path, O_RDONLY), "open");
	CHECK(fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 && fcntl(fd, F_GETFD) == FD_CLOEXEC, "F_SETFD");
	expect_specialized(fd, true, "F_SETFD changes nothing read sees");
	CHECK((fcntl64(fd, F_GETFL) & O_ACCMODE) == O_RDONLY, "fcntl64");
	close(fd);
}

static void test_stdio(void)
{
	int fd = specialized(open(data_path, O_RDONLY), "open");
	FILE *stream = fdopen(fd, "r");
	CHECK(stream != NULL, "fdopen");
	expect_specialized(fd, false, "after fdopen");
	uint64_t word;
	CHECK(fread(&word, 8, 1, stream) == 1 && word == 8, "fread after fdopen: %llu",
	      (unsigned long long)word);
	CHECK(fclose(stream) == 0, "fclose");
	CHECK(!shim_info(fd).tracked, "still tracked after fclose");
	/* The number is free again: a pipe gets it and must read as a pipe. */
	int p[2];
	CHECK(pipe(p) == 0 && p[0] == fd, "pipe");
	CHECK(write(p[1], "pipe-data", 9) == 9, "pipe write");
	char buf[16];
	CHECK(read(fd, buf, 9) == 9 && memcmp(buf, "pipe-data", 9) == 0, "pipe after fclose");
	close(p[0]);
	close(p[1]);

	fd = specialized(open(data_path, O_RDONLY), "open");
	stream = fdopen(fd, "r");
	stream = freopen(data_path, "r", stream);
	CHECK(stream != NULL && fread(&word, 8, 1, stream) == 1 && word == 0, "freopen");
	fclose(stream);
}

static void test_close_and_reuse(void)
{
	/* close, close_range and closefrom of specialized numbers, each reused at
	 * once for a pipe carrying "0123456789abcdef". */
	for (int how = 0; how < 3; how++) {
		int fd = specialized(open(data_path, O_RDONLY), "open");
		if (how == 0)
			CHECK(close(fd) == 0, "close");
		else if (how == 1)
			CHECK(close_range((unsigned)fd, (unsigned)fd, 0) == 0, "close_range");
		else
			closefrom(fd);
		int p[2];
		CHECK(pipe(p) == 0, "pipe");
		CHECK(p[0] == fd, "the pipe did not get number %d", fd);
		CHECK(write(p[1], "0123456789abcdef", 16) == 16, "pipe write");
		char buf[16];
		CHECK(read(fd, buf, 16) == 16 && memcmp(buf, "0123456789abcdef", 16) == 0,
		      "number %d still reads the old file", fd);
		close(p[0]);
		close(p[1]);
	}
	/* CLOSE_RANGE_CLOEXEC closes nothing. */
	int fd = specialized(open(data_path, O_RDONLY), "open");
	CHECK(close_range((unsigned)fd, (unsigned)fd, CLOSE_RANGE_CLOEXEC) == 0, "close_range cloexec");
	expect_at(fd, 8, "after close_range(CLOEXEC)");
	expect_specialized(fd, true, "after close_range(CLOEXEC)");
	close(fd);
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void test_in_process_writers(void)
{
	const char *path = "interposed-write.dat";
	free(make_file(path, DATA_SIZE, 0));
	int fd = specialized(open(path, O_RDONLY), "open");
	double start = now_s();
	CHECK(truncate(path, 16) == 0, "truncate");
	CHECK(now_s() - start < 1.0, "truncate waited %.3f s", now_s() - start);
	expect_specialized(fd, false, "after truncate");
	expect_at(fd, 8, "after truncate");
	uint64_t word;
	CHECK(read(fd, &word, 8) == 0, "end of the truncated file");
	close(fd);

	free(make_file(path, DATA_SIZE, 0));
	fd = specialized(open(path, O_RDONLY), "open");
	start = now_s();
	int w = creat(path, 0644);
	CHECK(w >= 0 && now_s() - start < 1.0, "creat");
	CHECK(read(fd, &word, 8) == 0, "end of the file creat truncated");
	close(w);
	close(fd);
	unlink(path);
}

static void test_fcloseall(void)
{
	int fd = specialized(open(data_path, O_RDONLY), "open");
	FILE *stream = fdopen(fd, "r");
	CHECK(stream != NULL, "fdopen");
	fflush(stdout);
	fcloseall();
	/* glibc's fcloseall flushes and detaches streams without closing their
	 * descriptors; either way, tracked must mean open. */
	bool open_now = (int)syscall(SYS_fcntl, fd, F_GETFD) >= 0;
	CHECK(shim_info(fd).tracked == open_now, "tracked %d, open %d after fcloseall",
	      shim_info(fd).tracked, open_now);
}

int main(void)
{
	free(make_file(data_path, DATA_SIZE, 0));
	test_opens_and_reads();
	test_ioctl_and_kernel_offset_users();
	test_program_fcntl();
	test_stdio();
	test_close_and_reuse();
	test_in_process_writers();
	unlink(data_path);
	free(make_file(data_path, DATA_SIZE, 0));
	printf("PASS\n");
	test_fcloseall(); /* closes stdout: last */
	unlink(data_path);
	return 0;
}
