/*
 * lease.c — the kernel guard: a read lease on each specialized descriptor, and
 * the guard thread that handles its break before the writer's open returns.
 *
 * F_SETLEASE(F_RDLCK) succeeds only on a descriptor opened read-only while no
 * one has the file open for writing (or mapped writable); afterwards any open
 * for writing, and any truncate, blocks in the kernel and the lease holder gets
 * a signal. Until the holder releases the lease (or lease-break-time, 45 s,
 * passes) the writer's open does not return. So: the break is the guard of
 * READ_ONLY (and of the size, hence of every mapped byte), and releasing the
 * lease only after the descriptor went back to read(2) makes "no stale data
 * after a writer's open has returned" a kernel-enforced order.
 *
 * The signal: a real-time signal (F_SETSIG, so it queues and carries si_fd)
 * sent to one thread (F_SETOWN_EX with F_OWNER_TID) — the guard thread, which
 * blocks every signal and takes this one with sigwaitinfo. No handler runs in
 * the program's threads, no program signal is touched, and the guard thread
 * may wait for the owner's read to finish (librespec's replug does), which a
 * handler interrupting that very read could not. Releasing a lease resets the
 * descriptor's signal and owner (the kernel does so on F_UNLCK), so both are
 * armed again before every F_SETLEASE.
 *
 * The guard thread also serves hand-offs (sigqueue from this process) for
 * threads that cannot wait themselves (file.c), and when leases are held it
 * wakes once a second to look for breaking leases whose signal was lost (a
 * full signal queue makes the kernel fall back to SIGIO, which it cannot take
 * without stealing the program's).
 *
 * A stopped process cannot release a lease: a writer's open would wait the
 * whole lease-break-time (45 s). So while the program leaves SIGTSTP, SIGTTIN
 * and SIGTTOU to their default action (stop), the first lease installs a
 * handler for them: it has the guard thread give every lease back (the files
 * go back to read(2) for good), waits for that at most 200 ms (a read of this
 * very thread in progress on a leased file would hold it up), then stops the
 * process as the default action would, and takes the signal again once
 * continued. SIGSTOP cannot be caught: see io/README.md.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

_Atomic int io_leases_held;

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t guard_thread;
static _Atomic pid_t guard_tid;

static int guard_signal(void)
{
	static int chosen;
	if (!chosen) {
		const char *env = getenv("RESPEC_IO_SIGNAL");
		int offset = env ? atoi(env) : 8;
		chosen = SIGRTMIN + offset <= SIGRTMAX ? SIGRTMIN + offset : SIGRTMIN + 8;
	}
	return chosen;
}

static void handle_break(int fd)
{
	struct io_file *f = io_lookup(fd);
	if (f)
		io_lease_broken(f);
}

static void scan_for_breaks(void)
{
	int max = atomic_load(&io_max_tracked_fd);
	for (int fd = 0; fd <= max; fd++) {
		struct io_file *f = io_lookup(fd);
		if (f && atomic_load(&f->state) == IO_SPECIALIZED && f->guard == RESPEC_IO_GUARD_LEASE)
			handle_break(fd);
	}
}

/* The hand-off value that asks the guard thread to give every lease back
 * before the process stops; it answers on stop_pipe. */
enum { STOP_REQUEST = -1 };
static int stop_pipe[2] = {-1, -1};

static void give_leases_back(void)
{
	int max = atomic_load(&io_max_tracked_fd);
	for (int fd = 0; fd <= max; fd++) {
		struct io_file *f = io_lookup(fd);
		if (f && atomic_load(&f->state) == IO_SPECIALIZED && f->guard == RESPEC_IO_GUARD_LEASE)
			io_unspecialize_now(f, IO_REASON_STOPPED);
	}
	char done = 1;
	(void)!write(stop_pipe[1], &done, 1);
}

