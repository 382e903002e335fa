/*
 * diff.c — byte-for-byte equality with read(2): random read sizes and seek
 * patterns on files of every size class and strategy, each operation done on
 * the subject descriptor and on a reference descriptor of the same file, with
 * results, errno, bytes and offsets compared after every step.
 *
 * Built twice: io-diff-api (subject: respec_io_*; reference: libc) and
 * io-diff-shim (subject: plain read/lseek/... under LD_PRELOAD; reference: raw
 * system calls, which the shim cannot see). Fails if the specialized path was
 * not actually taken where it should have been. The operations come from a seed,
 * fresh per run or RESPEC_TEST_SEED (printed first, for replays).
 */
#include "iotest.h"
#include "../test_seed.h"

#include <limits.h>

#ifdef DIFF_SHIM
#define S_OPEN(path) open(path, O_RDONLY)
#define S_READ read
#define S_PREAD pread
#define S_READV readv
#define S_LSEEK lseek
#define S_CLOSE close
#define R_OPEN(path) ((int)raw_open(path, O_RDONLY))
#define R_READ raw_read
#define R_PREAD raw_pread
#define R_READV raw_readv
#define R_LSEEK raw_lseek
#define R_CLOSE raw_close
static struct respec_io_info info_of(int fd)
{
	return shim_info(fd);
}
static void set_hints(unsigned hints)
{
	void (*set)(unsigned) = (void (*)(unsigned))dlsym(RTLD_DEFAULT, "respec_io_set_hints");
	CHECK(set != NULL, "not running under the shim");
	set(hints);
}
#else
#define S_OPEN(path) respec_io_open(path, O_RDONLY)
#define S_READ respec_io_read
#define S_PREAD respec_io_pread
#define S_READV respec_io_readv
#define S_LSEEK respec_io_lseek
#define S_CLOSE respec_io_close
#define R_OPEN(path) open(path, O_RDONLY)
#define R_READ read
#define R_PREAD pread
#define R_READV readv
#define R_LSEEK lseek
#define R_CLOSE close
static struct respec_io_info info_of(int fd)
{
	struct respec_io_info info;
	CHECK(respec_io_info(fd, &info) == 0, "respec_io_info");
	return info;
}
static void set_hints(unsigned hints)
{
	respec_io_set_hints(hints);
}
#endif

struct file_case {
	const char *name;
	uint64_t size;
	unsigned hints;
	enum respec_io_strategy expect; /* strategy the first small read must pick */
};

static const struct file_case cases[] = {
	{"empty", 0, 0, RESPEC_IO_KERNEL},
	{"one-byte", 1, 0, RESPEC_IO_KERNEL},
	{"page-less-one", 4095, 0, RESPEC_IO_BUFFER},
	{"page", 4096, 0, RESPEC_IO_BUFFER},
	{"buffer", 100 * 1024 + 7, 0, RESPEC_IO_BUFFER},
	{"whole", 3 * 1024 * 1024 + 5, 0, RESPEC_IO_WHOLE},
	{"random-hint", 600 * 1024 + 3, RESPEC_IO_HINT_RANDOM, RESPEC_IO_WHOLE},
	{"window", 13 * 1024 * 1024 + 11, RESPEC_IO_HINT_SEQUENTIAL, RESPEC_IO_WINDOW},
	{"big-io-window", 21 * 1024 * 1024 + 1, RESPEC_IO_HINT_BIG_IO, RESPEC_IO_WINDOW},
};

struct stats {
	uint64_t ops, specialized_ops;
};

static uint64_t pick_size(uint64_t *rng, uint64_t file_size)
{
	static const uint64_t fixed[] = {0, 1, 1, 1, 2, 3, 7, 8, 100, 4095, 4096, 4097, 8192, 65536};
	uint64_t r = test_rand(rng) % 100;
	if (r < 70)
		return fixed[test_rand(rng) % (sizeof fixed / sizeof fixed[0])];
	if (r < 98)
		return test_rand(rng) % (200 * 1024);
	return file_size + test_rand(rng) % 3; /* to the end and past it */
}

static off_t pick_offset(uint64_t *rng, uint64_t size)
{
	uint64_t r = test_rand(rng) % 100;
	if (r < 85)
		return size ? (off_t)(test_rand(rng) % size) : 0;
	if (r < 90)
		return (off_t)size;
	if (r < 95)
		return (off_t)(size + test_rand(rng) % 5000); /* past the end */
	return -(off_t)(test_rand(rng) % 10 + 1);
}

static void compare(long subject, int subject_errno, long reference, int reference_errno,
		    const char *what, uint64_t op)
{
	CHECK(subject == reference, "op %llu %s: subject %ld, read(2) %ld", (unsigned long long)op,
	      what, subject, reference);
	if (subject < 0)
		CHECK(subject_errno == reference_errno, "op %llu %s: errno %d vs %d",
		      (unsigned long long)op, what, subject_errno, reference_errno);
}

