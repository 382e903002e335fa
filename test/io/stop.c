/*
 * stop.c — a process told to stop gives its leases back first (io/lease.c): a
 * reader stopped by SIGTSTP (or SIGTTIN) while it holds a lease does not hold
 * up a writer's open for the kernel's lease-break-time (45 s), and once
 * continued it reads what the writer wrote. A program's own SIGTSTP handler is
 * left alone.
 */
#include "iotest.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The reader: takes a lease, says so, waits to be told to go on (stopped and
 * continued meanwhile), then reports what it reads at offset 0 and why the
 * descriptor went back to read(2). */
static void reader(const char *path, int ready, int go, int result)
{
	int fd = respec_io_open(path, O_RDONLY);
	uint64_t word;
	CHECK(respec_io_read(fd, &word, 8) == 8 && respec_io_read(fd, &word, 8) == 8, "read");
	struct respec_io_info info;
	CHECK(respec_io_info(fd, &info) == 0 && info.specialized && info.guard == RESPEC_IO_GUARD_LEASE,
	      "no lease: %s", info.why_generic ? info.why_generic : "?");
	CHECK(write(ready, "r", 1) == 1, "ready");
	char byte;
	while (read(go, &byte, 1) != 1)
		; /* interrupted by the stop handler: SA_RESTART, or EINTR */
	CHECK(respec_io_pread(fd, &word, 8, 0) == 8, "pread after continuing");
	respec_io_info(fd, &info);
	char report[256];
	int n = snprintf(report, sizeof report, "%016llx %s", (unsigned long long)word,
			 info.why_generic ? info.why_generic : "still specialized");
	CHECK(write(result, report, (size_t)n) == n, "result");
	exit(0);
}

/* A step that hangs (the writer's open waiting out lease-break-time, a reader
 * that does not stop) fails the test, and takes the reader along (stopped, it
 * would hold the test's output open). */
static pid_t stopped_reader;
static void waited_too_long(int sig)
{
	(void)sig;
	static const char message[] = "stop.c: timed out (the writer's open waited for the "
				      "stopped reader, or the reader did not stop)\n";
	kill(stopped_reader, SIGKILL);
	(void)!write(2, message, sizeof message - 1);
	_exit(1);
}

static void stop_and_write(const char *path, int sig)
{
	int ready[2], go[2], result[2];
	CHECK(pipe(ready) == 0 && pipe(go) == 0 && pipe(result) == 0, "pipes");
	pid_t child = fork();
	if (child == 0) {
		/* A process group of its own, whose parent (this test) is in another
		 * group of the session: not orphaned, so the kernel does not discard
		 * the stop signals (as it would if ctest's group were orphaned). */
		setpgid(0, 0);
		reader(path, ready[1], go[0], result[1]);
	}
	setpgid(child, child);
	stopped_reader = child;
	signal(SIGALRM, waited_too_long);
	alarm(20);
	char byte;
	CHECK(read(ready[0], &byte, 1) == 1, "reader not ready");

	int status;
	CHECK(kill(child, sig) == 0 && waitpid(child, &status, WUNTRACED) == child &&
	      WIFSTOPPED(status), "reader did not stop");
	/* Without the lease given back, this open waits lease-break-time (45 s);
	 * the alarm fails the test long before. */
	double start = now_s();
	int fd = open(path, O_WRONLY);
	double waited = now_s() - start;
	CHECK(fd >= 0 && waited < 5, "writer's open took %.1f s", waited);
	uint64_t fresh = 0xfeedface00000000ull | (unsigned)sig;
	CHECK(pwrite(fd, &fresh, 8, 0) == 8 && close(fd) == 0, "write");

	CHECK(kill(child, SIGCONT) == 0 && write(go[1], "g", 1) == 1, "continue");
	char report[256] = {0};
	CHECK(read(result[0], report, sizeof report - 1) > 0, "no result");
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "reader failed");
	alarm(0);
	char expected[32];
	snprintf(expected, sizeof expected, "%016llx", (unsigned long long)fresh);
	CHECK(strncmp(report, expected, 16) == 0, "stale read after continuing: %s", report);
	CHECK(strstr(report, "stopped") != NULL, "why generic: %s", report + 17);
	printf("signal %d: the writer's open took %.0f µs; %s\n", sig, waited * 1e6, report + 17);
	for (int i = 0; i < 2; i++) {
		close(ready[i]);
		close(go[i]);
		close(result[i]);
	}
}

static void own_handler(int sig)
{
	(void)sig;
}

int main(void)
{
	const char *path = "stop.dat";
	free(make_file(path, 1 << 20, 0));
	stop_and_write(path, SIGTSTP);
	stop_and_write(path, SIGTTIN);

	/* A program's own handler stays its own. */
	signal(SIGTSTP, own_handler);
	int fd = respec_io_open(path, O_RDONLY);
	uint64_t word;
	CHECK(respec_io_read(fd, &word, 8) == 8 && respec_io_read(fd, &word, 8) == 8, "read");
	struct sigaction now;
	CHECK(sigaction(SIGTSTP, NULL, &now) == 0 && now.sa_handler == own_handler,
	      "the program's SIGTSTP handler was replaced");
	respec_io_close(fd);
	unlink(path);
	return 0;
}
