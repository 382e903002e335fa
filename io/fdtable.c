/*
 * fdtable.c — the per-process table from descriptor numbers to struct io_file,
 * tracking and untracking of numbers, the one-time librespec setup of a
 * number's slot and predicate, and the process-wide counters.
 *
 * A struct io_file belongs to a descriptor *number* and lives as long as the
 * process: a thread that looked a number up just before another thread closed
 * and reopened it holds a pointer to valid memory describing whatever the
 * number is now, which is exactly what read(2) on that number would use. The
 * structs come from arenas (a static one, then mapped ones), never from malloc,
 * because open() and close() — which allocate and reset them — may be called
 * from signal handlers.
 *
 * State changes of an untracked or candidate number are compare-and-swaps on
 * f->state; specialization and unspecialization hold f->lock (with signals
 * blocked) and finish with a compare-and-swap, so a close racing with a
 * specialization always wins cleanly (the specialization is undone).
 */
#define _GNU_SOURCE
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

struct io_file *_Atomic io_files[IO_MAX_FDS];
_Atomic int io_max_tracked_fd = -1;
_Thread_local char io_thread_token __attribute__((tls_model("initial-exec")));
struct io_counters io_counters;

enum { ARENA_FILES = 64 };
struct arena {
	_Atomic unsigned used;
	struct io_file files[ARENA_FILES];
};
/* The arenas must not merge with the program's own anonymous mappings. The
 * kernel places a new mapping in the highest free gap that fits, usually right
 * below the last one, and merges neighbours of equal protection: GNU cat maps
 * and unmaps a 128 KiB buffer per file, and with a mapped arena there each unmap
 * split it again (cat over 600 small files relinked: 0.952x the plain link, and
 * 0.975x once the first arena was static). So the first arena is static, and a
 * mapped one (past 64 descriptor numbers; not measured) lies between two
 * inaccessible pages, which merge with nothing the program unmaps. */
static struct arena first_arena;
static struct arena *_Atomic current_arena = &first_arena;

static size_t arena_mapping_size(void)
{
	return io_page_size() + sizeof(struct arena) + io_page_size();
}