static void *guard_main(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "respec-io-guard");
	sigset_t wanted;
	sigemptyset(&wanted);
	sigaddset(&wanted, guard_signal());
	atomic_store(&guard_tid, gettid());
	pid_t self = getpid();
	for (;;) {
		siginfo_t info;
		int sig;
		if (atomic_load(&io_leases_held) > 0) {
			struct timespec tick = {1, 0};
			sig = sigtimedwait(&wanted, &info, &tick);
		} else {
			sig = sigwaitinfo(&wanted, &info);
		}
		if (sig < 0) {
			if (errno == EAGAIN)
				scan_for_breaks();
			continue;
		}
		if (info.si_code == SI_QUEUE) {
			if (info.si_pid != self)
				continue;
			int value = info.si_value.sival_int;
			if (value == STOP_REQUEST) {
				give_leases_back();
				continue;
			}
			struct io_file *f = io_lookup(value & 0xffff);
			if (f)
				io_unspecialize_now(f, (enum io_reason)(value >> 16));
			continue;
		}
		handle_break(info.si_fd);
	}
	return NULL;
}

/* Starts the guard thread once per process (again in a fork child). Called
 * with every signal blocked, which the thread inherits. */
static bool start_guard_thread(void)
{
	if (atomic_load(&guard_tid))
		return true;
	pthread_mutex_lock(&start_lock);
	bool ok = true;
	if (!atomic_load(&guard_tid)) {
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		ok = pthread_create(&guard_thread, &attr, guard_main, NULL) == 0;
		pthread_attr_destroy(&attr);
		while (ok && !atomic_load(&guard_tid))
			sched_yield();
	}
	pthread_mutex_unlock(&start_lock);
	return ok;
}

static const int stop_signals[] = {SIGTSTP, SIGTTIN, SIGTTOU};

/* Only async-signal-safe calls: it may interrupt any code of the program. */
static void stop_handler(int sig)
{
	int saved_errno = errno;
	pid_t guard = atomic_load(&guard_tid);
	if (guard && atomic_load(&io_leases_held) > 0) {
		char stale;
		while (syscall(SYS_read, stop_pipe[0], &stale, 1) == 1) /* late answers */
			;
		siginfo_t request = {.si_signo = guard_signal(), .si_code = SI_QUEUE};
		request.si_pid = getpid();
		request.si_uid = getuid();
		request.si_value.sival_int = STOP_REQUEST;
		if (syscall(SYS_rt_tgsigqueueinfo, getpid(), guard, guard_signal(), &request) == 0) {
			struct pollfd answer = {.fd = stop_pipe[0], .events = POLLIN};
			poll(&answer, 1, 200);
		}
	}
	/* Stop here as the default action would; continued, take the signal
	 * again. The signal is blocked while its handler runs, so it is raised
	 * first and then let through. */
	struct sigaction ours, stop = {.sa_handler = SIG_DFL};
	sigaction(sig, &stop, &ours);
	raise(sig);
	sigset_t just;
	sigemptyset(&just);
	sigaddset(&just, sig);
	pthread_sigmask(SIG_UNBLOCK, &just, NULL);
	sigaction(sig, &ours, NULL);
	errno = saved_errno;
}

/* The guard thread's answers; the handler reads them without blocking. */
static bool open_stop_pipe(void)
{
	if (pipe2(stop_pipe, O_CLOEXEC) != 0) {
		stop_pipe[0] = stop_pipe[1] = -1;
		return false;
	}
	io_real.fcntl(stop_pipe[0], F_SETFL, O_NONBLOCK);
	return true;
}

/* For the signals the program leaves to their default action. */
static void install_stop_handlers(void)
{
	if (!open_stop_pipe())
		return;
	struct sigaction ours = {.sa_handler = stop_handler, .sa_flags = SA_RESTART};
	for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++) {
		struct sigaction current;
		if (sigaction(stop_signals[i], NULL, &current) == 0 && current.sa_handler == SIG_DFL &&
		    !(current.sa_flags & SA_SIGINFO))
			sigaction(stop_signals[i], &ours, NULL);
	}
}

/* Puts the descriptor's signal settings back to the defaults of a fresh open. */
static void reset_signal_settings(int fd)
{
	struct f_owner_ex nobody = {F_OWNER_PID, 0};
	io_real.fcntl(fd, F_SETSIG, 0);
	io_real.fcntl(fd, F_SETOWN_EX, &nobody);
}

