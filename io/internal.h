/*
 * internal.h — what librespec-io's files share: the per-descriptor state, the
 * slot operation every read goes through, the entry points of each concept
 * (real calls, descriptor table, invariants, lease guard, strategies, data
 * paths, specialization protocol), and the inline fast paths the API and the
 * shim both use.
 *
 * Life of a descriptor (struct io_file, one per descriptor number, never freed
 * so that a racing lookup can never touch freed memory):
 *   UNTRACKED  -- open of a regular file for reading -->  CANDIDATE
 *   CANDIDATE  reads go to read(2); after the first full read the cost model
 *              (strategy.c) decides; declined candidates are reconsidered when
 *              the program seeks back to re-read
 *   CANDIDATE  -- checks pass, guard taken, data mapped -->  SPECIALIZED
 *   SPECIALIZED  reads by the owner thread run io_op_data through the slot
 *   SPECIALIZED  -- a guard fires -->  GENERIC (read(2) with the offset synced)
 * close untracks the number again.
 *
 * Lock order: f->lock, then librespec's locks (predicate, slot). Every path that
 * holds f->lock blocks signals first, so that a signal handler reading the same
 * descriptor cannot interrupt a transition half way and wait for itself.
 */
#ifndef RESPEC_IO_INTERNAL_H
#define RESPEC_IO_INTERNAL_H

#include "respec/io.h"
#include "respec/runtime.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#define IO_HIDDEN __attribute__((visibility("hidden")))

/* Descriptors at or above this number are never specialized (a flat table
 * keeps the lookup at one load). */
#define IO_MAX_FDS 65536
/* read(2) never transfers more than this in one call (MAX_RW_COUNT). */
#define IO_MAX_RW 0x7ffff000ull
/* Set in f->pos when the logical offset has moved back to the kernel. */
#define IO_POS_CLOSED (1ull << 63)
/* Offsets from here on go to the kernel: claims must not carry into the flag. */
#define IO_POS_LIMIT (1ull << 62)

/* Results of a slot operation that are not a result of the system call. */
#define IO_RETRY INT64_MIN            /* generic, kernel offset not synced yet */
#define IO_KERNEL (INT64_MIN + 1)     /* cannot serve it specialized: unspecialize */
#define IO_IS_ERRNO(r) ((r) < 0 && (r) > -4096)

/* ---- real calls (real.c) ---------------------------------------------------- */

/* What the library calls for the system's own behavior: libc's functions in the
 * API library, the next definitions (libc's) in the shim (resolved on first
 * use). */
struct io_real {
	ssize_t (*read)(int, void *, size_t);
	ssize_t (*pread)(int, void *, size_t, off_t);
	ssize_t (*readv)(int, const struct iovec *, int);
	ssize_t (*preadv)(int, const struct iovec *, int, off_t);
	off_t (*lseek)(int, off_t, int);
	int (*close)(int);
	int (*fcntl)(int, int, ...);
	int (*openat)(int, const char *, int, ...);
};
extern struct io_real io_real IO_HIDDEN;

/* ---- library setup and open-time classification (api.c) --------------------- */

IO_HIDDEN void io_library_init(void);
/* Read-only opens without flags that change read(2) become candidates. */
IO_HIDDEN bool io_open_is_candidate(int flags);
/* Opens for writing or truncating: in-process writers of a leased file. */
IO_HIDDEN bool io_open_writes(int flags);
/* The mode argument of an open(2)-like call: read from `ap` only when `flags`
 * say the caller passed one (O_CREAT, O_TMPFILE), else 0. */
IO_HIDDEN mode_t io_open_mode(int flags, va_list ap);

/* ---- descriptor state ----------------------------------------------------- */

enum io_state { IO_UNTRACKED, IO_CANDIDATE, IO_SPECIALIZED, IO_GENERIC };

/* Why a specialized descriptor went back to read(2): the quasi-invariant that
 * broke (the term written by the guarded store). */
