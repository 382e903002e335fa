/*
 * data.c — the two implementations a descriptor's slot switches between, and
 * the memory the specialized one reads from.
 *
 * io_op_data is Synthetix's is_read: the file's bytes are at f->data (a shared
 * mapping of the page cache, or a private copy of a small file), the offset is
 * f->pos, and a sequential read is "claim [pos, pos + count), copy". Everything
 * that made read(2) general — descriptor lookup, file-type dispatch, locking the
 * offset, page-cache lookup — is gone because the quasi-invariants say it is not
 * needed: one thread owns the offset (NO_FP_SHARE), nobody writes the file
 * (READ_ONLY, so the size and the data are those seen at specialization), and
 * the file is a local regular file (FS_CONSTANT). Reads at the edges (end of
 * file, leaving the populated window, a closed offset) go to read_edge.
 *
 * io_op_kernel is the generic implementation: read(2) itself. It refuses (with
 * IO_RETRY) while an unspecialization has not yet moved the offset back to the
 * kernel, so that no read ever uses a stale kernel offset; the caller waits
 * outside the slot, where waiting cannot block the replug it waits for.
 *
 * Mappings are MAP_SHARED views of the page cache, so the bytes are always the
 * file's; what the guard protects is the size (a truncate would turn a copy
 * into SIGBUS) and private copies. Windows are populated with
 * MADV_POPULATE_READ, which reports an I/O error as an error where touching the
 * page would raise SIGBUS: a window that fails is read with pread(2) instead,
 * which returns EIO exactly where read(2) would, and the file goes generic.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Also called by open() (a new arena), maybe in a signal handler: the auxiliary
 * vector is read without locks, and racing first calls store the same value. */
uint64_t io_page_size(void)
{
	static _Atomic uint64_t cached;
	uint64_t page = atomic_load_explicit(&cached, memory_order_relaxed);
	if (!page) {
		page = getauxval(AT_PAGESZ);
		atomic_store_explicit(&cached, page, memory_order_relaxed);
	}
	return page;
}

/* CPU time of this thread: what populating costs, without the time a
 * neighbour held the CPU (a preempted measurement would make a cheap file look
 * dear). */
static uint64_t cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static inline void copy_out(void *dst, const unsigned char *src, uint64_t n)
{
	/* The 1-byte read is the case where a call to memcpy would be a third of
	 * the whole cost. */
	if (n == 1)
		*(unsigned char *)dst = *src;
	else
		memcpy(dst, src, n);
}

/* The operation needs read(2) itself: f goes generic first (io_finish). */
static int64_t needs_kernel(struct io_file *f, enum io_reason reason)
{
	f->poisoned = (int)reason;
	return IO_KERNEL;
}

/*
 * Populates [lo, hi) of the mapping with MADV_POPULATE_READ, timing it for the
 * cost check. False on an I/O error in the range (f is marked).
 */
static bool populate_range(struct io_file *f, uint64_t lo, uint64_t hi)
{
	uint64_t page = io_page_size();
	uint64_t map_hi = (hi + page - 1) & ~(page - 1);
	uint64_t start = cpu_ns();
	int rc;
	do
		rc = madvise((char *)f->map + lo, map_hi - lo, MADV_POPULATE_READ);
	while (rc != 0 && errno == EINTR);
	if (rc != 0) {
		f->poisoned = IO_REASON_ERROR;
		return false;
	}
	uint64_t spent = cpu_ns() - start;
	f->populate_ns += spent;
	f->populate_bytes += map_hi - lo;
	if (((lo | map_hi) & (IO_HUGE_PAGE - 1)) == 0)
		io_note_populate(spent, map_hi - lo);
	return true;
}

/*
 * Window strategy: makes [p, p + n) copyable by populating the window around
 * it, aligned to 2 MiB so that page cache in 2 MiB folios is mapped by 2 MiB
 * entries. False when the window cannot be populated (an I/O error in it).
 */
