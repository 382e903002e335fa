/*
 * writer.c — the READ_ONLY guard: a writer process opens, modifies, truncates
 * or grows a file while a specialized reader reads it. After the writer's open
 * (or truncate) has returned, every read must show kernel semantics: new bytes,
 * the new size, no stale byte; before it, each byte is the old or the new one.
 * The writer's open must return promptly (the lease break is handled, not left
 * to the kernel's 45 s lease-break-time), and a file already open for writing
 * must not be specialized at all. Uses the API; the writers are plain libc.
 */
#include "iotest.h"

#include <poll.h>
#include <sys/wait.h>
#include <time.h>

enum { FILE_SIZE = 4 << 20, CHUNK = 4096 };

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct writer {
	pid_t pid;
	int command; /* parent -> writer */
	int report;  /* writer -> parent */
};

static void send_byte(int fd, char c)
{
	CHECK(write(fd, &c, 1) == 1, "pipe write");
}

static char receive_byte(int fd)
{
	char c;
	CHECK(read(fd, &c, 1) == 1, "pipe read");
	return c;
}

static bool byte_ready(int fd)
{
	struct pollfd p = {fd, POLLIN, 0};
	return poll(&p, 1, 0) == 1;
}

/* The writer waits for a command letter, acts on `path`, then reports how
 * long its open (or truncate) took, in microseconds, and 'd'. */
static struct writer start_writer(const char *path, const unsigned char *new_bytes, size_t size)
{
	int to_child[2], to_parent[2];
	CHECK(pipe(to_child) == 0 && pipe(to_parent) == 0, "pipe");
	pid_t pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		for (;;) {
			char command;
			if (read(to_child[0], &command, 1) != 1)
				_exit(0);
			double start = now_s();
			int fd = -1;
			switch (command) {
			case 'w': /* open for writing, overwrite everything */
				fd = open(path, O_WRONLY);
				break;
			case 't': /* truncate by path to a quarter */
				CHECK(truncate(path, (off_t)size / 4) == 0, "truncate");
				break;
			case 'T': /* open with O_TRUNC */
				fd = open(path, O_WRONLY | O_TRUNC);
				break;
			case 'a': /* append */
				fd = open(path, O_WRONLY | O_APPEND);
				break;
			case 'h': /* hold open for writing until told again */
				fd = open(path, O_RDWR);
				break;
			}
			int waited_us = (int)((now_s() - start) * 1e6);
			if (command == 'w')
				CHECK(pwrite(fd, new_bytes, size, 0) == (ssize_t)size, "pwrite");
			if (command == 'a')
				CHECK(write(fd, new_bytes, size) == (ssize_t)size, "append");
			if (command == 'h') {
				CHECK(write(to_parent[1], &waited_us, sizeof waited_us) == sizeof waited_us, "report");
				send_byte(to_parent[1], 'd');
				receive_byte(to_child[0]); /* release */
			}
			if (fd >= 0)
				close(fd);
			if (command != 'h') {
				CHECK(write(to_parent[1], &waited_us, sizeof waited_us) == sizeof waited_us, "report");
				send_byte(to_parent[1], 'd');
			}
		}
	}
	close(to_child[0]);
	close(to_parent[1]);
	return (struct writer){pid, to_child[1], to_parent[0]};
}

static int writer_report(struct writer *w)
{
	int waited_us;
	CHECK(read(w->report, &waited_us, sizeof waited_us) == sizeof waited_us, "report");
	CHECK(receive_byte(w->report) == 'd', "writer done");
	return waited_us;
}

static void stop_writer(struct writer *w)
{
	close(w->command);
	close(w->report);
	waitpid(w->pid, NULL, 0);
}