enum io_reason {
	IO_REASON_NONE,
	IO_REASON_WRITER,     /* READ_ONLY: lease break (writer's open, truncate) */
	IO_REASON_SHARED,     /* NO_FP_SHARE: dup, fork, exec, SCM_RIGHTS, stdio */
	IO_REASON_THREAD,     /* NO_FP_SHARE between threads: a second thread used it */
	IO_REASON_KERNEL_IO,  /* the kernel offset is used directly (sendfile, ...) */
	IO_REASON_SEEK,       /* seek past end of file */
	IO_REASON_ERROR,      /* a mapped window could not be populated (I/O error) */
	IO_REASON_SLOW,       /* populating measured slower than read(2) */
	IO_REASON_ASYNC,      /* O_DIRECT/O_ASYNC, leases or signals set by the program */
	IO_REASON_CLOSE,      /* the descriptor is being closed */
	IO_REASON_STOPPED,    /* the process was told to stop (SIGTSTP, SIGTTIN, SIGTTOU) */
};

struct io_file;
typedef int64_t (*io_op_fn)(struct io_file *f, int op, void *buf, uint64_t count, int64_t at);
enum io_op { IO_OP_READ, IO_OP_PREAD, IO_OP_READV, IO_OP_SEEK };

struct io_file {
	/* ---- read on every specialized call (the owner's fast path) ---- */
	void *_Atomic owner;       /* io_self() of the owner while specialized, else NULL */
	respec_slot slot;          /* THREAD protocol, owned by `owner`'s thread */
	_Atomic uint64_t pos;      /* logical offset (| IO_POS_CLOSED), owner-written */
	const unsigned char *data; /* byte 0 of the file: mapping or private copy */
	uint64_t size;             /* file size, fixed while specialized */
	uint64_t ready_lo, ready_hi; /* [lo, hi) is populated and may be copied */
	uint64_t past_end;         /* offset set by a seek past the end, else 0 */

	/* ---- transitions ---- */
	int fd;
	pthread_mutex_t lock;
	_Atomic int state;         /* enum io_state */
	_Atomic uint32_t synced;   /* futex word: 1 when the kernel offset is the truth */
	_Atomic int releasing;     /* generic, but its lease and memory not yet freed */
	respec_predicate *pred;    /* "io.fd<N>": the quasi-invariants of this file */
	respec_spid spid;
	/* The predicate's term, written by the guarded store that unspecializes
	 * (file.c): which quasi-invariant broke (enum io_reason). */
	int broken_by;

	/* ---- what was chosen and how it is guarded ---- */
	enum respec_io_strategy strategy;
	enum respec_io_guard guard;
	const char *why_generic;
	void *map;                 /* mapping base (whole file), or NULL */
	size_t map_len;
	void *copy;                /* private copy (buffer strategy), or NULL */
	uint64_t window;           /* window strategy: bytes populated per step */
	uint64_t populate_ns, populate_bytes; /* window strategy: measured cost */
	uint64_t last_count;       /* request size the decision was made for */
	uint64_t dev, ino;         /* identity, to match writers' opens in-process */
	int poisoned;              /* a window failed to populate: go generic */

	/* ---- candidate bookkeeping (opener thread only) ---- */
	void *_Atomic opener;
	uint64_t cand_pos;         /* where the candidate's reads are, as far as known */
	uint64_t cand_lo;          /* lowest offset it read from */
	uint32_t cand_reads, rereads;
	int declined;              /* cost model said no; retry after a re-read */
	int open_flags;
};

/* ---- descriptor table (fdtable.c) ------------------------------------------ */

extern struct io_file *_Atomic io_files[IO_MAX_FDS] IO_HIDDEN;
extern _Atomic int io_max_tracked_fd IO_HIDDEN;

static inline struct io_file *io_lookup(int fd)
{
	if ((unsigned)fd >= IO_MAX_FDS)
		return NULL;
	return atomic_load_explicit(&io_files[fd], memory_order_acquire);
}

/* This thread's identity for ownership tests: an address in its TLS block. */
extern _Thread_local char io_thread_token IO_HIDDEN __attribute__((tls_model("initial-exec")));
static inline void *io_self(void)
{
	return &io_thread_token;
}