static bool populate_window(struct io_file *f, uint64_t p, uint64_t n)
{
	uint64_t page = io_page_size();
	uint64_t lo = p & ~(IO_HUGE_PAGE - 1);
	uint64_t hi = lo + f->window;
	if (hi < p + n)
		hi = (p + n + IO_HUGE_PAGE - 1) & ~(IO_HUGE_PAGE - 1);
	if (hi > f->size)
		hi = f->size;
	if (!populate_range(f, lo, hi))
		return false;
	/* Huge files: keep the page tables to two windows by dropping the one
	 * behind. The mapping stays, so a copy still running from it (a read this
	 * one interrupted in a signal handler) refaults from the page cache. */
	if (f->size >= io_costs.drop_behind_min && f->ready_hi > f->ready_lo &&
	    (f->ready_hi <= lo || f->ready_lo >= hi)) {
		uint64_t old_hi = (f->ready_hi + page - 1) & ~(page - 1);
		madvise((char *)f->map + f->ready_lo, old_hi - f->ready_lo, MADV_DONTNEED);
	}
	f->ready_lo = lo;
	f->ready_hi = hi;
	if (!io_window_worth_it(f))
		f->poisoned = IO_REASON_SLOW; /* this window is paid for: leave at the next */
	return true;
}

/*
 * Reads [p, p + n) with pread(2) for a read that claimed [p, p + claimed): the
 * exact kernel result (data, short count or EIO), and the claim shrunk to what
 * was read.
 */
static int64_t read_through_kernel(struct io_file *f, void *buf, uint64_t p, uint64_t n,
				   uint64_t claimed)
{
	ssize_t r = io_real.pread(f->fd, buf, n, (off_t)p);
	uint64_t got = r > 0 ? (uint64_t)r : 0;
	if (got != claimed)
		io_pos_cas(&f->pos, p + claimed, p + got);
	return r < 0 ? -(int64_t)errno : (int64_t)r;
}

/* A sequential read that claimed [p, p + count) but is not the common case. */
__attribute__((noinline)) static int64_t read_edge(struct io_file *f, void *buf, uint64_t count,
						   uint64_t p)
{
	if (p & IO_POS_CLOSED)
		return IO_RETRY; /* the offset went back to the kernel: the claim is void */
	uint64_t size = f->size;
	uint64_t n = p < size ? (count < size - p ? count : size - p) : 0;
	if (f->poisoned) {
		io_pos_cas(&f->pos, p + count, p);
		return needs_kernel(f, (enum io_reason)f->poisoned);
	}
	if (n < count) /* end of file: give back what lies beyond it */
		io_pos_cas(&f->pos, p + count, p + n);
	if (n == 0)
		return 0;
	if (p < f->ready_lo || p + n > f->ready_hi) {
		if (!f->map || !populate_window(f, p, n))
			return read_through_kernel(f, buf, p, n, n);
	}
	copy_out(buf, f->data + p, n);
	return (int64_t)n;
}

/* The total of an iovec, or -1 when readv(2) would not simply read that many
 * bytes (a segment longer than one read moves, a total beyond it): the kernel
 * then decides, including its EINVAL and EFAULT. */
static int64_t iov_total(const struct iovec *iov, uint64_t iovcnt)
{
	uint64_t total = 0;
	for (uint64_t i = 0; i < iovcnt; i++) {
		if (iov[i].iov_len > IO_MAX_RW - total)
			return -1;
		total += iov[i].iov_len;
	}
	return (int64_t)total;
}

static void scatter(const struct iovec *iov, const unsigned char *src, uint64_t n)
{
	for (uint64_t done = 0; done < n; iov++) {
		uint64_t part = iov->iov_len < n - done ? iov->iov_len : n - done;
		memcpy(iov->iov_base, src + done, part);
		done += part;
	}
}