static void run_ops(const char *path, const struct file_case *c, uint64_t seed, int count,
		    unsigned char *s_buf, unsigned char *r_buf, size_t buf_size, struct stats *st)
{
	int s_fd = S_OPEN(path), r_fd = R_OPEN(path);
	CHECK(s_fd >= 0 && r_fd >= 0, "open %s", path);
	uint64_t rng = seed;
	for (int i = 0; i < count; i++) {
		uint64_t op = st->ops++;
		/* Start with a small full read: it is what makes a candidate decide. */
		uint64_t kind = i == 0 ? 0 : test_rand(&rng) % 100;
		long s, r;
		int s_err, r_err;
		if (kind < 60) {
			uint64_t n = i == 0 ? 1 : pick_size(&rng, c->size);
			if (test_rand(&rng) % 500 == 0)
				n = 0x80000000ull; /* more than read(2) ever moves at once */
			if (n > buf_size)
				n = buf_size;
			memset(s_buf, 0xAA, n < 300000 ? n : 300000);
			errno = 0, s = S_READ(s_fd, s_buf, n), s_err = errno;
			errno = 0, r = R_READ(r_fd, r_buf, n), r_err = errno;
			compare(s, s_err, r, r_err, "read", op);
			if (s > 0)
				CHECK(memcmp(s_buf, r_buf, (size_t)s) == 0, "op %llu read: bytes differ",
				      (unsigned long long)op);
		} else if (kind < 70) {
			uint64_t n = pick_size(&rng, c->size);
			off_t at = pick_offset(&rng, c->size);
			if (n > buf_size)
				n = buf_size;
			errno = 0, s = S_PREAD(s_fd, s_buf, n, at), s_err = errno;
			errno = 0, r = R_PREAD(r_fd, r_buf, n, at), r_err = errno;
			compare(s, s_err, r, r_err, "pread", op);
			if (s > 0)
				CHECK(memcmp(s_buf, r_buf, (size_t)s) == 0, "op %llu pread: bytes differ",
				      (unsigned long long)op);
		} else if (kind < 78) {
			struct iovec s_iov[4], r_iov[4];
			int cnt = (int)(test_rand(&rng) % 4) + 1;
			size_t used = 0;
			for (int k = 0; k < cnt; k++) {
				size_t len = (size_t)(test_rand(&rng) % 9000);
				if (used + len > buf_size)
					len = 0;
				s_iov[k] = (struct iovec){s_buf + used, len};
				r_iov[k] = (struct iovec){r_buf + used, len};
				used += len;
			}
			errno = 0, s = S_READV(s_fd, s_iov, cnt), s_err = errno;
			errno = 0, r = R_READV(r_fd, r_iov, cnt), r_err = errno;
			compare(s, s_err, r, r_err, "readv", op);
			if (s > 0)
				CHECK(memcmp(s_buf, r_buf, (size_t)s) == 0, "op %llu readv: bytes differ",
				      (unsigned long long)op);
		} else {
			int whence;
			off_t off;
			uint64_t w = test_rand(&rng) % 100;
			if (w < 45)
				whence = SEEK_SET, off = pick_offset(&rng, c->size);
			else if (w < 75)
				whence = SEEK_CUR, off = (off_t)(test_rand(&rng) % 20000) - 10000;
			else if (w < 90)
				whence = SEEK_END, off = -(off_t)(test_rand(&rng) % (c->size + 10));
			else if (w < 96)
				whence = SEEK_CUR, off = 0;
			else if (w < 98)
				whence = 7, off = 0; /* invalid */
			else
				whence = w & 1 ? SEEK_DATA : SEEK_HOLE, off = pick_offset(&rng, c->size);
			errno = 0, s = S_LSEEK(s_fd, off, whence), s_err = errno;
			errno = 0, r = R_LSEEK(r_fd, off, whence), r_err = errno;
			compare(s, s_err, r, r_err, "lseek", op);
		}
		/* Where both think they are. */
		long s_at = S_LSEEK(s_fd, 0, SEEK_CUR), r_at = R_LSEEK(r_fd, 0, SEEK_CUR);
		CHECK(s_at == r_at, "op %llu: offset %ld, read(2)'s %ld", (unsigned long long)op, s_at, r_at);
		if (info_of(s_fd).specialized)
			st->specialized_ops++;
	}
	CHECK(S_CLOSE(s_fd) == 0 && R_CLOSE(r_fd) == 0, "close");
}

int main(void)
{
	size_t buf_size = 24u << 20;
	unsigned char *s_buf = malloc(buf_size), *r_buf = malloc(buf_size);
	CHECK(s_buf && r_buf, "out of memory");
	uint64_t seed = respec_test_seed();
	printf("seed %llu (replay: RESPEC_TEST_SEED=%llu)\n", (unsigned long long)seed,
	       (unsigned long long)seed);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct file_case *c = &cases[i];
		char path[64];
		snprintf(path, sizeof path, "diff-%s.dat", c->name);
		free(make_file(path, c->size, i + 1));
		set_hints(c->hints);

		/* The strategy the decision picks for this file. */
		int fd = S_OPEN(path);
		CHECK(fd >= 0, "open %s", path);
		unsigned char byte;
		CHECK(S_READ(fd, &byte, 1) == (c->size ? 1 : 0), "first read of %s", path);
		struct respec_io_info info = info_of(fd);
		CHECK(info.strategy == c->expect, "%s: strategy %s, expected %s (%s)", c->name,
		      strategy_name(info.strategy), strategy_name(c->expect),
		      info.why_generic ? info.why_generic : "specialized");
		S_CLOSE(fd);

		struct stats st = {0, 0};
		for (int round = 0; round < 6; round++)
			run_ops(path, c, seed + 1000 * i + round + 1, 2500, s_buf, r_buf, buf_size, &st);
		printf("%-14s %9llu bytes  %-6s  %6llu ops, %5.1f%% specialized\n", c->name,
		       (unsigned long long)c->size, strategy_name(c->expect),
		       (unsigned long long)st.ops, 100.0 * (double)st.specialized_ops / (double)st.ops);
		if (c->expect != RESPEC_IO_KERNEL)
			CHECK(st.specialized_ops * 2 > st.ops, "%s: specialized in only %llu of %llu ops",
			      c->name, (unsigned long long)st.specialized_ops, (unsigned long long)st.ops);
		unlink(path);
	}
	set_hints(0);
	free(s_buf);
	free(r_buf);
	printf("PASS\n");
	return 0;
}