/* A freshly opened descriptor (open flags given) becomes a candidate; anything
 * tracked under that number before is forgotten. */
IO_HIDDEN void io_track(int fd, int open_flags);
/* The number is closed or about to be replaced: unspecialize, forget. */
IO_HIDDEN void io_untrack(int fd);
/* Sets up the slot and predicate of f on its first specialization. */
IO_HIDDEN int io_file_prepare(struct io_file *f);

/* Signals blocked around transitions (see the lock order above). */
IO_HIDDEN void io_block_signals(sigset_t *saved);
IO_HIDDEN void io_restore_signals(const sigset_t *saved);

/* ---- disclosure (disclosure.c) --------------------------------------------- */

extern _Atomic unsigned io_hints IO_HIDDEN;
IO_HIDDEN void io_disclosure_init(void);
IO_HIDDEN unsigned io_parse_hints(const char *text);

/* ---- invariants checked at specialization (invariants.c) ------------------- */

struct io_facts {
	uint64_t size, dev, ino;
	bool immutable, verity, sealed;
};
/* NULL if f's descriptor is a regular file (facts: size, identity, statx
 * attributes), else why not. */
IO_HIDDEN const char *io_check_file(struct io_file *f, struct io_facts *facts);
/* NULL if it is opened read-only on a page-cache file system (facts: memfd
 * seals), else why not. */
IO_HIDDEN const char *io_check_placement(struct io_file *f, struct io_facts *facts);
/* Size after the guard is in place (the earlier look may predate a writer). */
IO_HIDDEN const char *io_recheck_size(struct io_file *f, struct io_facts *facts);

/* ---- lease guard (lease.c) -------------------------------------------------- */

/* Takes the guard for f: a lease, or a hard invariant from facts. NULL on
 * success (f->guard set), else why not. */
IO_HIDDEN const char *io_guard_take(struct io_file *f, const struct io_facts *facts);
IO_HIDDEN void io_guard_release(struct io_file *f);
/* Non-owner paths that cannot wait themselves (nested in a call of their own):
 * the guard thread unspecializes f, this waits for it. */
IO_HIDDEN void io_guard_thread_unspecialize(struct io_file *f, enum io_reason reason);
IO_HIDDEN extern _Atomic int io_leases_held;
/* Unspecializes leased files that are the file at `path` (an in-process open
 * for writing or truncate would otherwise wait for our own lease break). */
IO_HIDDEN void io_guard_before_writer(int dirfd, const char *path);
IO_HIDDEN void io_guard_fork_child(void);

/* ---- strategies (strategy.c) ------------------------------------------------ */

/* Cost model constants, measured by bench-io (io/README.md). */
struct io_costs {
	double syscall_ns;          /* read(2) of one cached byte */
	double kernel_copy_ns_kib;  /* read(2)'s copy, per KiB, cached */
	double user_copy_ns_kib;    /* memcpy from a populated mapping, per KiB */
	double setup_ns;            /* checks + lease + slot establish + release */
	double map_ns;              /* mmap + munmap */
	double pte_populate_ns_kib; /* populating 4 KiB page-table entries, per KiB */
	uint64_t buffer_max;        /* largest file copied privately */
	uint64_t whole_max;         /* largest file populated whole at once */
	uint64_t window;            /* window strategy step */
	uint64_t drop_behind_min;   /* files above this drop PTEs behind the reader */
};
extern struct io_costs io_costs IO_HIDDEN;
/* Measures the costs on this machine, or reads them from its cache, once
 * (costs.c); before that, io_costs holds the development machine's. */
IO_HIDDEN void io_costs_init(void);
/* Strategy for a file of `size` read from `pos` in requests of `count` bytes
 * after `rereads` re-reads, or RESPEC_IO_KERNEL when read(2) is cheaper. */
IO_HIDDEN enum respec_io_strategy io_choose(uint64_t size, uint64_t pos, uint64_t count,
					    unsigned hints, uint32_t rereads);