static int64_t op_readv(struct io_file *f, const struct iovec *iov, uint64_t iovcnt, int64_t at)
{
	if (iovcnt > IOV_MAX) /* also a negative count */
		return -EINVAL;
	int64_t total = iov_total(iov, iovcnt);
	if (total == 0)
		return 0;
	if (total < 0) { /* the kernel reads it, at the logical offset */
		uint64_t p = at >= 0 ? (uint64_t)at : atomic_load_explicit(&f->pos, memory_order_relaxed);
		if (p & IO_POS_CLOSED)
			return IO_RETRY;
		ssize_t r = io_real.preadv(f->fd, iov, (int)iovcnt, (off_t)p);
		if (at < 0 && r > 0)
			io_pos_cas(&f->pos, p, p + (uint64_t)r);
		return r < 0 ? -(int64_t)errno : (int64_t)r;
	}
	uint64_t want = (uint64_t)total;
	uint64_t p = at >= 0 ? (uint64_t)at : io_claim(&f->pos, want);
	if (p & IO_POS_CLOSED)
		return IO_RETRY;
	uint64_t n = p < f->size ? (want < f->size - p ? want : f->size - p) : 0;
	if (at < 0 && n < want)
		io_pos_cas(&f->pos, p + want, p + n);
	if (n == 0)
		return 0;
	if (p < f->ready_lo || p + n > f->ready_hi) {
		ssize_t r = io_real.preadv(f->fd, iov, (int)iovcnt, (off_t)p);
		uint64_t got = r > 0 ? (uint64_t)r : 0;
		if (at < 0 && got != n)
			io_pos_cas(&f->pos, p + n, p + got);
		return r < 0 ? -(int64_t)errno : (int64_t)r;
	}
	scatter(iov, f->data + p, n);
	return (int64_t)n;
}

/* Moves the offset. A target past the end is remembered in f->past_end, so
 * that closing the offset can tell it from a read's claim beyond the end (see
 * close_offset in file.c); the stores are ordered for a signal handler that
 * closes the offset in between. */
static int64_t move_offset(struct io_file *f, uint64_t target)
{
	if (target > f->size) {
		f->past_end = target;
		atomic_store_explicit(&f->pos, target, memory_order_relaxed);
	} else {
		atomic_store_explicit(&f->pos, target, memory_order_relaxed);
		f->past_end = 0;
	}
	return (int64_t)target;
}

/*
 * lseek re-specializes, as in the paper: it moves the offset the specialized
 * read continues from, with no system call, as long as the target lies within
 * the file. Past the end, the kernel validates the target (file systems limit
 * it) and for SEEK_DATA/SEEK_HOLE it computes it; the kernel's own offset moves
 * too, which is harmless while it is not the one in use.
 */
static int64_t op_seek(struct io_file *f, int whence, int64_t offset)
{
	uint64_t cur = atomic_load_explicit(&f->pos, memory_order_relaxed);
	if (cur & IO_POS_CLOSED)
		return IO_RETRY;
	int64_t target;
	switch (whence) {
	case SEEK_SET:
		target = offset;
		break;
	case SEEK_CUR:
		if (offset == 0)
			return (int64_t)cur;
		target = (int64_t)(cur + (uint64_t)offset); /* wraps like the kernel's */
		break;
	case SEEK_END:
		target = (int64_t)(f->size + (uint64_t)offset);
		break;
	case SEEK_DATA:
	case SEEK_HOLE: {
		off_t r = io_real.lseek(f->fd, (off_t)offset, whence);
		return r < 0 ? -(int64_t)errno : move_offset(f, (uint64_t)r);
	}
	default:
		return -EINVAL; /* what lseek(2) says to any other whence */
	}
	if (target < 0)
		return -EINVAL;
	if ((uint64_t)target > f->size) {
		if ((uint64_t)target >= IO_POS_LIMIT)
			return needs_kernel(f, IO_REASON_SEEK);
		off_t r = io_real.lseek(f->fd, (off_t)target, SEEK_SET);
		if (r < 0)
			return -(int64_t)errno;
	}
	return move_offset(f, (uint64_t)target);
}

