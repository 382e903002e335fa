/*
 * memguard_report.c — MemGuard's reports: what a trap handler records, and the
 * reporter thread that turns records into messages.
 *
 * In the handler (async-signal context) only async-signal-safe work is done:
 * copying names into a fixed-size record, backtrace(3) (its one unsafe step,
 * loading the unwinder, is done ahead by respec__report_start), and one
 * write(2) of the record to a pipe, atomic because a record is smaller than
 * PIPE_BUF. A full pipe drops the record (counted as done, never blocking the
 * writer). The reporter thread reads records, symbolizes each frame with
 * dladdr and addr2line (file:line, cached per address) and writes the message
 * to the report descriptor.
 */
#include "internal.h"
#include "respec/memguard.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static _Atomic int report_fd = 2;
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static bool started;
static int pipe_fds[2] = {-1, -1};
/* Records queued by handlers, and records written or dropped. */
static _Atomic uint64_t queued, done;
static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;

void respec_memguard_set_report_fd(int fd)
{
	atomic_store_explicit(&report_fd, fd, memory_order_relaxed);
}

bool respec__reports_on(void)
{
	return atomic_load_explicit(&report_fd, memory_order_relaxed) >= 0;
}

static void copy_name(char *to, size_t size, const char *from)
{
	size_t n = 0;
	while (from[n] && n + 1 < size) {
		to[n] = from[n];
		n++;
	}
	to[n] = '\0';
}

void respec__report_name(struct respec__report *r, const char *term, respec_predicate *pred,
			 const char *what)
{
	copy_name(r->term, sizeof r->term, term);
	copy_name(r->pred, sizeof r->pred, respec_predicate_name(pred));
	copy_name(r->what, sizeof r->what, what);
}

void respec__report_fill(struct respec__report *r, const char *term, respec_predicate *pred,
			 const char *what, uintptr_t addr, uintptr_t pc, bool pc_exact)
{
	respec__report_name(r, term, pred, what);
	r->addr = addr;
	r->tid = syscall(SYS_gettid);
	/* Frame 0 is the store: the faulting instruction itself, or the one before
	 * the trap's PC. Callers are return addresses: minus one is in the call. */
	r->frames[0] = pc_exact ? pc : pc - 1;
	r->nframes = 1;
	void *stack[RESPEC_REPORT_FRAMES + 8];
	int n = backtrace(stack, RESPEC_REPORT_FRAMES + 8);
	int i = 0;
	while (i < n && (uintptr_t)stack[i] != pc)
		i++;
	for (i++; i < n && r->nframes < RESPEC_REPORT_FRAMES; i++)
		r->frames[r->nframes++] = (uintptr_t)stack[i] - 1;
}

void respec__report_queue(const struct respec__report *r)
{
	atomic_fetch_add_explicit(&queued, 1, memory_order_relaxed);
	if (write(pipe_fds[1], r, sizeof *r) != (ssize_t)sizeof *r)
		atomic_fetch_add_explicit(&done, 1, memory_order_release);
}