/* Page cache folios this large (and aligned) are mapped by one entry. */
#define IO_HUGE_PAGE (2ull << 20)
/* Records what populating an aligned window cost, for later decisions. */
IO_HIDDEN void io_note_populate(uint64_t ns, uint64_t bytes);
/* Window strategy: is populating at the measured cost still a win? */
IO_HIDDEN bool io_window_worth_it(const struct io_file *f);

/* ---- data paths (data.c) ----------------------------------------------------- */

/* Maps or copies the file for f->strategy, for reads from offset `pos`; NULL
 * on success, else why not (f->poisoned says IO_REASON_SLOW when populating
 * measured dearer than read(2)). */
IO_HIDDEN const char *io_data_setup(struct io_file *f, uint64_t pos);
/* Frees what io_data_setup made (after no specialized call can run). */
struct io_data_leftovers {
	void *map;
	size_t map_len;
	void *copy;
};
IO_HIDDEN void io_data_release(struct io_data_leftovers what);
IO_HIDDEN void io_data_fork_child(void);
IO_HIDDEN uint64_t io_page_size(void);
/* The slot's implementations: specialized (data) and generic (kernel). */
IO_HIDDEN int64_t io_op_data(struct io_file *f, int op, void *buf, uint64_t count, int64_t at);
IO_HIDDEN int64_t io_op_kernel(struct io_file *f, int op, void *buf, uint64_t count, int64_t at);

/* Claims [pos, pos + count) of the logical offset, atomically with respect to
 * signal handlers on this (the owner) thread: one non-locked instruction on
 * x86-64, where a locked one would cost more than the rest of a 1-byte read. */
static inline uint64_t io_claim(_Atomic uint64_t *pos, uint64_t count)
{
#if defined(__x86_64__)
	uint64_t old = count;
	__asm__ volatile("xaddq %0, %1" : "+r"(old), "+m"(*pos) : : "memory");
	return old;
#else
	return atomic_fetch_add_explicit(pos, count, memory_order_relaxed);
#endif
}

/* pos = desired if pos == expected, atomically with respect to this thread's
 * signal handlers (non-locked cmpxchg on x86-64). */
static inline bool io_pos_cas(_Atomic uint64_t *pos, uint64_t expected, uint64_t desired)
{
#if defined(__x86_64__)
	uint64_t seen = expected;
	__asm__ volatile("cmpxchgq %2, %1" : "+a"(seen), "+m"(*pos) : "r"(desired) : "memory", "cc");
	return seen == expected;
#else
	return atomic_compare_exchange_strong_explicit(pos, &expected, desired,
						       memory_order_relaxed, memory_order_relaxed);
#endif
}

/* ---- specialization protocol (file.c) ---------------------------------------- */

/* Candidate f was read in full by `count` bytes: decide, maybe specialize. */
IO_HIDDEN void io_consider(struct io_file *f, uint64_t count);
/* At library setup: fork makes every candidate generic for good. */
IO_HIDDEN void io_fork_handlers_init(void);
/* A guard fired: back to read(2) with the kernel offset synced. */
IO_HIDDEN void io_unspecialize(struct io_file *f, enum io_reason reason);
IO_HIDDEN void io_unspecialize_fd(int fd, enum io_reason reason);
IO_HIDDEN void io_unspecialize_every(enum io_reason reason);
/* The guard thread's answer to a lease-break signal for f's number. */
IO_HIDDEN void io_lease_broken(struct io_file *f);
/* The synchronous body, for the guard thread. */
IO_HIDDEN void io_unspecialize_now(struct io_file *f, enum io_reason reason);
/* Completes an operation whose slot call did not return a plain result. */
IO_HIDDEN int64_t io_finish(struct io_file *f, int op, void *buf, uint64_t count, int64_t at,
			    int64_t r);
