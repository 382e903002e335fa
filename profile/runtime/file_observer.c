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
 *   open, openat and their _FORTIFY_SOURCE and *64 forms
 *       a read-only open of a regular file starts tracking the descriptor (its
 *       path, its size); any open forgets what the number held before
 *   read, __read_chk   counts calls and bytes, times the system call, and
 *            follows the offset it expects next
 *   pread, pread64 (and _chk)   counted apart: they neither need nor move
 *            the offset
 *   lseek, lseek64   a seek to anywhere but the expected offset counts as one
 *            elsewhere (the sequence is broken; librespec-io follows it with a
 *            store, so it is a cost, not a break)
 *   dup, dup2, dup3, fcntl(F_DUPFD*), fork
 *            share the offset: the predicate breaks (counted per file)
 *   close, close_range, closefrom, fdopen   stop tracking (after fdopen,
 *            stdio reads through libc's own alias of read, unseen)
 *   a read by another thread than the descriptor's first reader: counted
 *
 *   posix_spawn, posix_spawnp, system, popen   share what the child inherits
 *            (descriptors without FD_CLOEXEC): no fork handler runs for them
 *
 * Not seen: calls inside libc (stdio's reads), raw syscall(2), and vfork (its
 * child shares this memory until it execs).
 *
 * Counters live per descriptor, where (almost) only one thread writes them,
 * and are folded into their file's (per path) under a lock when the
 * descriptor number is opened again, shared, or at exit. The calls a signal
 * handler may make (read, close, lseek, pread) take no lock; the few that
 * take it (opens, dups, fork) block signals meanwhile.
 *
 * At exit the process writes its records (profile/ProfileReport.h has the
 * format) to $RESPEC_PROFILE_OUT plus ".files" ("%p": the process id; default
 * respec-profile.%p.txt.files): its own name, so that a program also built
 * with the value profiling keeps both profiles. They are "file" records (with
 * the time the reads spent in read(2)); a "process" record with its CPU time,
 * which the report's predicted speedup divides, and the observer's own share
 * of it (observer_cost); and librespec-io's cost constants for this machine,
 * when librespec-io has measured them (an "iocosts" record, from its cache:
 * io/costs_cache.c). A forked child starts from zero; a process that ends in
 * _exit or a signal writes nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
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
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "costs_cache.h"
#include "profile_output.h"

/* libc's checked forms (declared by its headers only under _FORTIFY_SOURCE). */
ssize_t __read_chk(int fd, void *buffer, size_t count, size_t buffer_size);
ssize_t __pread_chk(int fd, void *buffer, size_t count, off_t offset, size_t buffer_size);
int __open_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);

/* With 64-bit offsets the *64 forms are the same functions (glibc defines them
 * as aliases): each interposer serves both names (the end of this file). */
_Static_assert(sizeof(off_t) == 8, "the files observer assumes 64-bit off_t");

#define TRACKED_FDS 4096
#define TRACKED_FILES 512

/* What the program did with one file (one path), summed over its opens. */
struct file_stats {
	char path[1024];
	uint64_t opens, reads, bytes, preads, seeks_elsewhere, shares, foreign_reads, size;
	uint64_t read_ticks; /* ticks spent in read(2) */
};

/* What a descriptor's open did: folded into file when the number is reused. */
struct open_file {
	struct file_stats *file; /* NULL: never tracked, or folded */
	bool live;               /* open and tracked: read() counts */
	int64_t expected;        /* the offset the next read starts at */
	unsigned reader;         /* the first reading thread's number, 0 before */
	uint64_t reads, bytes, preads, seeks_elsewhere, foreign_reads, read_ticks;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct file_stats files[TRACKED_FILES];
static unsigned nfiles;
static struct open_file fds[TRACKED_FDS];
static atomic_uint threads;
static _Thread_local unsigned this_thread;

/* A time stamp counter: cheap enough to read around every read(2). */
static inline uint64_t ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __rdtsc();
#else
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
#endif
}

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
/* real_NAME: the definition this one interposes, typed as libc declares it,
 * looked up at the first call (a relaxed atomic: threads may race to it). */
