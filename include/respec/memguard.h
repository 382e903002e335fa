/*
 * memguard.h — MemGuard: catch, at run time, every write to a predicate term
 * that does not go through RESPEC_GUARDED_STORE.
 *
 * A guard is only as good as the programmer who remembered to write it: one
 * plain `obj->term = v` somewhere leaves stale specialized code running. A
 * MemGuard watch traps writes to the bytes of one term while its predicate
 * holds (established, not broken), and either reports them or turns them into
 * guarded stores:
 *
 *   RESPEC_MEMGUARD_REPORT   (default) every unguarded write to the term is
 *                            reported: its address, the term's name and a
 *                            symbolized backtrace (file:line); the write lands
 *                            and the program goes on.
 *   RESPEC_MEMGUARD_ENFORCE  the write is treated as a guarded store: the
 *                            predicate is broken (dependent slots replugged to
 *                            generic) *before* the write lands, the write lands,
 *                            then librespec's back-off thread re-specializes it
 *                            (the respecialize callback never runs in the trap
 *                            handler; until it has run, calls take generic
 *                            code). It is also reported. The handler replugs as
 *                            respec_guard_begin does, so the writing thread must
 *                            be one that may guard: not inside a call of a slot
 *                            that depends on the predicate (the program aborts
 *                            with "cannot enforce a write to term ...").
 *                            With RESPEC_MEMGUARD_WATCHPOINT the predicate is
 *                            broken right *after* the write, before the writing
 *                            thread goes on: every call that starts after the
 *                            write runs generic or re-specialized code, but a
 *                            call already running in another thread finishes as
 *                            it began (the generic code would race with such a
 *                            write too). For terms whose pages cannot be made
 *                            read-only: heap objects beside allocator data or
 *                            buffers that system calls fill.
 *
 * Backends, chosen per watch:
 *   watchpoint  perf_event_open(2) hardware breakpoints (HW_BREAKPOINT_W) with
 *               synchronous SIGTRAP (perf_event_attr.sigtrap, Linux >= 5.13),
 *               one per aligned 1/2/4/8-byte piece of the term on every thread
 *               of the process (threads created later inherit them). Writes to
 *               anything else cost nothing. x86 has 4 debug registers per
 *               thread. The trap comes after the store: ENFORCE uses a
 *               watchpoint only when asked to (see above).
 *   pages       the term's page(s) are made read-only while the predicate
 *               holds; a write faults *before* it lands (what ENFORCE needs).
 *               A write to other data on the same page is single-stepped (the
 *               page is opened for one instruction, then closed again) and
 *               lands unreported, at the cost of two traps: keep terms on pages
 *               of their own (respec_memguard_alloc_isolated).
 * A REPORT watch uses a watchpoint while one is available and otherwise pages;
 * RESPEC_MEMGUARD_PAGES or RESPEC_MEMGUARD_WATCHPOINT forces one.
 *
 * Guarded stores never trip a watch: respec_guard_begin breaks the predicate
 * before the store, and a broken predicate's watches are disarmed (pages made
 * writable, watchpoints disabled); establishing or re-specializing arms them
 * again, before the specialized code is plugged in.
 *
 * Writes by the kernel (read(2) or recv(2) into a term, ...) are not user
 * stores: watchpoints do not see them (they count user-mode writes only), and
 * with pages the system call fails with EFAULT while the predicate holds (the
 * page is read-only to the kernel too). Terms that system calls write belong
 * outside MemGuard; guard those writes by hand.
 *
 * Threads: watchpoints cover every thread. With pages, while one thread steps
 * a write through an opened page (a few microseconds), writes by other threads
 * to that page land untrapped; see runtime/README.md.
 */
#ifndef RESPEC_MEMGUARD_H
#define RESPEC_MEMGUARD_H

#include "respec/runtime.h"

#include <stddef.h>
#include <stdint.h>

typedef struct respec_memguard respec_memguard;

enum respec_memguard_flags {
	RESPEC_MEMGUARD_REPORT = 0,
	RESPEC_MEMGUARD_ENFORCE = 1 << 0,
	RESPEC_MEMGUARD_PAGES = 1 << 1,      /* force page protection */
	RESPEC_MEMGUARD_WATCHPOINT = 1 << 2, /* require a hardware watchpoint */
};

/*
 * Watches the `len` bytes at `addr`, a term of `pred` named `term` in reports.
 * Returns NULL (with respec_last_error) for bad arguments (EINVAL: NULL or empty
 * range, both backends forced), a forced watchpoint
 * that cannot be had (the probe's reason or "no debug register left"), or when
 * the page table of the pages backend is full. The watched pages must be
 * ordinary read-write memory: they are restored to PROT_READ|PROT_WRITE.
 */
respec_memguard *respec_memguard_watch(void *addr, size_t len, respec_predicate *pred,
				       const char *term, unsigned flags);
/* Stops watching and frees the watch. EINVAL for an unknown watch. */
int respec_memguard_unwatch(respec_memguard *watch);

typedef struct respec_memguard_stats {
	const char *term;
	const char *backend;     /* "watchpoint" or "pages" */
	uint64_t trapped;        /* unguarded writes to the term caught */
	uint64_t stepped_others; /* pages: writes to other data on its pages, let through */
} respec_memguard_stats;
int respec_memguard_get_stats(const respec_memguard *watch, respec_memguard_stats *out);

/* NULL when hardware watchpoints with synchronous SIGTRAP work here, otherwise
 * why not (probed once). RESPEC_MEMGUARD_WATCHPOINTS=off in the environment
 * turns them off (leaving the debug registers to a debugger). */
const char *respec_memguard_watchpoints_unavailable(void);

/*
 * Reports are written by a reporter thread (the trap handler only records the
 * backtrace and queues it on a pipe, which is async-signal-safe), symbolized
 * with addr2line. They go to stderr unless another descriptor is set; -1 turns
 * them off (writes are still trapped and counted). respec_memguard_flush waits
 * until every report queued so far has been written.
 */
void respec_memguard_set_report_fd(int fd);
void respec_memguard_flush(void);

/*
 * The layout helper: `size` bytes (zeroed) on page(s) of their own, so that no
 * unguarded data shares a page with the terms placed there. In a struct, the
 * same is had by giving the terms a page-aligned member of their own:
 *   struct file { _Alignas(RESPEC_MEMGUARD_PAGE) struct { long offset; } terms;
 *                 _Alignas(RESPEC_MEMGUARD_PAGE) char other_fields[...]; };
 */
#define RESPEC_MEMGUARD_PAGE 4096
void *respec_memguard_alloc_isolated(size_t size);
void respec_memguard_free_isolated(void *ptr, size_t size);

#endif /* RESPEC_MEMGUARD_H */
