/*
 * file.c — the specialization protocol of one descriptor: binding (decide,
 * check, guard, map, establish the predicate), the guards' way back to read(2),
 * and the slow paths of read, pread, readv and lseek.
 *
 * Binding happens after the first read that returned everything it asked for
 * (a program that reads a small file in one gulp never pays for any of this),
 * in the thread that opened or first read the descriptor, which becomes the
 * owner: only the owner calls through the slot, so the slot can use
 * librespec's THREAD protocol and the offset needs no locked instructions.
 *
 * Unspecializing is a guarded store of the broken quasi-invariant (the term
 * f->broken_by) under the descriptor's predicate:
 *   1. respec_guard_begin: the slot goes back to io_op_kernel and the call
 *      returns only when the owner is no longer inside a specialized read;
 *   2. the logical offset is closed (a flag in f->pos, so that a read that
 *      claimed nothing yet finds it and retries) and written to the kernel with
 *      lseek, then f->synced is set: from here on read(2) is right;
 *   3. the term is stored and respec_guard_end leaves the slot generic;
 *   4. only now the lease is released — a writer's open returns after this —
 *      and the mapping freed, since no specialized read can still copy from it.
 * Reads that arrive between 1 and 2 get IO_RETRY from io_op_kernel and wait
 * outside the slot for step 2 (io_finish).
 *
 * Two situations cannot wait, because the call they would wait for is their own
 * caller: a signal handler on the owner thread that interrupted a read of the
 * same descriptor (it closes the offset itself, which is safe since the
 * interrupted read is frozen and nobody else touches the offset, and leaves
 * steps 1, 3 and 4 to the guard thread), and a non-owner thread inside a read
 * of its own descriptor (the guard thread does everything, this one waits for
 * step 2 only).
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

static const char *reason_text(enum io_reason reason)
{
	switch (reason) {
	case IO_REASON_WRITER: return "a writer opened or truncated the file (lease break)";
	case IO_REASON_SHARED: return "the offset is shared (dup, fork, exec, SCM_RIGHTS, stdio)";
	case IO_REASON_THREAD: return "another thread used the descriptor";
	case IO_REASON_KERNEL_IO: return "a system call used the kernel's offset directly";
	case IO_REASON_SEEK: return "seek past the end of the file";
	case IO_REASON_ERROR: return "a window could not be populated (I/O error)";
	case IO_REASON_SLOW: return "populating the mapping measured slower than read(2)";
	case IO_REASON_ASYNC: return "the program set O_DIRECT, O_ASYNC, a lease or signals";
	case IO_REASON_CLOSE: return "closed";
	case IO_REASON_STOPPED: return "the process stopped (its leases are given back first)";
	case IO_REASON_NONE: break;
	}
	return "unknown";
}

static void give_up(struct io_file *f, const char *why)
{
	int expected = IO_CANDIDATE;
	if (atomic_compare_exchange_strong(&f->state, &expected, IO_GENERIC)) {
		f->why_generic = why;
		IO_TRACE("fd %d: read(2) for good: %s", f->fd, why);
	}
}

static void fork_prepare(void)
{
	/* The child shares every offset with this process. */
	io_unspecialize_every(IO_REASON_SHARED);
}

static void install_fork_handlers(void)
{
	/* Registered after librespec's own (which ran at the first slot), so this
	 * prepare handler runs before librespec takes its locks for the fork. */
	pthread_atfork(fork_prepare, NULL, io_guard_fork_child);
}

/* Before any specialization: a fork shares the candidates' offsets too, so
 * they must never be specialized afterwards. Touches no librespec lock. */
static void fork_prepare_candidates(void)
{
	int max = atomic_load(&io_max_tracked_fd);
	for (int fd = 0; fd <= max; fd++) {
		struct io_file *f = io_lookup(fd);
		if (f)
			give_up(f, reason_text(IO_REASON_SHARED));
	}
}

void io_fork_handlers_init(void)
{
	pthread_atfork(fork_prepare_candidates, NULL, NULL);
}

static void futex_wait(_Atomic uint32_t *word, uint32_t value)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static void wait_synced(struct io_file *f)
{
	while (!atomic_load_explicit(&f->synced, memory_order_acquire))
		futex_wait(&f->synced, 0);
}

