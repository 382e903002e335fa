/*
 * file_observer.c — librespec-profile-files.so: what a program does with the
 * files it reads, for `respec profile report` (LD_PRELOAD it; `respec profile
 * --preload` prints its path).
 *
 * The I/O case study's predicates are facts about a file's state, not values a
 * load sees: the descriptor's offset is nobody else's (no dup, no fork while it
 * is open, one reading thread), the file is read-only to this process, and it
 * is read in sequence. librespec-io (io/) specializes read(2) on them. Whether
 * they held in a run is seen at the system-call interface, so this library
 * interposes the calls that make or break them, in the program unmodified:
 *
 *   open, open64, openat, openat64, __open_2, __open64_2
 *       a read-only open of a regular file starts tracking the descriptor (its
 *       path, its size)
 *   read     counts calls, bytes, and the offset it expects next
 *   pread, pread64   counted apart: they neither need nor move the offset
 *   lseek, lseek64   a seek to anywhere but the expected offset counts as one
 *            elsewhere (the sequence is broken; librespec-io follows it with a
 *            store, so it is a cost, not a break)
 *   dup, dup2, dup3, fcntl(F_DUPFD*), fork
 *            share the offset: the predicate breaks (counted per file)
 *   close    stops tracking
 *   a read by another thread than the descriptor's first reader: counted
 *
 * Calls inside libc (stdio's fread reaches read(2) through an internal alias)
 * are not seen: what is seen is what the program calls, which is what
 * librespec-io's shim interposes too. Counters are per path, summed over its
 * opens; opens, closes, seeks and shares take one lock, reads none (read()
 * says why). At exit the process writes "file" records (with the time their
 * reads spent in the system call), and a "process" record with its CPU time
 * (what the report's predicted speedup divides) and the observer's own share
 * of it (measured: observer_cost), to
 * $RESPEC_PROFILE_OUT ("%p": the process id; default respec-profile.%p.txt),
 * or to that name plus ".files" in a program also built with the value
 * profiling, whose runtime writes the first (profile/ProfileReport.h has the
 * format), with librespec-io's cost constants for this machine when librespec-io
 * has measured them (an "iocosts" record, from its cache: io/costs_cache.c). A
 * forked child starts from zero; a process that ends in _exit or a signal
 * writes nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "costs_cache.h"

#define TRACKED_FDS 4096
#define TRACKED_FILES 512

struct file_stats {
	char path[1024];
	uint64_t opens, reads, bytes, preads, seeks_elsewhere, shares, foreign_reads, size;
	uint64_t read_ticks; /* time stamp counter ticks spent in read(2) */
};

struct open_file {
	struct file_stats *file; /* NULL: not tracked */
	int64_t expected;        /* the offset the next read starts at */
	unsigned reader;         /* the first reading thread's number, 0 before */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct file_stats files[TRACKED_FILES];
static unsigned nfiles;
static struct open_file fds[TRACKED_FDS];
static atomic_uint threads;
static _Thread_local unsigned this_thread;

static unsigned thread_number(void)
{
	if (!this_thread)
		this_thread = atomic_fetch_add(&threads, 1) + 1;
	return this_thread;
}

/* The next definition of a symbol this library interposes. */
static void *real(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);
	if (!fn) {
		fprintf(stderr, "respec profile: the files observer finds no %s\n", name);
		abort();
	}
	return fn;
}
/* real_NAME: the definition this one interposes, typed as libc declares it. */
#define REAL(name) \
	static __typeof__(&name) real_##name; \
	if (!real_##name) \
		real_##name = (__typeof__(&name))real(#name)

static struct open_file *tracked(int fd)
{
	return fd >= 0 && fd < TRACKED_FDS && fds[fd].file ? &fds[fd] : NULL;
}

static struct file_stats *stats_for(const char *path)
{
	for (unsigned i = 0; i < nfiles; i++)
		if (strcmp(files[i].path, path) == 0)
			return &files[i];
	if (nfiles == TRACKED_FILES || strlen(path) >= sizeof files[0].path)
		return NULL; /* untracked rather than merged with another */
	struct file_stats *f = &files[nfiles++];
	memcpy(f->path, path, strlen(path) + 1);
	return f;
}

/* After an open that returned fd: tracks a regular file opened read-only. */
static int opened(int fd, const char *path, int flags)
{
	if (fd < 0 || fd >= TRACKED_FDS || (flags & O_ACCMODE) != O_RDONLY ||
	    (flags & (O_PATH | O_DIRECTORY)))
		return fd;
	int saved = errno;
	struct stat st;
	char absolute[PATH_MAX], link[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, absolute, sizeof absolute - 1);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		if (n > 0)
			absolute[n] = '\0';
		else
			snprintf(absolute, sizeof absolute, "%s", path); /* no /proc */
		pthread_mutex_lock(&lock);
		struct file_stats *f = stats_for(absolute);
		if (f) {
			f->opens++;
			f->size = (uint64_t)st.st_size > f->size ? (uint64_t)st.st_size : f->size;
			fds[fd].expected = 0;
			fds[fd].reader = 0;
			__atomic_store_n(&fds[fd].file, f, __ATOMIC_RELAXED); /* read() loads it */
		}
		pthread_mutex_unlock(&lock);
	}
	errno = saved;
	return fd;
}