static int64_t op_pread(struct io_file *f, void *buf, uint64_t count, int64_t at)
{
	uint64_t p = (uint64_t)at;
	if (count > IO_MAX_RW)
		count = IO_MAX_RW;
	uint64_t n = p < f->size ? (count < f->size - p ? count : f->size - p) : 0;
	if (n == 0)
		return 0;
	if (p < f->ready_lo || p + n > f->ready_hi) {
		ssize_t r = io_real.pread(f->fd, buf, n, (off_t)p);
		return r < 0 ? -(int64_t)errno : (int64_t)r;
	}
	copy_out(buf, f->data + p, n);
	return (int64_t)n;
}

/* Out of line, so that the hot path below needs no stack frame. */
__attribute__((noinline)) static int64_t op_other(struct io_file *f, int op, void *buf,
						  uint64_t count, int64_t at)
{
	switch (op) {
	case IO_OP_READ: /* more than read(2) transfers at once: it moves this much */
		return read_edge(f, buf, IO_MAX_RW, io_claim(&f->pos, IO_MAX_RW));
	case IO_OP_PREAD:
		return op_pread(f, buf, count, at);
	case IO_OP_READV:
		return op_readv(f, buf, count, at);
	default:
		return op_seek(f, (int)count, at);
	}
}

__attribute__((noinline)) static int64_t copy_many(void *dst, const unsigned char *src, uint64_t n)
{
	if (n != 0) /* read(fd, NULL, 0) is valid; memcpy from or to NULL is not */
		memcpy(dst, src, n);
	return (int64_t)n;
}

int64_t io_op_data(struct io_file *f, int op, void *buf, uint64_t count, int64_t at)
{
	if (RESPEC_UNLIKELY(op != IO_OP_READ || count > IO_MAX_RW))
		return op_other(f, op, buf, count, at);
	uint64_t p = io_claim(&f->pos, count);
	/* A closed offset has bit 63 set, so it fails this test too. */
	if (RESPEC_UNLIKELY(p + count > f->ready_hi || p < f->ready_lo))
		return read_edge(f, buf, count, p);
	if (count != 1)
		return copy_many(buf, f->data + p, count);
	/* The 1-byte read: a call to memcpy would be a third of its cost. */
	*(unsigned char *)buf = f->data[p];
	return 1;
}

int64_t io_op_kernel(struct io_file *f, int op, void *buf, uint64_t count, int64_t at)
{
	if (!atomic_load_explicit(&f->synced, memory_order_acquire))
		return IO_RETRY;
	ssize_t r;
	switch (op) {
	case IO_OP_READ:
		r = io_real.read(f->fd, buf, count);
		break;
	case IO_OP_PREAD:
		r = io_real.pread(f->fd, buf, count, (off_t)at);
		break;
	case IO_OP_READV:
		r = at < 0 ? io_real.readv(f->fd, buf, (int)count)
			   : io_real.preadv(f->fd, buf, (int)count, (off_t)at);
		break;
	default:
		r = (ssize_t)io_real.lseek(f->fd, (off_t)at, (int)count);
		break;
	}
	return r < 0 ? -(int64_t)errno : (int64_t)r;
}

/*
 * Private copies come from a small pool of anonymous regions, one list per
 * power-of-two size up to the largest copy: faulting fresh anonymous pages in
 * costs more here (about 1.5 µs per 4 KiB page in a KVM guest) than the copy
 * itself, so a region is kept for the next small file instead of unmapped.
 */