/*
 * Step 2: moves the logical offset to the kernel, once. Callers guarantee that
 * no specialized read can claim concurrently (the owner outside its reads, the
 * owner's handler with its interrupted read frozen, or anybody after step 1).
 * An offset past the end is either a seek's target (f->past_end) or a claim of
 * a read that reached the end and gives the excess back: then the read ends
 * exactly at the end.
 */
static void close_offset(struct io_file *f, enum io_reason reason)
{
	uint64_t old = atomic_fetch_or(&f->pos, IO_POS_CLOSED);
	if (old & IO_POS_CLOSED) {
		wait_synced(f);
		return;
	}
	if (reason != IO_REASON_CLOSE) {
		uint64_t logical = old <= f->size ? old : f->past_end ? f->past_end : f->size;
		io_real.lseek(f->fd, (off_t)logical, SEEK_SET);
	}
	atomic_store_explicit(&f->synced, 1, memory_order_release);
	futex_wake(&f->synced);
}


/* The cost model keeps read(2) for now; a re-read may change its mind. */
static void decline(struct io_file *f, const struct io_facts *facts, uint64_t count)
{
	IO_TRACE("fd %d: read(2) kept: %llu bytes from offset %llu in %llu-byte reads", f->fd,
		 (unsigned long long)facts->size, (unsigned long long)f->cand_pos,
		 (unsigned long long)count);
	f->declined = 1;
	f->why_generic = "read(2) is cheaper for this size and request (cost model)";
	atomic_fetch_add(&io_counters.declined, 1);
}

/* Undoes a binding that got as far as the data, and maybe the guard. */
static void unbind(struct io_file *f)
{
	struct io_data_leftovers left = {f->map, f->map_len, f->copy};
	f->map = f->copy = NULL;
	f->ready_lo = f->ready_hi = 0;
	io_guard_release(f);
	io_data_release(left);
	atomic_store(&f->synced, 1);
}