/* Runs addr2line -f -C -e FILE ADDR; two lines (function, file:line) in OUT. */
static bool run_addr2line(const char *file, uintptr_t offset, char *out, size_t size)
{
	char addr[32];
	snprintf(addr, sizeof addr, "0x%lx", (unsigned long)offset);
	char *argv[] = {"addr2line", "-f", "-C", "-e", (char *)file, addr, NULL};
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		return false;
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
	posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int err = posix_spawnp(&pid, "addr2line", &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	close(fds[1]);
	size_t len = 0;
	while (!err && len + 1 < size) {
		ssize_t n = read(fds[0], out + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fds[0]);
	out[len] = '\0';
	int status = 0;
	if (!err)
		waitpid(pid, &status, 0);
	return !err && WIFEXITED(status) && WEXITSTATUS(status) == 0 && len > 0;
}

/* "function at file:line", or what dladdr knows when there is no line table. */
static void symbolize(uintptr_t pc, char *out, size_t size)
{
	Dl_info info;
	struct link_map *map = NULL;
	if (!dladdr1((void *)pc, &info, (void **)&map, RTLD_DL_LINKMAP) || !map) {
		snprintf(out, size, "??");
		return;
	}
	/* The main program has no name in the link map; addr2line runs in another
	 * process, so /proc/self/exe is resolved here. */
	static char exe[512];
	if (!exe[0]) {
		ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
		exe[n > 0 ? n : 0] = '\0';
	}
	const char *file = map->l_name && map->l_name[0] ? map->l_name : exe;
	uintptr_t offset = pc - map->l_addr;
	char text[512];
	char *where = NULL;
	if (run_addr2line(file, offset, text, sizeof text) && (where = strchr(text, '\n'))) {
		*where++ = '\0';
		where[strcspn(where, "\n")] = '\0';
		if (strncmp(where, "??", 2) == 0)
			where = NULL;
	}
	const char *function = where ? text : info.dli_sname ? info.dli_sname : "??";
	if (where)
		snprintf(out, size, "%.200s at %.300s", function, where);
	else
		snprintf(out, size, "%.200s (%.280s+0x%lx)", function, info.dli_fname ? info.dli_fname : file,
			 (unsigned long)offset);
}

/* Symbolizing costs a process: remember the last addresses seen. */
#define SYMBOL_CACHE 64
static struct {
	uintptr_t pc;
	char text[512];
} symbol_cache[SYMBOL_CACHE];

static const char *symbol(uintptr_t pc)
{
	size_t slot = (pc >> 2) % SYMBOL_CACHE;
	if (symbol_cache[slot].pc != pc) {
		symbolize(pc, symbol_cache[slot].text, sizeof symbol_cache[slot].text);
		symbol_cache[slot].pc = pc;
	}
	return symbol_cache[slot].text;
}

static void print_report(const struct respec__report *r)
{
	int fd = atomic_load_explicit(&report_fd, memory_order_relaxed);
	if (fd < 0)
		return;
	char message[4096];
	size_t len = (size_t)snprintf(message, sizeof message,
				      "respec memguard: unguarded write to term \"%s\" of predicate \"%s\" "
				      "at %p by thread %ld (%s)\n",
				      r->term, r->pred, (void *)r->addr, r->tid, r->what);
	for (unsigned i = 0; i < r->nframes && len < sizeof message; i++)
		len += (size_t)snprintf(message + len, sizeof message - len, "    #%u 0x%lx %s\n", i,
					(unsigned long)r->frames[i], symbol(r->frames[i]));
	if (len > sizeof message - 1)
		len = sizeof message - 1;
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, message + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
}

static void *reporter(void *arg)
{
	(void)arg;
	struct respec__report r;
	for (;;) {
		ssize_t n = read(pipe_fds[0], &r, sizeof r);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof r)
			return NULL;
		print_report(&r);
		pthread_mutex_lock(&done_lock);
		/* Release pairs with the acquire load in respec_memguard_flush. */
		atomic_fetch_add_explicit(&done, 1, memory_order_release);
		pthread_cond_broadcast(&done_cond);
		pthread_mutex_unlock(&done_lock);
	}
}

void respec__report_start(void)
{
	pthread_mutex_lock(&start_lock);
	if (!started && pipe2(pipe_fds, O_CLOEXEC) == 0) {
		fcntl(pipe_fds[1], F_SETFL, O_NONBLOCK);
		void *warm[4];
		backtrace(warm, 4); /* loads the unwinder now, not in a handler */
		started = respec__start_detached_thread(reporter);
		if (!started) { /* nobody would read it: queued reports count as dropped */
			close(pipe_fds[0]);
			close(pipe_fds[1]);
			pipe_fds[0] = pipe_fds[1] = -1;
		}
	}
	pthread_mutex_unlock(&start_lock);
}

void respec_memguard_flush(void)
{
	uint64_t target = atomic_load_explicit(&queued, memory_order_relaxed);
	pthread_mutex_lock(&done_lock);
	/* Dropped records are counted without the lock: wait in short steps. */
	while (atomic_load_explicit(&done, memory_order_acquire) < target) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 10 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&done_cond, &done_lock, &until);
	}
	pthread_mutex_unlock(&done_lock);
}

/* The reporter thread does not exist in a fork child. */
void respec__report_fork_child(void)
{
	if (started) {
		close(pipe_fds[0]);
		close(pipe_fds[1]);
		pipe_fds[0] = pipe_fds[1] = -1;
	}
	started = false;
	atomic_store_explicit(&queued, 0, memory_order_relaxed);
	atomic_store_explicit(&done, 0, memory_order_relaxed);
	pthread_mutex_init(&done_lock, NULL);
	pthread_cond_init(&done_cond, NULL);
	pthread_mutex_init(&start_lock, NULL);
}
