/*
 * io.h — librespec-io: a specialized read path for regular files, in user space.
 *
 * The Synthetix case study (`is_read`) redone on librespec: when a regular file
 * opened read-only on a local file system is read by one thread, its reads are
 * served from memory (a mapping of the page cache, or a private copy of a small
 * file) by code plugged into a librespec slot, with no system call. The facts
 * that make this correct — nobody writes the file, nobody else shares the file
 * offset — are quasi-invariants guarded by a kernel read lease (a writer's open
 * or a truncate breaks it; the break is handled before the writer's open
 * returns) and by the calls that could share the offset (dup, fork, exec,
 * SCM_RIGHTS, ...). When a guard fires, the file goes back to read(2) with the
 * kernel's file offset set to the logical one. See io/README.md.
 *
 * Two ways to use it:
 *   - unmodified programs: LD_PRELOAD=librespec-io-preload.so (the shim
 *     interposes open, read, lseek, dup, fork, ... and does all of this);
 *   - the API below (library librespec-io.a): open with respec_io_open (or
 *     adopt a descriptor), read with respec_io_read/pread/readv, seek with
 *     respec_io_lseek, close with respec_io_close. The API does not see dup,
 *     fork or exec: call respec_io_unspecialize(fd) (or _all) before sharing a
 *     descriptor or its offset with anything that does not go through the API.
 *
 * Every function behaves like the system call it mirrors: same results, same
 * errno values, same effect on the file offset as far as any other observer
 * (another process, a later read(2)) can tell.
 */
#ifndef RESPEC_IO_H
#define RESPEC_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exported from the shim as well, so that a program running under it can ask
 * what was decided (the library itself is built with hidden visibility). */
#define RESPEC_IO_PUBLIC __attribute__((visibility("default")))

/* How a descriptor's reads are served (OMOS's I/O strategies). */
enum respec_io_strategy {
	RESPEC_IO_KERNEL = 0, /* read(2): not specialized (yet, or any more) */
	RESPEC_IO_BUFFER = 1, /* small file: one pread into a private copy */
	RESPEC_IO_WINDOW = 2, /* mapping, populated one window ahead of the reader */
	RESPEC_IO_WHOLE = 3,  /* mapping, populated entirely at specialization */
};

/* What keeps a specialized descriptor correct against writers. */
enum respec_io_guard {
	RESPEC_IO_GUARD_NONE = 0,      /* not specialized */
	RESPEC_IO_GUARD_LEASE = 1,     /* F_SETLEASE read lease, break = writer's open */
	RESPEC_IO_GUARD_VERITY = 2,    /* fs-verity: the file can never be written */
	RESPEC_IO_GUARD_IMMUTABLE = 3, /* immutable attribute, when no lease is allowed */
	RESPEC_IO_GUARD_SEALED = 4,    /* memfd sealed against write, grow and shrink */
};

/* Behavior a program discloses (OMOS's annotations): steers the strategy. */
enum respec_io_hint {
	RESPEC_IO_HINT_SEQUENTIAL = 1, /* scans files front to back */
	RESPEC_IO_HINT_RANDOM = 2,     /* seeks around: map whole files */
	RESPEC_IO_HINT_BIG_IO = 4,     /* reads in big chunks */
};

/*
 * Disclosure in the program's ELF file, read at startup by the library (the
 * shim included): RESPEC_IO_DISCLOSE("sequential") at file scope; several
 * hints separated by commas. The environment variable RESPEC_IO_HINTS (same
 * syntax) overrides it.
 */
#define RESPEC_IO_NOTE_TYPE 0x52494f31u /* "RIO1" */
#define RESPEC_IO_DISCLOSE(hints)                                                     \
	__attribute__((section(".note.respec.io"), used, aligned(4))) static const struct { \
		unsigned int namesz, descsz, type;                                        \
		char name[8];                                                             \
		char desc[(sizeof(hints) + 3) & ~3u];                                     \
	} respec_io_disclosure_ = {7, sizeof(hints), RESPEC_IO_NOTE_TYPE, "respec", hints}

/* open(2)/openat(2), and the descriptor is considered for specialization. */
RESPEC_IO_PUBLIC int respec_io_open(const char *path, int flags, ...);
RESPEC_IO_PUBLIC int respec_io_openat(int dirfd, const char *path, int flags, ...);
/* Considers an already open descriptor (0 on success, -1 with errno EBADF). */
RESPEC_IO_PUBLIC int respec_io_adopt(int fd);

RESPEC_IO_PUBLIC ssize_t respec_io_read(int fd, void *buf, size_t count);
RESPEC_IO_PUBLIC ssize_t respec_io_pread(int fd, void *buf, size_t count, off_t offset);
RESPEC_IO_PUBLIC ssize_t respec_io_readv(int fd, const struct iovec *iov, int iovcnt);
RESPEC_IO_PUBLIC off_t respec_io_lseek(int fd, off_t offset, int whence);
RESPEC_IO_PUBLIC int respec_io_close(int fd);

/* Back to read(2) for good, kernel offset set to the logical offset: call it
 * before dup, fork, exec or passing the descriptor on (the shim does this
 * itself). 0, or -1 with errno. */
RESPEC_IO_PUBLIC int respec_io_unspecialize(int fd);
RESPEC_IO_PUBLIC void respec_io_unspecialize_all(void);

/* Replaces the disclosed hints (RESPEC_IO_HINT_* bits) for later decisions. */
RESPEC_IO_PUBLIC void respec_io_set_hints(unsigned hints);

struct respec_io_info {
	bool tracked;                     /* known to the library */
	bool specialized;                 /* reads are served without read(2) */
	enum respec_io_strategy strategy; /* chosen (RESPEC_IO_KERNEL if none) */
	enum respec_io_guard guard;
	const char *why_generic;          /* last reason it is not specialized, or NULL */
	uint64_t size;                    /* file size when specialized */
};
/* Describes fd; 0, or -1 with errno EBADF for a negative fd. */
RESPEC_IO_PUBLIC int respec_io_info(int fd, struct respec_io_info *out);
RESPEC_IO_PUBLIC const char *respec_io_strategy_name(enum respec_io_strategy strategy);
RESPEC_IO_PUBLIC const char *respec_io_guard_name(enum respec_io_guard guard);

/* Process-wide counters (also printed at exit with RESPEC_IO_STATS=1). */
struct respec_io_stats {
	uint64_t specializations[4];  /* by strategy */
	uint64_t unspecializations;   /* guards fired, by any reason */
	uint64_t lease_breaks;        /* of them: a writer's open or a truncate */
	uint64_t shared;              /* of them: dup, fork, exec, SCM_RIGHTS, threads */
	uint64_t declined;            /* candidates left on read(2) by the cost model */
	uint64_t populate_bailouts;   /* mapping populate measured too slow */
};
RESPEC_IO_PUBLIC void respec_io_get_stats(struct respec_io_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* RESPEC_IO_H */