void io_consider(struct io_file *f, uint64_t count)
{
	/* The decision first, with no lock and one system call: most candidates
	 * that are declined (small files read in big gulps, files whose mapping
	 * costs more than read(2)) stop here. It uses where the candidate's reads
	 * are as far as this library saw them; the kernel's offset, which calls
	 * like sendfile may have moved, confirms it below. */
	struct io_facts facts;
	const char *why = io_check_file(f, &facts);
	if (why) {
		give_up(f, why);
		return;
	}
	unsigned hints = atomic_load(&io_hints);
	enum respec_io_strategy strategy = io_choose(facts.size, f->cand_pos, count, hints, f->rereads);
	if (strategy == RESPEC_IO_KERNEL) {
		decline(f, &facts, count);
		return;
	}

	sigset_t saved;
	io_block_signals(&saved);
	/* Never wait here: the lock holder may be this thread, interrupted. */
	if (pthread_mutex_trylock(&f->lock) != 0)
		goto out;
	void *me = io_self();
	if (atomic_load(&f->state) != IO_CANDIDATE || atomic_load(&f->opener) != me || f->declined)
		goto unlock;
	if ((why = io_check_placement(f, &facts)) != NULL) {
		give_up(f, why);
		goto unlock;
	}
	off_t pos = io_real.lseek(f->fd, 0, SEEK_CUR);
	if (pos < 0 || (uint64_t)pos >= IO_POS_LIMIT || facts.size >= IO_POS_LIMIT) {
		give_up(f, "offset or size beyond what the library handles");
		goto unlock;
	}
	if ((strategy = io_choose(facts.size, (uint64_t)pos, count, hints, f->rereads)) ==
	    RESPEC_IO_KERNEL) {
		decline(f, &facts, count);
		goto unlock;
	}
	if (io_file_prepare(f) != 0) {
		give_up(f, "librespec refused the slot or predicate");
		goto unlock;
	}
	pthread_once(&fork_handlers_once, install_fork_handlers);
	f->size = facts.size;
	f->dev = facts.dev;
	f->ino = facts.ino;
	f->strategy = strategy;
	f->last_count = count;
	/* A mapping is made and its first window populated (and its cost judged)
	 * before the guard: it always shows the page cache as it is, and a file
	 * too dear to map costs no lease and no guard thread. A private copy is
	 * made only under the guard: it would go stale. */
	bool mapped = strategy != RESPEC_IO_BUFFER;
	if (mapped && (why = io_data_setup(f, (uint64_t)pos)) != NULL)
		goto data_failed;
	if ((why = io_guard_take(f, &facts)) != NULL) {
		unbind(f);
		give_up(f, why);
		goto unlock;
	}
	/* A size seen before the lease may predate a writer that has since closed. */
	if (f->guard == RESPEC_IO_GUARD_LEASE &&
	    ((why = io_recheck_size(f, &facts)) != NULL || facts.size != f->size)) {
		unbind(f);
		give_up(f, why ? why : "the file changed while being specialized");
		goto unlock;
	}
	if (!mapped && (why = io_data_setup(f, (uint64_t)pos)) != NULL)
		goto data_failed;
	atomic_store(&f->pos, (uint64_t)pos);
	f->past_end = (uint64_t)pos > f->size ? (uint64_t)pos : 0;
	atomic_store(&f->synced, 0);
	if (respec_slot_set_owner(&f->slot) != 0 || respec_predicate_establish(f->pred) != 0) {
		unbind(f);
		give_up(f, "librespec could not establish the predicate");
		goto unlock;
	}
	/* The owner is set before the state so that a thread seeing SPECIALIZED
	 * with no owner knows an unspecialization is under way. */
	atomic_store_explicit(&f->owner, me, memory_order_release);
	int expected = IO_CANDIDATE;
	if (!atomic_compare_exchange_strong(&f->state, &expected, IO_SPECIALIZED)) {
		/* Closed, or used by a second thread, while binding: undo. */
		atomic_store(&f->owner, NULL);
		respec_predicate_invalidate(f->pred);
		unbind(f);
		goto unlock;
	}
	f->why_generic = NULL;
	atomic_fetch_add(&io_counters.specializations[strategy], 1);
	IO_TRACE("fd %d: specialized: %s, guard %s, %llu bytes, offset %lld, %llu-byte reads", f->fd,
		 respec_io_strategy_name(strategy), respec_io_guard_name(f->guard),
		 (unsigned long long)f->size, (long long)pos, (unsigned long long)count);
	goto unlock;
data_failed:
	if (f->poisoned == IO_REASON_SLOW)
		atomic_fetch_add(&io_counters.populate_bailouts, 1);
	unbind(f);
	give_up(f, why);
unlock:
	pthread_mutex_unlock(&f->lock);
out:
	io_restore_signals(&saved);
}

/* Steps 1 to 4 with f->lock held: 0, or EDEADLK when this thread is inside a
 * call of its own and the guard thread must do it. */
static int unspecialize_locked(struct io_file *f, enum io_reason reason)
{
	if (atomic_load(&f->state) != IO_SPECIALIZED)
		return 0;
	int err = respec_guard_begin(f->pred);
	if (err)
		return err;
	close_offset(f, reason);
	f->broken_by = reason;
	respec_guard_end(f->pred);
	atomic_store(&f->owner, NULL);
	if (f->poisoned == IO_REASON_SLOW)
		atomic_fetch_add(&io_counters.populate_bailouts, 1);
	f->why_generic = reason_text(f->broken_by);
	/* Generic before the lease goes, so that whoever the release lets through
	 * (a writer's open) already finds it so; a close in between waits for the
	 * release, which must act on this number's file (fdtable.c). */
	atomic_store(&f->releasing, 1);
	atomic_store(&f->state, IO_GENERIC);
	if (reason == IO_REASON_CLOSE)
		IO_TRACE("fd %d: closed", f->fd);
	else
		IO_TRACE("fd %d: back to read(2) at offset %lld: %s", f->fd,
			 (long long)io_real.lseek(f->fd, 0, SEEK_CUR), f->why_generic);
	unbind(f);
	atomic_store_explicit(&f->releasing, 0, memory_order_release);
	if (reason != IO_REASON_CLOSE) /* a guard that fired, not the end of the file's use */
		atomic_fetch_add(&io_counters.unspecializations, 1);
	if (reason == IO_REASON_SHARED || reason == IO_REASON_THREAD)
		atomic_fetch_add(&io_counters.shared, 1);
	return 0;
}