static int mode_of(int flags, va_list args)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(args, int) : 0;
}

int open(const char *path, int flags, ...)
{
	REAL(open);
	va_list args;
	va_start(args, flags);
	int mode = mode_of(flags, args);
	va_end(args);
	return opened(real_open(path, flags, mode), path, flags);
}

int open64(const char *path, int flags, ...)
{
	REAL(open64);
	va_list args;
	va_start(args, flags);
	int mode = mode_of(flags, args);
	va_end(args);
	return opened(real_open64(path, flags, mode), path, flags);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	REAL(openat);
	va_list args;
	va_start(args, flags);
	int mode = mode_of(flags, args);
	va_end(args);
	return opened(real_openat(dirfd, path, flags, mode), path, flags);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	REAL(openat64);
	va_list args;
	va_start(args, flags);
	int mode = mode_of(flags, args);
	va_end(args);
	return opened(real_openat64(dirfd, path, flags, mode), path, flags);
}

/* _FORTIFY_SOURCE's checked opens (no mode: O_CREAT would not come here). */
int __open_2(const char *path, int flags)
{
	REAL(__open_2);
	return opened(real___open_2(path, flags), path, flags);
}

int __open64_2(const char *path, int flags)
{
	REAL(__open64_2);
	return opened(real___open64_2(path, flags), path, flags);
}

/* Adds to a counter without a lock or a read-modify-write instruction: only a
 * second thread reading the same descriptor races with it, and that read is
 * counted as foreign (the predicate is broken) whatever sum the race leaves. */