enum { POOL_CLASSES = 7, POOL_DEPTH = 4, POOL_MIN = 4096 }; /* 4 KiB .. 256 KiB */
static struct {
	pthread_mutex_t lock;
	void *free[POOL_CLASSES][POOL_DEPTH];
	int count[POOL_CLASSES];
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int copy_class(size_t len)
{
	int c = 0;
	while (((size_t)POOL_MIN << c) < len)
		c++;
	return c;
}

static size_t copy_size(uint64_t size)
{
	return (size_t)POOL_MIN << copy_class(size);
}

static void *copy_take(size_t len)
{
	int c = copy_class(len);
	void *region = NULL;
	if (c < POOL_CLASSES) {
		pthread_mutex_lock(&pool.lock);
		if (pool.count[c] > 0)
			region = pool.free[c][--pool.count[c]];
		pthread_mutex_unlock(&pool.lock);
	}
	if (!region) {
		region = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (region == MAP_FAILED)
			region = NULL;
	}
	return region;
}

static void copy_give(void *region, size_t len)
{
	int c = copy_class(len);
	if (c < POOL_CLASSES) {
		pthread_mutex_lock(&pool.lock);
		bool kept = pool.count[c] < POOL_DEPTH;
		if (kept)
			pool.free[c][pool.count[c]++] = region;
		pthread_mutex_unlock(&pool.lock);
		if (kept)
			return;
	}
	munmap(region, len);
}

const char *io_data_setup(struct io_file *f, uint64_t pos)
{
	f->map = NULL;
	f->copy = NULL;
	f->poisoned = 0;
	f->populate_ns = f->populate_bytes = 0;
	f->ready_lo = f->ready_hi = 0;
	if (f->strategy == RESPEC_IO_BUFFER) {
		size_t len = copy_size(f->size);
		unsigned char *copy = copy_take(len);
		if (!copy)
			return "no memory for a private copy";
		uint64_t got = 0;
		while (got < f->size) {
			ssize_t r = io_real.pread(f->fd, copy + got, f->size - got, (off_t)got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				copy_give(copy, len);
				return r < 0 ? "pread of the private copy failed" : "file shrank";
			}
			got += (uint64_t)r;
		}
		f->copy = copy;
		f->map_len = len;
		f->data = copy;
		f->ready_hi = f->size;
		return NULL;
	}
	uint64_t page = io_page_size();
	size_t len = (f->size + page - 1) & ~(page - 1);
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, f->fd, 0);
	if (map == MAP_FAILED)
		return "mmap failed";
	f->map = map;
	f->map_len = len;
	f->data = map;
	f->window = io_costs.window;
	if (f->strategy == RESPEC_IO_WHOLE) {
		/* The first 4 MiB tell what populating costs for this file's page
		 * cache; the rest is populated only if that still pays for a single
		 * pass — or if the program disclosed random access (many passes). */
		bool judge = !(atomic_load(&io_hints) & RESPEC_IO_HINT_RANDOM);
		uint64_t first = f->size < 2 * IO_HUGE_PAGE ? f->size : 2 * IO_HUGE_PAGE;
		const char *why = NULL;
		if (!populate_range(f, 0, first)) {
			why = "populating the mapping failed (I/O error)";
		} else if (judge && first < f->size && !io_window_worth_it(f)) {
			why = "populating the mapping measured slower than read(2)";
			f->poisoned = IO_REASON_SLOW;
		} else if (first < f->size && !populate_range(f, first, f->size)) {
			why = "populating the mapping failed (I/O error)";
		}
		if (why) {
			munmap(map, len);
			f->map = NULL;
			return why;
		}
		f->ready_hi = f->size;
	} else {
		/* The first two windows now, one at a time, so that their cost is
		 * known before the guard (see io_window_worth_it). */
		const char *why = NULL;
		uint64_t lo = (pos < f->size ? pos : f->size - 1) & ~(IO_HUGE_PAGE - 1);
		uint64_t hi = lo;
		for (int step = 0; step < 2 && hi < f->size && !why; step++) {
			uint64_t from = hi;
			hi = hi + f->window < f->size ? hi + f->window : f->size;
			if (!populate_range(f, from, hi)) {
				why = "populating the mapping failed (I/O error)";
			} else if (!io_window_worth_it(f)) {
				why = "populating the mapping measured slower than read(2)";
				f->poisoned = IO_REASON_SLOW;
			}
		}
		f->ready_lo = lo;
		f->ready_hi = hi;
		if (why) {
			munmap(map, len);
			f->map = NULL;
			return why;
		}
	}
	return NULL;
}

void io_data_release(struct io_data_leftovers what)
{
	if (what.map)
		munmap(what.map, what.map_len);
	if (what.copy)
		copy_give(what.copy, what.map_len);
}

void io_data_fork_child(void)
{
	pthread_mutex_init(&pool.lock, NULL);
}