void io_unspecialize_now(struct io_file *f, enum io_reason reason)
{
	sigset_t saved;
	io_block_signals(&saved);
	pthread_mutex_lock(&f->lock);
	unspecialize_locked(f, reason);
	pthread_mutex_unlock(&f->lock);
	io_restore_signals(&saved);
}

void io_lease_broken(struct io_file *f)
{
	sigset_t saved;
	io_block_signals(&saved);
	/* Under the lock: a break that arrives while the descriptor is still being
	 * bound waits for the binding, then undoes it. */
	pthread_mutex_lock(&f->lock);
	/* F_GETLEASE reports the type a lease is being broken to: F_RDLCK means
	 * this lease is whole, and the signal was for an earlier file. */
	if (atomic_load(&f->state) == IO_SPECIALIZED && f->guard == RESPEC_IO_GUARD_LEASE &&
	    io_real.fcntl(f->fd, F_GETLEASE) != F_RDLCK) {
		atomic_fetch_add(&io_counters.lease_breaks, 1);
		unspecialize_locked(f, IO_REASON_WRITER);
	}
	pthread_mutex_unlock(&f->lock);
	io_restore_signals(&saved);
}

void io_unspecialize(struct io_file *f, enum io_reason reason)
{
	if (atomic_load(&f->state) != IO_SPECIALIZED)
		return;
	sigset_t saved;
	io_block_signals(&saved);
	if (atomic_load(&f->owner) == io_self() && atomic_load(&f->slot.inside) != 0) {
		/* A handler interrupted this thread's own read of f. */
		close_offset(f, reason);
		atomic_store(&f->owner, NULL);
		io_guard_thread_unspecialize(f, reason);
	} else {
		pthread_mutex_lock(&f->lock);
		int err = unspecialize_locked(f, reason);
		pthread_mutex_unlock(&f->lock);
		if (err) {
			io_guard_thread_unspecialize(f, reason);
			wait_synced(f);
		}
	}
	io_restore_signals(&saved);
}

void io_unspecialize_fd(int fd, enum io_reason reason)
{
	struct io_file *f = io_lookup(fd);
	if (!f)
		return;
	io_unspecialize(f, reason);
	/* Sharing is for good: a candidate must not be specialized later either. */
	if (reason == IO_REASON_SHARED || reason == IO_REASON_ASYNC)
		give_up(f, reason_text(reason));
}

void io_unspecialize_every(enum io_reason reason)
{
	int max = atomic_load(&io_max_tracked_fd);
	for (int fd = 0; fd <= max; fd++)
		io_unspecialize_fd(fd, reason);
}

/* Performs the operation with the system's own call. */
static int64_t via_kernel(int fd, int op, void *buf, uint64_t count, int64_t at)
{
	switch (op) {
	case IO_OP_READ:
		return io_real.read(fd, buf, count);
	case IO_OP_PREAD:
		return io_real.pread(fd, buf, count, (off_t)at);
	case IO_OP_READV:
		return at < 0 ? io_real.readv(fd, buf, (int)count)
			      : io_real.preadv(fd, buf, (int)count, (off_t)at);
	default:
		return io_real.lseek(fd, (off_t)at, (int)count);
	}
}

int64_t io_finish(struct io_file *f, int op, void *buf, uint64_t count, int64_t at, int64_t r)
{
	if (IO_IS_ERRNO(r)) {
		errno = (int)-r;
		return -1;
	}
	if (r == IO_RETRY) {
		/* Inside an interrupted read of f on this thread, the unspecializer is
		 * waiting for that read: close the offset here instead of waiting. */
		if (atomic_load(&f->slot.inside) != 0)
			close_offset(f, IO_REASON_NONE);
		else
			wait_synced(f);
	} else {
		io_unspecialize(f, f->poisoned ? (enum io_reason)f->poisoned : IO_REASON_KERNEL_IO);
	}
	return via_kernel(f->fd, op, buf, count, at);
}