const char *io_guard_take(struct io_file *f, const struct io_facts *facts)
{
	/* Even unleased files may need hand-offs to the guard thread. */
	if (!start_guard_thread())
		return "cannot start the guard thread";
	if (facts->verity) {
		f->guard = RESPEC_IO_GUARD_VERITY;
		return NULL;
	}
	if (facts->sealed) {
		f->guard = RESPEC_IO_GUARD_SEALED;
		return NULL;
	}
	int fd = f->fd;
	if (f->open_flags < 0) {
		/* Not opened through the library: the program may be using the
		 * descriptor's lease or signal settings itself. */
		struct f_owner_ex owner;
		if (io_real.fcntl(fd, F_GETLEASE) != F_UNLCK || io_real.fcntl(fd, F_GETSIG) != 0 ||
		    io_real.fcntl(fd, F_GETOWN_EX, &owner) != 0 || owner.pid != 0)
			return "the program uses the descriptor's lease or signals";
	}
	struct f_owner_ex guard = {F_OWNER_TID, atomic_load(&guard_tid)};
	/* Armed before the lease, so that a break right after it is already
	 * directed at the guard thread with si_fd. */
	if (io_real.fcntl(fd, F_SETSIG, guard_signal()) != 0 ||
	    io_real.fcntl(fd, F_SETOWN_EX, &guard) != 0) {
		reset_signal_settings(fd);
		return "cannot direct lease breaks to the guard thread";
	}
	if (io_real.fcntl(fd, F_SETLEASE, F_RDLCK) == 0) {
		static pthread_once_t stop_handlers_once = PTHREAD_ONCE_INIT;
		pthread_once(&stop_handlers_once, install_stop_handlers);
		f->guard = RESPEC_IO_GUARD_LEASE;
		atomic_fetch_add(&io_leases_held, 1);
		return NULL;
	}
	int err = errno;
	reset_signal_settings(fd);
	if (err == EAGAIN)
		return "open for writing (or mapped writable) elsewhere";
	if (facts->immutable) {
		f->guard = RESPEC_IO_GUARD_IMMUTABLE;
		return NULL;
	}
	if (err == EACCES || err == EPERM)
		return "no lease allowed (not the file's owner, no CAP_LEASE)";
	return "the file system refuses leases";
}

void io_guard_release(struct io_file *f)
{
	if (f->guard == RESPEC_IO_GUARD_LEASE) {
		/* The kernel also resets F_SETSIG and the owner here. */
		io_real.fcntl(f->fd, F_SETLEASE, F_UNLCK);
		atomic_fetch_sub(&io_leases_held, 1);
	}
	f->guard = RESPEC_IO_GUARD_NONE;
}

void io_guard_thread_unspecialize(struct io_file *f, enum io_reason reason)
{
	union sigval value = {.sival_int = f->fd | ((int)reason << 16)};
	pthread_sigqueue(guard_thread, guard_signal(), value);
}

void io_guard_before_writer(int dirfd, const char *path)
{
	if (atomic_load(&io_leases_held) == 0)
		return;
	struct stat st;
	if (fstatat(dirfd, path, &st, 0) != 0)
		return;
	int max = atomic_load(&io_max_tracked_fd);
	for (int fd = 0; fd <= max; fd++) {
		struct io_file *f = io_lookup(fd);
		if (f && atomic_load(&f->state) == IO_SPECIALIZED && f->guard == RESPEC_IO_GUARD_LEASE &&
		    f->dev == (uint64_t)st.st_dev && f->ino == (uint64_t)st.st_ino) {
			atomic_fetch_add(&io_counters.lease_breaks, 1);
			io_unspecialize(f, IO_REASON_WRITER);
		}
	}
}

void io_guard_fork_child(void)
{
	/* Only the forking thread survives; everything was unspecialized (and
	 * every lease released) by the prepare handler. */
	pthread_mutex_init(&start_lock, NULL);
	atomic_store(&guard_tid, 0);
	/* The stop handlers stay; the pipe to the guard thread is the parent's. */
	if (stop_pipe[0] >= 0) {
		io_real.close(stop_pipe[0]);
		io_real.close(stop_pipe[1]);
		open_stop_pipe();
	}
	atomic_store(&io_leases_held, 0);
	io_data_fork_child();
}
