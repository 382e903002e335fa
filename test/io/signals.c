/*
 * signals.c — signals during reads, under the shim. A timer interrupts a loop
 * of 8-byte reads every 20 µs; its handler reads the same descriptor too
 * (read is async-signal-safe), so handler reads land inside interrupted
 * specialized reads. Every 8-byte word of the file must be read exactly once
 * overall. Variations: handlers without SA_RESTART (reads of a regular file
 * are never interrupted with EINTR); a handler that dups the descriptor (a
 * guard firing inside an interrupted read); a writer's open (lease break)
 * during the storm.
 *
 * Run with LD_PRELOAD=librespec-io-preload.so.
 */
#include "iotest.h"

#include <signal.h>
#include <stdatomic.h>
#include <sys/time.h>
#include <sys/wait.h>

enum { WORDS = 1 << 18, SIZE = WORDS * 8 };

static const char *path = "signals.dat";
static int fd = -1;
static _Atomic int seen[WORDS];
static volatile sig_atomic_t handler_reads, handler_errors, dup_in_handler, dups_done;
/* When not -1: told, by a byte, once the descriptor is specialized (a writer waits). */
static int specialized_pipe = -1;

static void record(uint64_t word)
{
	if (word % 8 != 0 || word >= SIZE || atomic_fetch_add(&seen[word / 8], 1) != 0)
		handler_errors++;
}

static void on_timer(int sig)
{
	(void)sig;
	if (fd < 0)
		return;
	int saved = errno;
	uint64_t word;
	ssize_t n = read(fd, &word, 8);
	if (n == 8) {
		record(word);
		handler_reads++;
	} else if (n != 0) {
		handler_errors++;
	}
	if (dup_in_handler && !dups_done) {
		int copy = dup(fd);
		if (copy >= 0) {
			dups_done = 1;
			close(copy);
		}
	}
	errno = saved;
}

static void start_timer(bool restart)
{
	struct sigaction action = {0};
	action.sa_handler = on_timer;
	action.sa_flags = restart ? SA_RESTART : 0;
	sigemptyset(&action.sa_mask);
	CHECK(sigaction(SIGALRM, &action, NULL) == 0, "sigaction");
	struct itimerval every = {{0, 20}, {0, 20}};
	CHECK(setitimer(ITIMER_REAL, &every, NULL) == 0, "setitimer");
}

static void stop_timer(void)
{
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_IGN);
}

/* Reads the file to the end in 8-byte reads (slowed down a little so the
 * storm has time), then checks that every word came exactly once. */
static void read_all(const char *what, bool restart)
{
	memset((void *)seen, 0, sizeof seen);
	handler_reads = handler_errors = 0;
	fd = open(path, O_RDONLY);
	uint64_t word;
	CHECK(read(fd, &word, 8) == 8, "%s: first read", what);
	record(word);
	CHECK(shim_info(fd).specialized, "%s: not specialized", what);
	if (specialized_pipe >= 0) {
		CHECK(write(specialized_pipe, "", 1) == 1, "%s: telling the writer", what);
		close(specialized_pipe);
		specialized_pipe = -1;
	}
	start_timer(restart);
	int generic_since = -1;
	for (int round = 0;; round++) {
		ssize_t n = read(fd, &word, 8);
		CHECK(n >= 0, "%s: read returned %zd, errno %d", what, n, errno);
		if (n == 0)
			break;
		CHECK(n == 8, "%s: short read %zd", what, n);
		record(word);
		if (round % 64 == 0)
			for (volatile int spin = 0; spin < 200; spin++)
				;
		/* Once back on read(2) there is nothing left to storm. */
		if (round % 1024 == 0 && generic_since < 0 && !shim_info(fd).specialized)
			generic_since = round;
		if (generic_since >= 0 && round == generic_since + 4096)
			stop_timer();
	}
	stop_timer();
	close(fd);
	fd = -1;
	CHECK(handler_errors == 0, "%s: %d bad reads in handlers", what, (int)handler_errors);
	for (int i = 0; i < WORDS; i++)
		CHECK(atomic_load(&seen[i]) == 1, "%s: word %d read %d times", what, i,
		      atomic_load(&seen[i]));
	CHECK(handler_reads > 10, "%s: only %d handler reads", what, (int)handler_reads);
	printf("%s: %d of %d words read by signal handlers\n", what, (int)handler_reads, WORDS);
}

int main(void)
{
	free(make_file(path, SIZE, 0));

	read_all("SA_RESTART handler reading the same descriptor", true);
	read_all("handler without SA_RESTART", false);

	dup_in_handler = 1;
	dups_done = 0;
	read_all("handler that dups the descriptor", true);
	CHECK(dups_done, "the handler never dup'd");
	dup_in_handler = 0;

	/* A writer's open during the storm: the lease breaks mid-read. The writer waits
	 * until the descriptor is specialized (slow under a sanitizer), then a little. */
	int specialized[2];
	CHECK(pipe(specialized) == 0, "pipe");
	pid_t writer = fork();
	if (writer == 0) {
		char byte;
		close(specialized[1]);
		if (read(specialized[0], &byte, 1) != 1)
			_exit(1);
		usleep(3000);
		int w = open(path, O_WRONLY);
		_exit(w >= 0 ? 0 : 1);
	}
	close(specialized[0]);
	specialized_pipe = specialized[1];
	read_all("lease break during the storm", true);
	int status;
	CHECK(waitpid(writer, &status, 0) == writer && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "writer");
	unlink(path);
	printf("PASS\n");
	return 0;
}