static struct arena *map_arena(void)
{
	char *area = mmap(NULL, arena_mapping_size(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return NULL;
	struct arena *a = (struct arena *)(area + io_page_size());
	if (mprotect(a, sizeof *a, PROT_READ | PROT_WRITE) != 0) {
		munmap(area, arena_mapping_size());
		return NULL;
	}
	return a;
}

static void unmap_arena(struct arena *a)
{
	munmap((char *)a - io_page_size(), arena_mapping_size());
}

static struct io_file *arena_alloc(void)
{
	for (;;) {
		struct arena *a = atomic_load(&current_arena);
		unsigned i = atomic_fetch_add(&a->used, 1);
		if (i < ARENA_FILES)
			return &a->files[i];
		struct arena *fresh = map_arena();
		if (!fresh)
			return NULL;
		if (!atomic_compare_exchange_strong(&current_arena, &a, fresh))
			unmap_arena(fresh);
	}
}

static struct io_file *file_for(int fd)
{
	struct io_file *f = io_lookup(fd);
	if (f)
		return f;
	struct io_file *fresh = arena_alloc();
	if (!fresh)
		return NULL;
	pthread_mutex_init(&fresh->lock, NULL);
	fresh->fd = fd;
	atomic_store(&fresh->synced, 1);
	if (!atomic_compare_exchange_strong(&io_files[fd], &f, fresh))
		return f; /* another thread won; the loser's struct stays unused */
	int max = atomic_load(&io_max_tracked_fd);
	while (fd > max && !atomic_compare_exchange_weak(&io_max_tracked_fd, &max, fd))
		;
	return fresh;
}

void io_track(int fd, int open_flags)
{
	if ((unsigned)fd >= IO_MAX_FDS)
		return;
	struct io_file *f = file_for(fd);
	if (!f)
		return;
	/* Still specialized: the number was closed behind the library's back (a raw
	 * system call); drop that state without touching the new file. */
	if (atomic_load(&f->state) == IO_SPECIALIZED)
		io_unspecialize(f, IO_REASON_CLOSE);
	/* Waits for a specialization of the old file in progress, which then finds
	 * the state changed and undoes itself. The number is not known to the
	 * program yet, so no signal handler can be using it: no need to block. */
	pthread_mutex_lock(&f->lock);
	f->opener = NULL;
	f->cand_pos = 0;
	f->cand_lo = UINT64_MAX;
	f->cand_reads = f->rereads = 0;
	f->declined = 0;
	f->open_flags = open_flags;
	f->strategy = RESPEC_IO_KERNEL;
	f->guard = RESPEC_IO_GUARD_NONE;
	f->why_generic = NULL;
	f->broken_by = IO_REASON_NONE;
	atomic_store(&f->synced, 1);
	atomic_store_explicit(&f->state, IO_CANDIDATE, memory_order_release);
	pthread_mutex_unlock(&f->lock);
}

void io_untrack(int fd)
{
	struct io_file *f = io_lookup(fd);
	if (!f)
		return;
	for (;;) {
		int st = atomic_load(&f->state);
		if (st == IO_UNTRACKED)
			return;
		if (st == IO_SPECIALIZED) {
			io_unspecialize(f, IO_REASON_CLOSE);
			continue;
		}
		if (atomic_load_explicit(&f->releasing, memory_order_acquire)) {
			/* The lease must be released on this file before it is closed. */
			pthread_mutex_lock(&f->lock);
			pthread_mutex_unlock(&f->lock);
		}
		if (atomic_compare_exchange_weak(&f->state, &st, IO_UNTRACKED))
			return;
	}
}

int io_file_prepare(struct io_file *f)
{
	if (f->pred)
		return 0;
	char name[32];
	snprintf(name, sizeof name, "io.fd%d", f->fd);
	if (respec_slot_init(&f->slot, name, RESPEC_PROTOCOL_THREAD, RESPEC_FN(io_op_kernel)) != 0)
		return -1;
	respec_predicate *pred = respec_predicate_create(name);
	if (!pred || respec_predicate_add_slot(pred, &f->slot, RESPEC_FN(io_op_data)) != 0 ||
	    respec_predicate_watch(pred, &f->spid) != 0) {
		if (pred)
			respec_predicate_destroy(pred);
		respec_slot_destroy(&f->slot);
		return -1;
	}
	f->pred = pred;
	return 0;
}

void io_block_signals(sigset_t *saved)
{
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, saved);
}

void io_restore_signals(const sigset_t *saved)
{
	pthread_sigmask(SIG_SETMASK, saved, NULL);
}

void respec_io_get_stats(struct respec_io_stats *out)
{
	for (int i = 0; i < 4; i++)
		out->specializations[i] = atomic_load(&io_counters.specializations[i]);
	out->unspecializations = atomic_load(&io_counters.unspecializations);
	out->lease_breaks = atomic_load(&io_counters.lease_breaks);
	out->shared = atomic_load(&io_counters.shared);
	out->declined = atomic_load(&io_counters.declined);
	out->populate_bailouts = atomic_load(&io_counters.populate_bailouts);
}

/* A private copy of stderr: programs like coreutils close stderr in their own
 * exit handlers, which run before this one. */
static int stats_fd = -1;
bool io_verbose;

void io_trace(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n > 0)
		dprintf(stats_fd, "respec-io[%d]: %s\n", (int)getpid(), line);
}

static void print_stats(void)
{
	struct respec_io_stats s;
	respec_io_get_stats(&s);
	dprintf(stats_fd,
		"respec-io[%d]: specialized buffer %llu window %llu whole %llu; declined %llu; "
		"unspecialized %llu (lease breaks %llu, shared %llu, populate too slow %llu)\n",
		(int)getpid(), (unsigned long long)s.specializations[RESPEC_IO_BUFFER],
		(unsigned long long)s.specializations[RESPEC_IO_WINDOW],
		(unsigned long long)s.specializations[RESPEC_IO_WHOLE],
		(unsigned long long)s.declined, (unsigned long long)s.unspecializations,
		(unsigned long long)s.lease_breaks, (unsigned long long)s.shared,
		(unsigned long long)s.populate_bailouts);
}

void io_stats_at_exit_init(void)
{
	const char *on = getenv("RESPEC_IO_STATS");
	if (on && *on && *on != '0') {
		stats_fd = io_real.fcntl(2, F_DUPFD_CLOEXEC, 100);
		io_verbose = stats_fd >= 0 && strcmp(on, "verbose") == 0;
		if (stats_fd >= 0)
			atexit(print_stats);
	}
}