static int open_specialized(const char *path)
{
	int fd = respec_io_open(path, O_RDONLY);
	CHECK(fd >= 0, "open %s", path);
	unsigned char b;
	CHECK(respec_io_read(fd, &b, 1) == 1, "first read");
	struct respec_io_info info;
	respec_io_info(fd, &info);
	CHECK(info.specialized && info.guard == RESPEC_IO_GUARD_LEASE, "%s not specialized under a lease: %s",
	      path, info.why_generic ? info.why_generic : "?");
	return fd;
}

/* A writer overwrites the file while the reader reads it front to back. */
static void overwrite_while_reading(void)
{
	const char *path = "writer-overwrite.dat";
	unsigned char *old_bytes = make_file(path, FILE_SIZE, 11);
	unsigned char *new_bytes = malloc(FILE_SIZE);
	uint64_t rng = 99;
	for (size_t i = 0; i < FILE_SIZE; i++)
		new_bytes[i] = (unsigned char)(test_rand(&rng) | 1) ^ old_bytes[i]; /* differs everywhere */
	struct writer w = start_writer(path, new_bytes, FILE_SIZE);
	int fd = open_specialized(path);
	unsigned char buf[CHUNK];
	size_t at = 1, after = 0;
	bool started = false, written = false;
	while (at < FILE_SIZE) {
		if (!started && at > FILE_SIZE / 4) {
			send_byte(w.command, 'w');
			started = true;
		}
		if (started && !written && byte_ready(w.report)) {
			int waited_us = writer_report(&w);
			CHECK(waited_us < 2000000, "the writer's open waited %d us", waited_us);
			written = true;
			struct respec_io_info info;
			respec_io_info(fd, &info);
			CHECK(!info.specialized, "still specialized after the writer's open returned");
			printf("overwrite: writer's open returned after %d us at reader offset %zu\n",
			       waited_us, at);
		}
		ssize_t n = respec_io_read(fd, buf, CHUNK);
		CHECK(n > 0, "read at %zu: %zd", at, n);
		for (ssize_t i = 0; i < n; i++) {
			unsigned char b = buf[i];
			if (written)
				CHECK(b == new_bytes[at + i], "stale byte at %zu after the writer's open returned",
				      at + (size_t)i);
			else
				CHECK(b == new_bytes[at + i] || b == old_bytes[at + i], "byte at %zu is neither",
				      at + (size_t)i);
		}
		at += (size_t)n;
		if (written)
			after += (size_t)n;
		/* Give the writer time to get going before the reader ends. */
		if (started && !written && at > FILE_SIZE / 2)
			usleep(1000);
	}
	CHECK(written && after > 0, "the writer finished only after the reader (at %zu)", at);
	CHECK(respec_io_read(fd, buf, CHUNK) == 0, "end of file");
	respec_io_close(fd);
	stop_writer(&w);
	free(old_bytes);
	free(new_bytes);
	unlink(path);
}

/* Truncation (by path, and by O_TRUNC) and growth (O_APPEND) mid-read: after
 * the writer returns, the reader sees exactly what a fresh read(2) at its
 * offset sees. */
static void size_changes(char command, const char *name)
{
	char path[64];
	snprintf(path, sizeof path, "writer-%s.dat", name);
	unsigned char *bytes = make_file(path, FILE_SIZE, 21);
	struct writer w = start_writer(path, bytes, FILE_SIZE);
	int fd = open_specialized(path);
	size_t start = command == 'a' ? FILE_SIZE : FILE_SIZE / 2;
	CHECK(respec_io_lseek(fd, (off_t)start, SEEK_SET) == (off_t)start, "seek");
	unsigned char buf[CHUNK], expect[CHUNK];
	if (command == 'a')
		CHECK(respec_io_read(fd, buf, CHUNK) == 0, "end of file before the append");
	send_byte(w.command, command);
	int waited_us = writer_report(&w);
	CHECK(waited_us < 2000000, "%s: the writer waited %d us", name, waited_us);
	int reference = open(path, O_RDONLY);
	off_t at = respec_io_lseek(fd, 0, SEEK_CUR);
	CHECK(at == (off_t)start, "%s: offset %lld, expected %zu", name, (long long)at, start);
	size_t total = 0;
	for (;;) {
		ssize_t n = respec_io_read(fd, buf, CHUNK);
		ssize_t m = pread(reference, expect, CHUNK, at);
		CHECK(n == m, "%s: read %zd at %lld, read(2) gives %zd", name, n, (long long)at, m);
		if (n <= 0)
			break;
		CHECK(memcmp(buf, expect, (size_t)n) == 0, "%s: bytes at %lld", name, (long long)at);
		at += n;
		total += (size_t)n;
	}
	if (command == 'a')
		CHECK(total == FILE_SIZE, "%s: read %zu appended bytes", name, total);
	printf("%s: writer waited %d us; reader then read %zu bytes like read(2)\n", name, waited_us,
	       total);
	close(reference);
	respec_io_close(fd);
	stop_writer(&w);
	free(bytes);
	unlink(path);
}