/* Slow paths of read/pread/readv/lseek (not specialized, or another thread). */
IO_HIDDEN ssize_t io_read_slow(int fd, struct io_file *f, void *buf, size_t count);
IO_HIDDEN ssize_t io_pread_slow(int fd, struct io_file *f, void *buf, size_t count, off_t at);
IO_HIDDEN ssize_t io_readv_slow(int fd, struct io_file *f, const struct iovec *iov, int iovcnt,
				off_t at);
IO_HIDDEN off_t io_lseek_slow(int fd, struct io_file *f, off_t offset, int whence);
/* Makes the kernel offset equal the logical one without unspecializing (for
 * calls that read it, like ioctl(FIONREAD)). */
IO_HIDDEN void io_sync_offset(int fd);

/* ---- statistics (fdtable.c) ---------------------------------------------------- */

struct io_counters {
	_Atomic uint64_t specializations[4], unspecializations, lease_breaks, shared, declined,
		populate_bailouts;
};
extern struct io_counters io_counters IO_HIDDEN;
IO_HIDDEN void io_stats_at_exit_init(void);
/* RESPEC_IO_STATS=verbose: one line per decision and per guard that fires. */
extern bool io_verbose IO_HIDDEN;
IO_HIDDEN void io_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define IO_TRACE(...)                                                                 \
	do {                                                                          \
		if (RESPEC_UNLIKELY(io_verbose))                                      \
			io_trace(__VA_ARGS__);                                        \
	} while (0)

/* ---- the fast paths --------------------------------------------------------------- */

/* A call through f's slot by its owner (THREAD protocol, see file.c). */
static inline int64_t io_call(struct io_file *f, int op, void *buf, uint64_t count, int64_t at)
{
	io_op_fn fn = (io_op_fn)respec_enter_thread(&f->slot);
	int64_t r = fn(f, op, buf, count, at);
	respec_exit_thread(&f->slot);
	return r;
}

static inline ssize_t io_result(struct io_file *f, int op, void *buf, uint64_t count, int64_t at,
				int64_t r)
{
	if (RESPEC_LIKELY(r >= 0))
		return (ssize_t)r;
	return (ssize_t)io_finish(f, op, buf, count, at, r);
}

static inline bool io_owned(struct io_file *f)
{
	return atomic_load_explicit(&f->owner, memory_order_relaxed) == io_self();
}

static inline ssize_t io_read(int fd, void *buf, size_t count)
{
	struct io_file *f = io_lookup(fd);
	if (RESPEC_LIKELY(f != NULL) && RESPEC_LIKELY(io_owned(f)))
		return io_result(f, IO_OP_READ, buf, count, 0, io_call(f, IO_OP_READ, buf, count, 0));
	return io_read_slow(fd, f, buf, count);
}

static inline ssize_t io_pread(int fd, void *buf, size_t count, off_t at)
{
	struct io_file *f = io_lookup(fd);
	if (RESPEC_LIKELY(f != NULL) && at >= 0 && io_owned(f))
		return io_result(f, IO_OP_PREAD, buf, count, at, io_call(f, IO_OP_PREAD, buf, count, at));
	return io_pread_slow(fd, f, buf, count, at);
}

/* at < 0: readv at the file offset; else preadv at `at`. */
static inline ssize_t io_readv(int fd, const struct iovec *iov, int iovcnt, off_t at)
{
	struct io_file *f = io_lookup(fd);
	if (f != NULL && io_owned(f)) {
		void *vec = (void *)iov;
		return io_result(f, IO_OP_READV, vec, (uint64_t)iovcnt, at,
				 io_call(f, IO_OP_READV, vec, (uint64_t)iovcnt, at));
	}
	return io_readv_slow(fd, f, iov, iovcnt, at);
}

static inline off_t io_lseek(int fd, off_t offset, int whence)
{
	struct io_file *f = io_lookup(fd);
	if (f != NULL && io_owned(f))
		return (off_t)io_result(f, IO_OP_SEEK, NULL, (uint64_t)whence, offset,
					io_call(f, IO_OP_SEEK, NULL, (uint64_t)whence, offset));
	return io_lseek_slow(fd, f, offset, whence);
}

#endif /* RESPEC_IO_INTERNAL_H */