/* f is specialized and owned by another thread, or in a transition. */
static void leave_for_this_thread(struct io_file *f)
{
	void *owner = atomic_load(&f->owner);
	/* Only this thread makes itself the owner (io_consider): not the case here. */
	if (owner == NULL)
		wait_synced(f); /* an unspecialization is under way */
	else if (owner != io_self())
		io_unspecialize(f, IO_REASON_THREAD);
}

/* Candidates are read by one thread: the opener, or the first reader. */
static bool is_candidate_reader(struct io_file *f)
{
	void *me = io_self();
	void *opener = atomic_load(&f->opener);
	if (opener == me)
		return true;
	if (opener == NULL && f->cand_reads == 0 && atomic_compare_exchange_strong(&f->opener, &opener, me))
		return true;
	give_up(f, reason_text(IO_REASON_THREAD));
	return false;
}

ssize_t io_read_slow(int fd, struct io_file *f, void *buf, size_t count)
{
	if (!f)
		return io_real.read(fd, buf, count);
	int state = atomic_load_explicit(&f->state, memory_order_acquire);
	if (state == IO_CANDIDATE && is_candidate_reader(f)) {
		ssize_t r = io_real.read(fd, buf, count);
		if (r > 0) {
			if (f->cand_pos < f->cand_lo)
				f->cand_lo = f->cand_pos;
			f->cand_pos += (uint64_t)r;
		}
		f->cand_reads++;
		if ((size_t)r == count && count > 0 && !f->declined) {
			int saved_errno = errno;
			io_consider(f, count);
			errno = saved_errno;
		}
		return r;
	}
	if (state == IO_SPECIALIZED)
		leave_for_this_thread(f);
	return io_real.read(fd, buf, count);
}

ssize_t io_pread_slow(int fd, struct io_file *f, void *buf, size_t count, off_t at)
{
	(void)f; /* pread leaves the offset alone: any thread, any state, the kernel */
	return io_real.pread(fd, buf, count, at);
}

ssize_t io_readv_slow(int fd, struct io_file *f, const struct iovec *iov, int iovcnt, off_t at)
{
	if (at >= 0)
		return io_real.preadv(fd, iov, iovcnt, at);
	if (f) {
		int state = atomic_load_explicit(&f->state, memory_order_acquire);
		if (state == IO_CANDIDATE && is_candidate_reader(f)) {
			ssize_t r = io_real.readv(fd, iov, iovcnt);
			if (r > 0)
				f->cand_pos += (uint64_t)r;
			f->cand_reads++;
			return r;
		}
		if (state == IO_SPECIALIZED)
			leave_for_this_thread(f);
	}
	return io_real.readv(fd, iov, iovcnt);
}

off_t io_lseek_slow(int fd, struct io_file *f, off_t offset, int whence)
{
	if (!f)
		return io_real.lseek(fd, offset, whence);
	int state = atomic_load_explicit(&f->state, memory_order_acquire);
	if (state == IO_SPECIALIZED)
		leave_for_this_thread(f);
	off_t r = io_real.lseek(fd, offset, whence);
	if (state == IO_CANDIDATE && r >= 0 && atomic_load(&f->opener) == io_self()) {
		/* Seeking back into what was already read is OMOS's "past behavior":
		 * the cost model counts the re-reads and may now find specializing
		 * worth it. It is asked again at 1, 2, 4, 8, ... re-reads, so that a
		 * program that keeps seeking (tac reads backwards) does not pay for a
		 * decision at every read. */
		if ((uint64_t)r < f->cand_pos && (uint64_t)r >= f->cand_lo) {
			f->rereads++;
			if ((f->rereads & (f->rereads - 1)) == 0)
				f->declined = 0;
		}
		f->cand_pos = (uint64_t)r;
	}
	return r;
}

void io_sync_offset(int fd)
{
	struct io_file *f = io_lookup(fd);
	if (!f || atomic_load(&f->state) != IO_SPECIALIZED)
		return;
	if (atomic_load(&f->owner) != io_self()) {
		leave_for_this_thread(f);
		return;
	}
	uint64_t pos = atomic_load(&f->pos);
	if (!(pos & IO_POS_CLOSED))
		io_real.lseek(fd, (off_t)(pos < f->size ? pos : f->size), SEEK_SET);
}