#define REAL(name) \
	static __typeof__(&name) real_##name##_cache; \
	__typeof__(&name) real_##name = __atomic_load_n(&real_##name##_cache, __ATOMIC_RELAXED); \
	if (!real_##name) { \
		real_##name = (__typeof__(&name))real(#name); \
		__atomic_store_n(&real_##name##_cache, real_##name, __ATOMIC_RELAXED); \
	}

/* The lock, with signals blocked while it is held: a handler that opens or
 * dups a descriptor cannot then wait for its own thread. */
static void lock_table(sigset_t *saved)
{
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, saved);
	pthread_mutex_lock(&lock);
}

static void unlock_table(const sigset_t *saved)
{
	pthread_mutex_unlock(&lock);
	pthread_sigmask(SIG_SETMASK, saved, NULL);
}

static struct open_file *tracked(int fd)
{
	return fd >= 0 && fd < TRACKED_FDS && __atomic_load_n(&fds[fd].live, __ATOMIC_RELAXED)
		       ? &fds[fd]
		       : NULL;
}

static void untrack(int fd)
{
	if (fd >= 0 && fd < TRACKED_FDS)
		__atomic_store_n(&fds[fd].live, false, __ATOMIC_RELAXED);
}

/* Adds a descriptor's counts to its file's and forgets them. Lock held. */
static void fold(struct open_file *o)
{
	struct file_stats *f = o->file;
	if (!f)
		return;
	f->reads += o->reads, f->bytes += o->bytes, f->preads += o->preads;
	f->seeks_elsewhere += o->seeks_elsewhere, f->foreign_reads += o->foreign_reads;
	f->read_ticks += o->read_ticks;
	*o = (struct open_file){ 0 };
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

/* After an open that returned fd: the number's earlier occupant is folded
 * away (whatever closed it, seen or not), and a regular file opened read-only
 * is tracked. */
static int opened(int fd, const char *path, int flags)
{
	if (fd < 0 || fd >= TRACKED_FDS)
		return fd;
	int saved_errno = errno;
	bool readable = (flags & O_ACCMODE) == O_RDONLY && !(flags & (O_PATH | O_DIRECTORY));
	struct stat st;
	char absolute[PATH_MAX], link[64];
	ssize_t n = -1;
	if (readable && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		n = readlink(link, absolute, sizeof absolute - 1);
		if (n > 0)
			absolute[n] = '\0';
		else
			snprintf(absolute, sizeof absolute, "%s", path); /* no /proc */
	} else {
		readable = false;
	}
	sigset_t saved;
	lock_table(&saved);
	fold(&fds[fd]);
	struct file_stats *f = readable ? stats_for(absolute) : NULL;
	if (f) {
		f->opens++;
		f->size = (uint64_t)st.st_size > f->size ? (uint64_t)st.st_size : f->size;
		fds[fd].file = f;
		__atomic_store_n(&fds[fd].live, true, __ATOMIC_RELAXED); /* read() loads it */
	}
	unlock_table(&saved);
	errno = saved_errno;
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

int openat(int dirfd, const char *path, int flags, ...)
{
	REAL(openat);
	va_list args;
	va_start(args, flags);
	int mode = mode_of(flags, args);
	va_end(args);
	return opened(real_openat(dirfd, path, flags, mode), path, flags);
}

/* _FORTIFY_SOURCE's checked opens (no mode: O_CREAT would not come here). */
int __open_2(const char *path, int flags)
{
	REAL(__open_2);
	return opened(real___open_2(path, flags), path, flags);
}

int __openat_2(int dirfd, const char *path, int flags)
{
	REAL(__openat_2);
	return opened(real___openat_2(dirfd, path, flags), path, flags);
}

/* What read() adds to a read of a tracked descriptor, after the system call:
 * also timed alone at exit (observer_cost). Only the reading thread writes
 * these counters (a second one is counted as foreign: the predicate is broken
 * whatever sum the race leaves), so plain loads and stores do (ADD). */
#define ADD(o, field, value) \
	__atomic_store_n(&(o)->field, __atomic_load_n(&(o)->field, __ATOMIC_RELAXED) + (value), \
			 __ATOMIC_RELAXED)

static void observe_read(struct open_file *o, ssize_t n, uint64_t elapsed)
{
	unsigned me = thread_number(), reader = __atomic_load_n(&o->reader, __ATOMIC_RELAXED);
	ADD(o, reads, 1);
	ADD(o, bytes, (uint64_t)n);
	ADD(o, read_ticks, elapsed);
	ADD(o, expected, n);
	if (!reader)
		__atomic_store_n(&o->reader, me, __ATOMIC_RELAXED);
	else if (reader != me)
		ADD(o, foreign_reads, 1);
}

/* Reads of tracked descriptors take no lock and time the system call with the
 * time stamp counter (a few ns), so that the profiled run's CPU time stays
 * close to the program's own; what the observer adds is measured at exit and
 * reported, for the report to take out. */
static ssize_t observed_read(ssize_t (*read_fn)(int, void *, size_t, size_t), int fd, void *buffer,
			     size_t count, size_t buffer_size)
{
	struct open_file *o = tracked(fd);
	if (!o)
		return read_fn(fd, buffer, count, buffer_size);
	uint64_t start = ticks();
	ssize_t n = read_fn(fd, buffer, count, buffer_size);
	uint64_t elapsed = ticks() - start;
	if (n >= 0)
		observe_read(o, n, elapsed);
	return n;
}

static ssize_t plain_read(int fd, void *buffer, size_t count, size_t buffer_size)
{
	(void)buffer_size;
	REAL(read);
	return real_read(fd, buffer, count);
}

static ssize_t checked_read(int fd, void *buffer, size_t count, size_t buffer_size)
{
	REAL(__read_chk);
	return real___read_chk(fd, buffer, count, buffer_size);
}

ssize_t read(int fd, void *buffer, size_t count)
{
	return observed_read(plain_read, fd, buffer, count, 0);
}

ssize_t __read_chk(int fd, void *buffer, size_t count, size_t buffer_size)
{
	return observed_read(checked_read, fd, buffer, count, buffer_size);
}

static ssize_t counted_pread(int fd, ssize_t n)
{
	struct open_file *o = tracked(fd);
	if (o && n >= 0)
		ADD(o, preads, 1);
	return n;
}

ssize_t pread(int fd, void *buffer, size_t count, off_t offset)
{
	REAL(pread);
	return counted_pread(fd, real_pread(fd, buffer, count, offset));
}

ssize_t __pread_chk(int fd, void *buffer, size_t count, off_t offset, size_t buffer_size)
{
	REAL(__pread_chk);
	return counted_pread(fd, real___pread_chk(fd, buffer, count, offset, buffer_size));
}

static off_t sought(int fd, off_t to)
{
	struct open_file *o = tracked(fd);
	if (to < 0 || !o)
		return to;
	if (__atomic_load_n(&o->expected, __ATOMIC_RELAXED) != to) {
		ADD(o, seeks_elsewhere, 1);
		__atomic_store_n(&o->expected, to, __ATOMIC_RELAXED);
	}
	return to;
}

off_t lseek(int fd, off_t offset, int whence)
{
	REAL(lseek);
	return sought(fd, real_lseek(fd, offset, whence));
}

/* A second descriptor for fd's open file (the offset is shared from now on);
 * the copy's number forgets what it held, and is not tracked itself. */
static int shared(int fd, int copy)
{
	if (copy < 0 || copy == fd)
		return copy;
	int saved_errno = errno;
	sigset_t saved;
	lock_table(&saved);
	struct open_file *o = tracked(fd);
	if (o)
		o->file->shares++;
	if (copy < TRACKED_FDS)
		fold(&fds[copy]);
	unlock_table(&saved);
	errno = saved_errno;
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
	return command == F_DUPFD || command == F_DUPFD_CLOEXEC ? shared(fd, result) : result;
}

int close(int fd)
{
	REAL(close);
	untrack(fd);
	return real_close(fd);
}

int close_range(unsigned first, unsigned last, int flags)
{
	REAL(close_range);
	int result = real_close_range(first, last, flags);
	if (result == 0 && !(flags & CLOSE_RANGE_CLOEXEC))
		for (unsigned fd = first; fd <= last && fd < TRACKED_FDS; fd++)
			untrack((int)fd);
	return result;
}

void closefrom(int lowest)
{
	REAL(closefrom);
	real_closefrom(lowest);
	for (int fd = lowest < 0 ? 0 : lowest; fd < TRACKED_FDS; fd++)
		untrack(fd);
}

FILE *fdopen(int fd, const char *mode)
{
	REAL(fdopen);
	FILE *stream = real_fdopen(fd, mode);
	if (stream)
		untrack(fd);
	return stream;
}

/* A child that execs a program inherits the descriptors without FD_CLOEXEC:
 * their offsets are shared from now on. */
static void spawning(void)
{
	REAL(fcntl);
	int saved_errno = errno;
	sigset_t saved;
	lock_table(&saved);
	for (int fd = 0; fd < TRACKED_FDS; fd++)
		if (tracked(fd) && !(real_fcntl(fd, F_GETFD) & FD_CLOEXEC))
			fds[fd].file->shares++;
	unlock_table(&saved);
	errno = saved_errno;
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
		const posix_spawnattr_t *attributes, char *const argv[], char *const envp[])
{
	REAL(posix_spawn);
	spawning();
	return real_posix_spawn(pid, path, actions, attributes, argv, envp);
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
		 const posix_spawnattr_t *attributes, char *const argv[], char *const envp[])
{
	REAL(posix_spawnp);
	spawning();
	return real_posix_spawnp(pid, file, actions, attributes, argv, envp);
}

int system(const char *command)
{
	REAL(system);
	if (command)
		spawning();
	return real_system(command);
}

FILE *popen(const char *command, const char *mode)
{
	REAL(popen);
	spawning();
	return real_popen(command, mode);
}

/* The *64 names, for programs built with _FILE_OFFSET_BITS=64 (the same
 * functions here). */
extern __typeof__(open) open64 __attribute__((alias("open")));
extern __typeof__(openat) openat64 __attribute__((alias("openat")));
extern __typeof__(__open_2) __open64_2 __attribute__((alias("__open_2")));
extern __typeof__(__openat_2) __openat64_2 __attribute__((alias("__openat_2")));
extern __typeof__(pread) pread64 __attribute__((alias("pread")));
extern __typeof__(__pread_chk) __pread64_chk __attribute__((alias("__pread_chk")));
extern __typeof__(lseek) lseek64 __attribute__((alias("lseek")));
extern __typeof__(fcntl) fcntl64 __attribute__((alias("fcntl")));

/* fork shares every open descriptor's offset with the child: each file open
 * now breaks its predicate. The lock is held across it, with signals blocked
 * (pthread_atfork), so the child's copy of the tables is consistent; the
 * child then starts from zero. */
static sigset_t fork_saved_mask;

static void before_fork(void)
{
	lock_table(&fork_saved_mask);
	for (int fd = 0; fd < TRACKED_FDS; fd++)
		if (tracked(fd))
			fds[fd].file->shares++;
}

static void after_fork_parent(void)
{
	unlock_table(&fork_saved_mask);
}

static void after_fork_child(void)
{
	memset(files, 0, sizeof files);
	memset(fds, 0, sizeof fds);
	nfiles = 0;
	pthread_mutex_init(&lock, NULL);
	pthread_sigmask(SIG_SETMASK, &fork_saved_mask, NULL);
}

/* What the observer costs a read of a tracked descriptor, in ticks: in all
 * (two counter reads and observe_read), and inside the timed window (one
 * counter read's worth, which read_ticks holds on top of the system call).
 * Timed on a scratch descriptor. */
struct observer_cost {
	double per_read, in_window;
};

static struct observer_cost observer_cost(void)
{
	enum { ROUNDS = 20000 };
	static struct open_file scratch;
	uint64_t start = ticks();
	for (int i = 0; i < ROUNDS; i++) {
		uint64_t t = ticks();
		observe_read(&scratch, 1, ticks() - t);
	}
	return (struct observer_cost){ (double)(ticks() - start) / ROUNDS,
				       (double)scratch.read_ticks / ROUNDS };
}

/* The counter at the process's start, for its rate at exit. */
static uint64_t start_ticks;
static struct timespec start_time;

/* Ticks per ns of CPU time. The counter ticks while the process waits for a
 * CPU too (preempted), and the report compares the reads' time with CPU time:
 * the rate is scaled by the share of the time it was runnable that it ran
 * (the kernel's schedstat: time on the CPU, time waiting on a run queue, for
 * the main thread; no scaling without it). Time blocked (a server waiting for
 * requests) is neither. */
static double ticks_per_cpu_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double elapsed = (double)(now.tv_sec - start_time.tv_sec) * 1e9 +
			 (double)(now.tv_nsec - start_time.tv_nsec),
	       ran = 0, waited = 0;
	if (elapsed <= 0)
		return 1;
	FILE *in = fopen("/proc/self/schedstat", "r");
	if (in) {
		if (fscanf(in, "%lf %lf", &ran, &waited) != 2)
			ran = waited = 0;
		fclose(in);
	}
	double running = ran + waited > 0 ? ran / (ran + waited) : 1;
	return (double)(ticks() - start_ticks) / elapsed / running;
}

static const char *program_name(void)
{
	extern char *program_invocation_short_name;
	return program_invocation_short_name ? program_invocation_short_name : "?";
}

static void write_records(FILE *out, void *context)
{
	(void)context;
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	uint64_t cpu_ns = ((uint64_t)usage.ru_utime.tv_sec + (uint64_t)usage.ru_stime.tv_sec) * 1000000000u +
			  ((uint64_t)usage.ru_utime.tv_usec + (uint64_t)usage.ru_stime.tv_usec) * 1000u;
	double rate = ticks_per_cpu_ns();
	struct observer_cost cost = observer_cost();
	sigset_t saved;
	lock_table(&saved);
	uint64_t reads = 0;
	for (int fd = 0; fd < TRACKED_FDS; fd++)
		fold(&fds[fd]);
	for (unsigned i = 0; i < nfiles; i++)
		reads += files[i].reads;
	fprintf(out, "process\t%s\t%.0f\t\t\t\t%llu\n", program_name(),
		(double)reads * cost.per_read / rate, (unsigned long long)cpu_ns);
	char directory[PATH_MAX - 64], cache[PATH_MAX];
	double costs[IO_CACHED_COSTS];
	if (io_costs_cache_directory(directory, sizeof directory, false)) {
		io_costs_cache_file(cache, sizeof cache, directory);
		if (io_costs_cache_read(cache, costs))
			fprintf(out, "iocosts\t\t%.3f:%.3f:%.3f:%.3f:%.3f:%.3f\t%s\t\t\t1\n", costs[0],
				costs[1], costs[2], costs[3], costs[4], costs[5], cache);
	}
	for (unsigned i = 0; i < nfiles; i++) {
		struct file_stats *f = &files[i];
		/* Tabs and newlines would split the record: a path holding one is left out. */
		if (strpbrk(f->path, "\t\n"))
			continue;
		fprintf(out, "file\t%s\t%s\t%llu:%llu:%llu:%llu:%llu:%llu:%llu:%.0f\t\t\t%llu\n",
			program_name(), f->path, (unsigned long long)f->opens,
			(unsigned long long)f->bytes, (unsigned long long)f->preads,
			(unsigned long long)f->seeks_elsewhere, (unsigned long long)f->shares,
			(unsigned long long)f->foreign_reads, (unsigned long long)f->size,
			fmax(0, (double)f->read_ticks - (double)f->reads * cost.in_window) / rate,
			(unsigned long long)f->reads);
	}
	unlock_table(&saved);
}

static void write_profile(void)
{
	profile_write(".files", write_records, NULL);
}

__attribute__((constructor)) static void start(void)
{
	clock_gettime(CLOCK_MONOTONIC, &start_time);
	start_ticks = ticks();
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
	atexit(write_profile);
}