/* Opens for writing in this very process, through the library and around it. */
static void writer_in_process(void)
{
	const char *path = "writer-self.dat";
	unsigned char *bytes = make_file(path, FILE_SIZE, 31);
	int fd = open_specialized(path);
	double start = now_s();
	int wfd = respec_io_open(path, O_WRONLY);
	double through_api = now_s() - start;
	CHECK(wfd >= 0, "open for writing");
	struct respec_io_info info;
	respec_io_info(fd, &info);
	CHECK(!info.specialized, "specialized while this process writes the file");
	CHECK(pwrite(wfd, "XYZ", 3, 1) == 3, "pwrite");
	unsigned char buf[4];
	CHECK(respec_io_read(fd, buf, 3) == 3 && memcmp(buf, "XYZ", 3) == 0, "sees its own write");
	respec_io_close(wfd);
	respec_io_close(fd);

	/* Around the library: the lease break comes back through the guard thread. */
	fd = open_specialized(path);
	start = now_s();
	wfd = open(path, O_RDWR);
	double around_api = now_s() - start;
	CHECK(wfd >= 0, "open for writing");
	CHECK(pwrite(wfd, "abc", 3, 1) == 3, "pwrite");
	CHECK(respec_io_read(fd, buf, 3) == 3 && memcmp(buf, "abc", 3) == 0, "sees the write");
	close(wfd);
	respec_io_close(fd);
	CHECK(around_api < 2.0, "open for writing waited %.3f s", around_api);
	printf("in-process writer: open waited %.0f us via the API, %.0f us around it\n",
	       through_api * 1e6, around_api * 1e6);
	free(bytes);
	unlink(path);
}

/* A file open for writing elsewhere is never specialized (no lease possible). */
static void already_open_for_writing(void)
{
	const char *path = "writer-held.dat";
	unsigned char *bytes = make_file(path, FILE_SIZE, 41);
	struct writer w = start_writer(path, bytes, FILE_SIZE);
	send_byte(w.command, 'h');
	writer_report(&w);
	int fd = respec_io_open(path, O_RDONLY);
	unsigned char b;
	CHECK(respec_io_read(fd, &b, 1) == 1, "read");
	struct respec_io_info info;
	respec_io_info(fd, &info);
	CHECK(!info.specialized, "specialized although open for writing elsewhere");
	printf("held open for writing elsewhere: %s\n", info.why_generic);
	send_byte(w.command, 'r');
	respec_io_close(fd);
	stop_writer(&w);
	free(bytes);
	unlink(path);
}

int main(void)
{
	overwrite_while_reading();
	size_changes('t', "truncate");
	size_changes('T', "o-trunc");
	size_changes('a', "append");
	writer_in_process();
	already_open_for_writing();
	struct respec_io_stats stats;
	respec_io_get_stats(&stats);
	CHECK(stats.lease_breaks >= 5, "only %llu lease breaks seen", (unsigned long long)stats.lease_breaks);
	printf("PASS\n");
	return 0;
}