static void add(uint64_t *counter, uint64_t n)
{
	__atomic_store_n(counter, __atomic_load_n(counter, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

/* What read() adds to a read of a tracked descriptor, after the system call:
 * also timed alone at exit (observer_cost). */
static void observe_read(struct open_file *o, struct file_stats *f, ssize_t n, uint64_t ticks)
{
	unsigned me = thread_number(), reader = __atomic_load_n(&o->reader, __ATOMIC_RELAXED);
	add(&f->reads, 1);
	add(&f->bytes, (uint64_t)n);
	add(&f->read_ticks, ticks);
	__atomic_store_n(&o->expected, __atomic_load_n(&o->expected, __ATOMIC_RELAXED) + n,
			 __ATOMIC_RELAXED);
	if (!reader)
		__atomic_store_n(&o->reader, me, __ATOMIC_RELAXED);
	else if (reader != me)
		add(&f->foreign_reads, 1);
}

/* The read path takes no lock, so that the profiled run's CPU time stays close
 * to the program's own; what it does add is measured at exit and reported, for
 * the report to take out. A descriptor's stats are never freed (files[] is
 * static): a close racing with this read leaves it counting into a file that
 * is still there. The time in read(2) is taken with the time stamp counter
 * (a few ns), converted at exit. */
ssize_t read(int fd, void *buffer, size_t count)
{
	REAL(read);
	struct open_file *o = fd >= 0 && fd < TRACKED_FDS ? &fds[fd] : NULL;
	struct file_stats *f = o ? __atomic_load_n(&o->file, __ATOMIC_RELAXED) : NULL;
	if (!f)
		return real_read(fd, buffer, count);
	uint64_t start = __rdtsc();
	ssize_t n = real_read(fd, buffer, count);
	uint64_t ticks = __rdtsc() - start;
	if (n >= 0)
		observe_read(o, f, n, ticks);
	return n;
}

/* What the observer costs a read of a tracked descriptor, in ticks: in all
 * (two counter reads and observe_read), and inside the timed window (one
 * counter read's worth, which read_ticks holds on top of the system call).
 * Timed on a scratch file. */
struct observer_cost {
	double per_read, in_window;
};

static struct observer_cost observer_cost(void)
{
	enum { ROUNDS = 20000 };
	static struct file_stats scratch;
	struct open_file o = { .file = &scratch };
	uint64_t start = __rdtsc();
	for (int i = 0; i < ROUNDS; i++) {
		uint64_t t = __rdtsc();
		observe_read(&o, &scratch, 1, __rdtsc() - t);
	}
	return (struct observer_cost){ (double)(__rdtsc() - start) / ROUNDS,
				       (double)scratch.read_ticks / ROUNDS };
}

static void count_pread(int fd)
{
	pthread_mutex_lock(&lock);
	struct open_file *o = tracked(fd);
	if (o)
		o->file->preads++;
	pthread_mutex_unlock(&lock);
}

ssize_t pread(int fd, void *buffer, size_t count, off_t offset)
{
	REAL(pread);
	ssize_t n = real_pread(fd, buffer, count, offset);
	if (n >= 0 && tracked(fd))
		count_pread(fd);
	return n;
}

ssize_t pread64(int fd, void *buffer, size_t count, off_t offset)
{
	REAL(pread64);
	ssize_t n = real_pread64(fd, buffer, count, offset);
	if (n >= 0 && tracked(fd))
		count_pread(fd);
	return n;
}

static off_t sought(int fd, off_t to)
{
	if (to < 0 || !tracked(fd))
		return to;
	pthread_mutex_lock(&lock);
	struct open_file *o = tracked(fd);
	if (o && o->expected != to) {
		o->file->seeks_elsewhere++;
		o->expected = to;
	}
	pthread_mutex_unlock(&lock);
	return to;
}

off_t lseek(int fd, off_t offset, int whence)
{
	REAL(lseek);
	return sought(fd, real_lseek(fd, offset, whence));
}

off_t lseek64(int fd, off_t offset, int whence)
{
	REAL(lseek64);
	return sought(fd, real_lseek64(fd, offset, whence));
}

/* A second descriptor for fd's open file (the offset is shared from now on);
 * the copy is not tracked itself. */
static int shared(int fd, int copy)
{
	if (copy < 0)
		return copy;
	pthread_mutex_lock(&lock);
	struct open_file *o = tracked(fd);
	if (o)
		o->file->shares++;
	if (copy < TRACKED_FDS && copy != fd)
		__atomic_store_n(&fds[copy].file, NULL, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&lock);
	return copy;
}

int dup(int fd)
{
	REAL(dup);
	return shared(fd, real_dup(fd));
}

int dup2(int fd, int to)
{
	REAL(dup2);
	return shared(fd, real_dup2(fd, to));
}

int dup3(int fd, int to, int flags)
{
	REAL(dup3);
	return shared(fd, real_dup3(fd, to, flags));
}

int fcntl(int fd, int command, ...)
{
	REAL(fcntl);
	va_list args;
	va_start(args, command);
	void *argument = va_arg(args, void *); /* every fcntl argument fits a word */
	va_end(args);
	int result = real_fcntl(fd, command, argument);
	if (command == F_DUPFD || command == F_DUPFD_CLOEXEC)
		return shared(fd, result);
	return result;
}

int fcntl64(int fd, int command, ...)
{
	REAL(fcntl64);
	va_list args;
	va_start(args, command);
	void *argument = va_arg(args, void *);
	va_end(args);
	int result = real_fcntl64(fd, command, argument);
	if (command == F_DUPFD || command == F_DUPFD_CLOEXEC)
		return shared(fd, result);
	return result;
}

int close(int fd)
{
	REAL(close);
	if (fd >= 0 && fd < TRACKED_FDS) {
		pthread_mutex_lock(&lock);
		__atomic_store_n(&fds[fd].file, NULL, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&lock);
	}
	return real_close(fd);
}

/* fork shares every open descriptor's offset with the child: each file open
 * now breaks its predicate. The lock is held across it (pthread_atfork), so the
 * child's copy of the tables is consistent; the child then starts from zero. */
static void before_fork(void)
{
	pthread_mutex_lock(&lock);
	for (int fd = 0; fd < TRACKED_FDS; fd++)
		if (fds[fd].file)
			fds[fd].file->shares++;
}

static void after_fork_parent(void)
{
	pthread_mutex_unlock(&lock);
}

static void after_fork_child(void)
{
	memset(files, 0, sizeof files);
	memset(fds, 0, sizeof fds);
	nfiles = 0;
	pthread_mutex_init(&lock, NULL);
}

static const char *program_name(void)
{
	extern char *program_invocation_short_name;
	return program_invocation_short_name ? program_invocation_short_name : "?";
}

/* The time stamp counter at the process's start, for its rate at exit. */
static uint64_t start_ticks;
static struct timespec start_time;

static double elapsed_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start_time.tv_sec) * 1e9 + (double)(now.tv_nsec - start_time.tv_nsec);
}

/* Ticks per ns of CPU time. The counter ticks while the process waits for a
 * CPU too (preempted), and the report compares the reads' time with CPU time:
 * the rate is scaled by the share of the time it was runnable that it ran
 * (the kernel's schedstat: time on the CPU, time waiting on a run queue, for
 * the main thread; no scaling without it). Time blocked (a server waiting for
 * requests) is neither. */
static double ticks_per_cpu_ns(void)
{
	double elapsed = elapsed_ns(), ran = 0, waited = 0;
	if (elapsed <= 0)
		return 1;
	FILE *in = fopen("/proc/self/schedstat", "r");
	if (in) {
		if (fscanf(in, "%lf %lf", &ran, &waited) != 2)
			ran = waited = 0;
		fclose(in);
	}
	double running = ran + waited > 0 ? ran / (ran + waited) : 1;
	return (double)(__rdtsc() - start_ticks) / elapsed / running;
}

static void write_profile(void)
{
	const char *pattern = getenv("RESPEC_PROFILE_OUT");
	if (!pattern || !*pattern)
		pattern = "respec-profile.%p.txt";
	char path[PATH_MAX], temporary[PATH_MAX + 32];
	size_t at = 0;
	for (const char *c = pattern; *c && at + 24 < sizeof path; c++) {
		if (c[0] == '%' && c[1] == 'p') {
			at += (size_t)snprintf(path + at, sizeof path - at, "%d", (int)getpid());
			c++;
		} else {
			path[at++] = *c;
		}
	}
	path[at] = '\0';
	/* The value profiling's runtime writes that name in an instrumented program. */
	if (dlsym(RTLD_DEFAULT, "__respec_profile_register"))
		strncat(path, ".files", sizeof path - strlen(path) - 1);
	snprintf(temporary, sizeof temporary, "%s.tmp.%d", path, (int)getpid());
	FILE *out = fopen(temporary, "w");
	if (!out) {
		fprintf(stderr, "respec profile: cannot write %s\n", temporary);
		return;
	}
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	uint64_t cpu_ns = ((uint64_t)usage.ru_utime.tv_sec + (uint64_t)usage.ru_stime.tv_sec) * 1000000000u +
			  ((uint64_t)usage.ru_utime.tv_usec + (uint64_t)usage.ru_stime.tv_usec) * 1000u;
	double rate = ticks_per_cpu_ns();
	struct observer_cost cost = observer_cost();
	pthread_mutex_lock(&lock);
	uint64_t reads = 0;
	for (unsigned i = 0; i < nfiles; i++)
		reads += files[i].reads;
	pthread_mutex_unlock(&lock);
	fprintf(out, "respec-profile 1\nprocess\t%s\t%.0f\t\t\t\t%llu\n", program_name(),
		(double)reads * cost.per_read / rate, (unsigned long long)cpu_ns);
	char directory[PATH_MAX - 64], cache[PATH_MAX];
	double costs[IO_CACHED_COSTS];
	if (io_costs_cache_directory(directory, sizeof directory, false)) {
		io_costs_cache_file(cache, sizeof cache, directory);
		if (io_costs_cache_read(cache, costs))
			fprintf(out, "iocosts\t\t%.3f:%.3f:%.3f:%.3f:%.3f\t%s\t\t\t1\n", costs[0], costs[1],
				costs[2], costs[3], costs[4], cache);
	}
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < nfiles; i++) {
		struct file_stats *f = &files[i];
		/* Tabs and newlines would split the record: a path holding one is left out. */
		if (strpbrk(f->path, "\t\n"))
			continue;
		fprintf(out, "file\t%s\t%s\t%llu:%llu:%llu:%llu:%llu:%llu:%llu:%.0f\t\t\t%llu\n", program_name(),
			f->path, (unsigned long long)f->opens, (unsigned long long)f->bytes,
			(unsigned long long)f->preads, (unsigned long long)f->seeks_elsewhere,
			(unsigned long long)f->shares, (unsigned long long)f->foreign_reads,
			(unsigned long long)f->size,
			fmax(0, (double)f->read_ticks - (double)f->reads * cost.in_window) / rate,
			(unsigned long long)f->reads);
	}
	pthread_mutex_unlock(&lock);
	if (fclose(out) != 0 || rename(temporary, path) != 0) {
		fprintf(stderr, "respec profile: cannot write %s\n", path);
		unlink(temporary);
	}
}

__attribute__((constructor)) static void start(void)
{
	clock_gettime(CLOCK_MONOTONIC, &start_time);
	start_ticks = __rdtsc();
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
	atexit(write_profile);
}
