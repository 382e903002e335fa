/*
 * memguard.c — MemGuard's watches, their arming, and the page-protection
 * backend (include/respec/memguard.h says what they are for).
 *
 * A watch is armed exactly while its predicate holds: predicate.c arms a
 * predicate's watches before it plugs specialized code in and disarms them
 * after it has replugged to generic. Guarded stores therefore never trap
 * (respec_guard_begin has disarmed before the store), and neither does any
 * write while nothing specialized depends on the term.
 *
 * Pages: each watched page has a count of armed watches on it and a count of
 * threads stepping a write through it ("open"); it is read-only exactly when
 * armed && !open. A write fault on such a page runs on_segv: the watches whose
 * term the store may touch are noted (ENFORCE ones break their predicate here,
 * before the store), then the page is opened, the trap flag set, and the
 * handler returns. The store re-executes and lands; the single-step trap runs
 * on_trap, which closes the page again, reports, and ends the guard of an
 * ENFORCE watch; re-specializing it is left to the back-off thread
 * (feedback.c), so no respecialize callback (a compiler, perhaps) runs in a
 * signal handler. Where a store starts is known exactly (the
 * fault address), how wide it is is not: a store starting less than 64 bytes
 * before a term (no x86 store is wider) may reach it, so it counts as a write
 * to the term when the term's bytes changed, and ENFORCE breaks the predicate
 * for it beforehand in any case (a needless replug is safe, a missed one not).
 *
 * Threads: while a page is open for one thread's step, other threads' writes
 * to it land untrapped (a window of a few microseconds). A write to a term is
 * stepped only after the predicates of the ENFORCE watches it may touch are
 * broken, so on a page that holds nothing but terms of one predicate (what
 * respec_memguard_alloc_isolated per predicate gives) whatever lands in the
 * window lands under generic code: enforcement has no hole there, though such
 * a write goes unreported. Where other data or other predicates' terms share
 * the page, a step for them opens it while the predicate holds, and another
 * thread's write in that window is neither enforced nor reported.
 *
 * One spinlock guards the tables: the handlers take it, so it is never held
 * around anything that may fault on a watched page or block.
 */
#include "internal.h"
#include "respec/memguard.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef __x86_64__
#error "memguard.c single-steps with the x86-64 trap flag"
#endif
#define TRAP_FLAG 0x100UL /* EFLAGS.TF */
#ifndef TRAP_PERF
#define TRAP_PERF 6 /* si_code of a perf event's sigtrap (Linux >= 5.13) */
#endif

#define MAX_WATCHES 64
#define MAX_PAGES 256
#define WIDEST_STORE 64 /* bytes: AVX-512; string instructions step per element */
#define STEP_PAGES 4    /* pages one instruction's store may fault on */
#define STEP_HITS 16

struct respec_memguard {
	uintptr_t start, end;
	respec_predicate *pred;
	char *term;
	unsigned flags;
	bool pages; /* backend: page protection, else watchpoints */
	bool armed;
	bool inert; /* in a fork child: nothing is watched any more */
	int *fds;   /* watchpoints: perf events, per thread and piece */
	size_t nfds;
	_Atomic uint64_t trapped, stepped_others;
};

struct guarded_page {
	uintptr_t addr;
	unsigned refs;  /* page watches on it */
	unsigned armed; /* ... of which armed */
	unsigned open;  /* threads stepping a store through it */
};

static struct respec_memguard *watches[MAX_WATCHES];
static size_t nwatches;
static struct guarded_page pages[MAX_PAGES];
static size_t npages;
static uintptr_t page_size;
static atomic_flag table_lock = ATOMIC_FLAG_INIT;
/* Threads between on_segv and on_trap: watches they noted stay allocated. */
static _Atomic unsigned steps_in_flight;

static void lock_tables(void)
{
	unsigned int spins = 0;
	/* Acquire pairs with the release in unlock_tables(). */
	while (atomic_flag_test_and_set_explicit(&table_lock, memory_order_acquire))
		respec__spin_pause(&spins);
}

static void unlock_tables(void)
{
	atomic_flag_clear_explicit(&table_lock, memory_order_release);
}

/* Async-signal-safe fatal error. */
static void die(const char *what)
{
	static const char prefix[] = "respec memguard: ";
	(void)!write(2, prefix, sizeof prefix - 1);
	(void)!write(2, what, strlen(what));
	(void)!write(2, "\n", 1);
	abort();
}

static struct guarded_page *find_page(uintptr_t addr)
{
	for (size_t i = 0; i < npages; i++)
		if (pages[i].addr == addr)
			return &pages[i];
	return NULL;
}

static void apply_protection(const struct guarded_page *p)
{
	int prot = p->armed && !p->open ? PROT_READ : PROT_READ | PROT_WRITE;
	if (mprotect((void *)p->addr, page_size, prot) != 0)
		die("mprotect of a watched page failed");
}

/* Drops the entry once neither a watch nor a stepping thread uses it. */
static void maybe_forget_page(struct guarded_page *p)
{
	if (p->refs == 0 && p->open == 0)
		*p = pages[--npages];
}

static uintptr_t first_page(const struct respec_memguard *w)
{
	return w->start & ~(page_size - 1);
}

static void arm_locked(struct respec_memguard *w, bool armed)
{
	if (w->armed == armed || w->inert)
		return;
	w->armed = armed;
	if (!w->pages) {
		respec__watchpoints_enable(w->fds, w->nfds, armed);
		return;
	}
	for (uintptr_t a = first_page(w); a < w->end; a += page_size) {
		struct guarded_page *p = find_page(a);
		p->armed += armed ? 1 : -1;
		apply_protection(p);
	}
}

void respec__memguard_arm(respec_predicate *pred, bool armed)
{
	lock_tables();
	for (size_t i = 0; i < nwatches; i++)
		if (watches[i]->pred == pred)
			arm_locked(watches[i], armed);
	unlock_tables();
}

/* ---- the handlers ----------------------------------------------------------- */

static struct sigaction previous_segv, previous_trap;

/* Hands a signal that is not ours to whoever had it before. */
static void chain(const struct sigaction *previous, int sig, siginfo_t *si, void *uc)
{
	if (previous->sa_flags & SA_SIGINFO) {
		previous->sa_sigaction(sig, si, uc);
	} else if (previous->sa_handler == SIG_IGN && sig == SIGTRAP) {
		return;
	} else if (previous->sa_handler == SIG_DFL || previous->sa_handler == SIG_IGN) {
		/* A fault re-executes its instruction on return and then gets the
		 * default action (the kernel does not let a fault be ignored); a trap
		 * has completed its instruction, so it is raised again. */
		signal(sig, SIG_DFL);
		if (sig == SIGTRAP)
			raise(sig);
	} else {
		previous->sa_handler(sig);
	}
}

struct hit {
	struct respec_memguard *watch;
	bool definite; /* the store starts inside the term */
	size_t nbefore;
	unsigned char before[WIDEST_STORE];
};

/* The store a thread is stepping, from on_segv to on_trap. */
struct step {
	bool active;
	size_t npages, nhits, nenforced;
	uintptr_t pages[STEP_PAGES];
	struct hit hits[STEP_HITS];
	respec_predicate *enforced[STEP_HITS];
	bool have_report;
	struct respec__report report;
};
/* Kept in records the threads share, not in thread-local storage: a thread
 * holds one only while it steps (microseconds), and 2 KB of static TLS per
 * thread is more than a library loaded with dlopen() may have (librespec-io's
 * shim links this runtime). A thread that finds every record taken waits for
 * one: the others are single-stepping one instruction. */
#define STEP_RECORDS 64
static struct step step_records[STEP_RECORDS];
static _Atomic bool step_record_taken[STEP_RECORDS];
static _Thread_local struct step *stepping; /* this thread's record; NULL: none */

static struct step *take_step_record(void)
{
	for (;;) {
		for (size_t i = 0; i < STEP_RECORDS; i++)
			if (!atomic_exchange_explicit(&step_record_taken[i], true, memory_order_acquire))
				return &step_records[i];
		sched_yield();
	}
}

static void give_back_step_record(void)
{
	/* Pairs with the acquire exchange of the next thread that takes it. */
	atomic_store_explicit(&step_record_taken[stepping - step_records], false,
			      memory_order_release);
	stepping = NULL;
}
/* A fault on no page of ours is retried once (a watch may have gone away
 * between the fault and the handler), then handed on. */
static _Thread_local uintptr_t unknown_fault_addr, unknown_fault_pc;

static bool noted(const struct respec_memguard *w)
{
	for (size_t i = 0; i < stepping->nhits; i++)
		if (stepping->hits[i].watch == w)
			return true;
	return false;
}

/*
 * Notes the armed watches whose term a store starting at `addr` (on `page`) may
 * reach, of either backend: a watchpoint's trap during a step is a second
 * SIGTRAP, which the kernel merges into the step's, so the step accounts for
 * it. Page watches on `page` that the store cannot reach count a stepped write.
 */
static void note_hits_locked(uintptr_t addr, uintptr_t page)
{
	for (size_t i = 0; i < nwatches; i++) {
		struct respec_memguard *w = watches[i];
		if (!w->armed || noted(w))
			continue;
		bool reaches = addr < w->end && addr + WIDEST_STORE > w->start;
		if (!reaches) {
			if (w->pages && w->end > page && w->start < page + page_size)
				atomic_fetch_add_explicit(&w->stepped_others, 1, memory_order_relaxed);
			continue;
		}
		if (stepping->nhits == STEP_HITS)
			die("too many watched terms within reach of one store");
		struct hit *h = &stepping->hits[stepping->nhits++];
		h->watch = w;
		h->definite = addr >= w->start;
		h->nbefore = w->end - w->start < WIDEST_STORE ? w->end - w->start : WIDEST_STORE;
		memcpy(h->before, (const void *)w->start, h->nbefore);
	}
}

/* What a report says happened to a trapped write. */
static const char *outcome(const struct respec_memguard *w)
{
	if (!(w->flags & RESPEC_MEMGUARD_ENFORCE))
		return "reported";
	return w->pages ? "enforced: predicate broken before the write"
			: "enforced: predicate broken after the write";
}

/* The guard a store to an ENFORCE watch's term would have had. */
static void enforce_or_die(respec_predicate *pred, const char *term)
{
	if (respec_guard_begin(pred) == 0)
		return;
	/* As for a guarded store that cannot wait (EDEADLK inside a call):
	 * the specialized code must not go on with the write. */
	static char message[400];
	snprintf(message, sizeof message, "cannot enforce a write to term \"%s\": %s", term,
		 respec_last_error());
	die(message);
}

static void enforce_after_store(respec_predicate *pred, const char *term)
{
	enforce_or_die(pred, term);
	respec__guard_end_deferred(pred);
}

static void enforce(struct respec_memguard *w)
{
	for (size_t i = 0; i < stepping->nenforced; i++)
		if (stepping->enforced[i] == w->pred)
			return;
	enforce_or_die(w->pred, w->term);
	stepping->enforced[stepping->nenforced++] = w->pred;
}

static void handle_segv(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	uintptr_t addr = (uintptr_t)si->si_addr;
	uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	uintptr_t page = addr & ~(page_size - 1);
	/* Taken before the tables' lock, which the threads that hold the other
	 * records need in order to give them back. */
	bool took_record = !stepping;
	if (took_record)
		stepping = take_step_record();
	lock_tables();
	struct guarded_page *p = si->si_code == SEGV_ACCERR ? find_page(page) : NULL;
	/* Disarmed or opened since the fault: the page is writable now. */
	bool writable_now = p && (!p->armed || p->open);
	if (!p || writable_now) {
		unlock_tables();
		if (took_record)
			give_back_step_record();
	}
	if (!p) {
		if (si->si_code == SEGV_ACCERR &&
		    (addr != unknown_fault_addr || pc != unknown_fault_pc)) {
			unknown_fault_addr = addr;
			unknown_fault_pc = pc;
			return;
		}
		chain(&previous_segv, sig, si, ucv);
		return;
	}
	unknown_fault_addr = 0;
	if (writable_now)
		return;
	if (stepping->npages == STEP_PAGES)
		die("one instruction faulted on too many watched pages");
	if (!stepping->active)
		atomic_fetch_add_explicit(&steps_in_flight, 1, memory_order_relaxed);
	stepping->active = true;
	size_t first_new = stepping->nhits;
	note_hits_locked(addr, page);
	unlock_tables();

	for (size_t i = first_new; i < stepping->nhits; i++) {
		struct respec_memguard *w = stepping->hits[i].watch;
		/* The backtrace is taken here, at the store; which term it names is
		 * settled after the step (finish_step), by what the store changed. */
		if (!stepping->have_report && respec__reports_on()) {
			respec__report_fill(&stepping->report, w->term, w->pred, outcome(w), addr, pc,
					    true);
			stepping->have_report = true;
		}
		if (w->flags & RESPEC_MEMGUARD_ENFORCE)
			enforce(w);
	}
	/* Only now, with the predicates of ENFORCE watches broken, is the page
	 * opened: until then another thread's write to the term traps too. */
	lock_tables();
	p = find_page(page);
	if (p) { /* else unwatched meanwhile: writable and no longer ours */
		stepping->pages[stepping->npages++] = page;
		p->open++;
		apply_protection(p);
	}
	unlock_tables();
	uc->uc_mcontext.gregs[REG_EFL] |= TRAP_FLAG;
}

/* After the stepped store: close its pages, report, end the guards. */
static void finish_step(ucontext_t *uc)
{
	uc->uc_mcontext.gregs[REG_EFL] &= ~TRAP_FLAG;
	lock_tables();
	for (size_t i = 0; i < stepping->npages; i++) {
		struct guarded_page *p = find_page(stepping->pages[i]);
		p->open--;
		apply_protection(p);
		maybe_forget_page(p);
	}
	unlock_tables();
	bool reported = false;
	for (size_t i = 0; i < stepping->nhits; i++) {
		struct hit *h = &stepping->hits[i];
		if (!h->definite && memcmp(h->before, (const void *)h->watch->start, h->nbefore) == 0) {
			atomic_fetch_add_explicit(&h->watch->stepped_others, 1, memory_order_relaxed);
			continue;
		}
		atomic_fetch_add_explicit(&h->watch->trapped, 1, memory_order_relaxed);
		if (stepping->have_report && !reported) {
			respec__report_name(&stepping->report, h->watch->term, h->watch->pred,
					    outcome(h->watch));
			respec__report_queue(&stepping->report);
		}
		reported = true;
	}
	respec_predicate *enforced[STEP_HITS];
	size_t nenforced = stepping->nenforced;
	memcpy(enforced, stepping->enforced, nenforced * sizeof *enforced);
	stepping->active = false;
	stepping->npages = stepping->nhits = stepping->nenforced = 0;
	stepping->have_report = false;
	give_back_step_record();
	/* The noted watches are not used past here: release pairs with the
	 * acquire load in respec_memguard_unwatch before it frees one. */
	atomic_fetch_sub_explicit(&steps_in_flight, 1, memory_order_release);
	for (size_t i = 0; i < nenforced; i++)
		respec__guard_end_deferred(enforced[i]);
}

/* A watchpoint fired: the store has landed (the trap follows it). An ENFORCE
 * watch breaks its predicate now, before the writing thread goes on; its
 * re-specialization is left to the back-off thread, as for pages. */
static bool watchpoint_hit(uintptr_t addr, uintptr_t pc)
{
	struct respec_memguard *hit = NULL;
	lock_tables();
	for (size_t i = 0; i < nwatches && !hit; i++) {
		struct respec_memguard *w = watches[i];
		if (!w->pages && addr >= w->start && addr < w->end)
			hit = w;
	}
	bool armed = hit && hit->armed;
	if (armed)
		atomic_fetch_add_explicit(&hit->trapped, 1, memory_order_relaxed);
	struct respec__report report;
	bool report_it = armed && respec__reports_on();
	if (report_it)
		respec__report_fill(&report, hit->term, hit->pred, outcome(hit), addr, pc, false);
	respec_predicate *enforced = armed && (hit->flags & RESPEC_MEMGUARD_ENFORCE) ? hit->pred : NULL;
	unlock_tables();
	if (report_it)
		respec__report_queue(&report);
	if (enforced)
		enforce_after_store(enforced, hit->term);
	return hit != NULL;
}

static void handle_trap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	/* The step's trap, or a watchpoint's merged with it (either code). */
	if (stepping && stepping->active)
		finish_step(uc);
	else if (si->si_code != TRAP_PERF ||
		 !watchpoint_hit((uintptr_t)si->si_addr, (uintptr_t)uc->uc_mcontext.gregs[REG_RIP]))
		chain(&previous_trap, sig, si, ucv);
}

/* The handlers make system calls (mprotect, write, ioctl): the interrupted
 * code must find errno as it left it. */
static void on_segv(int sig, siginfo_t *si, void *ucv)
{
	int saved_errno = errno;
	handle_segv(sig, si, ucv);
	errno = saved_errno;
}

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	int saved_errno = errno;
	handle_trap(sig, si, ucv);
	errno = saved_errno;
}

static void install(int sig, void (*handler)(int, siginfo_t *, void *), struct sigaction *previous)
{
	struct sigaction action;
	memset(&action, 0, sizeof action);
	action.sa_sigaction = handler;
	action.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&action.sa_mask);
	if (sigaction(sig, &action, previous) != 0)
		die("cannot install the SIGSEGV/SIGTRAP handlers");
}

static pthread_once_t handlers_once = PTHREAD_ONCE_INIT;

static void install_handlers(void)
{
	page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
	install(SIGSEGV, on_segv, &previous_segv);
	install(SIGTRAP, on_trap, &previous_trap);
}

/* ---- the API ----------------------------------------------------------------- */

static int add_pages_locked(struct respec_memguard *w)
{
	size_t added = 0;
	for (uintptr_t a = first_page(w); a < w->end; a += page_size) {
		struct guarded_page *p = find_page(a);
		if (!p) {
			if (npages == MAX_PAGES) {
				for (uintptr_t b = first_page(w); added-- > 0; b += page_size) {
					struct guarded_page *q = find_page(b);
					q->refs--;
					maybe_forget_page(q);
				}
				return respec__fail(ENOSPC, "respec_memguard_watch(\"%s\"): more than %d watched pages",
						    w->term, MAX_PAGES);
			}
			p = &pages[npages++];
			*p = (struct guarded_page){.addr = a};
		}
		p->refs++;
		added++;
	}
	return 0;
}

static int choose_backend(struct respec_memguard *w)
{
	unsigned forced = w->flags & (RESPEC_MEMGUARD_PAGES | RESPEC_MEMGUARD_WATCHPOINT);
	if (forced == (RESPEC_MEMGUARD_PAGES | RESPEC_MEMGUARD_WATCHPOINT))
		return respec__fail(EINVAL, "respec_memguard_watch(\"%s\"): both backends forced", w->term);
	/* ENFORCE alone: pages, which stop the write before it lands. */
	w->pages = ((w->flags & RESPEC_MEMGUARD_ENFORCE) && !forced) ||
		   forced == RESPEC_MEMGUARD_PAGES;
	if (w->pages)
		return 0;
	int err = respec__watchpoints_open(w->start, w->end - w->start, &w->fds, &w->nfds);
	if (err && forced == RESPEC_MEMGUARD_WATCHPOINT)
		return err;
	w->pages = err != 0;
	return 0;
}

respec_memguard *respec_memguard_watch(void *addr, size_t len, respec_predicate *pred,
				       const char *term, unsigned flags)
{
	if (!addr || len == 0 || (uintptr_t)addr + len < (uintptr_t)addr || !pred || !term ||
	    (flags & ~(unsigned)(RESPEC_MEMGUARD_ENFORCE | RESPEC_MEMGUARD_PAGES | RESPEC_MEMGUARD_WATCHPOINT))) {
		respec__fail(EINVAL, "respec_memguard_watch: NULL or empty range, predicate or term, "
				     "or unknown flags");
		return NULL;
	}
	respec__init();
	pthread_once(&handlers_once, install_handlers);
	respec__report_start();
	if (flags & RESPEC_MEMGUARD_ENFORCE)
		respec__feedback_start(); /* it re-specializes after enforced writes */
	struct respec_memguard *w = calloc(1, sizeof *w);
	if (!w || !(w->term = strdup(term))) {
		free(w);
		respec__fail(ENOMEM, "respec_memguard_watch(\"%s\"): out of memory", term);
		return NULL;
	}
	w->start = (uintptr_t)addr;
	w->end = w->start + len;
	w->pred = pred;
	w->flags = flags;
	int err = choose_backend(w);
	if (!err) {
		/* Under the predicate's lock, so that the watch starts armed exactly
		 * when the predicate holds and no establish or guard runs meanwhile. */
		respec__predicate_lock(pred);
		lock_tables();
		if (nwatches == MAX_WATCHES)
			err = respec__fail(ENOSPC, "respec_memguard_watch(\"%s\"): more than %d watches",
					   term, MAX_WATCHES);
		else if (w->pages)
			err = add_pages_locked(w);
		if (!err) {
			watches[nwatches++] = w;
			arm_locked(w, respec_predicate_holds(pred));
			respec__predicate_count_watches(pred, 1);
		}
		unlock_tables();
		respec__predicate_unlock(pred);
	}
	if (err) {
		respec__watchpoints_close(w->fds, w->nfds);
		free(w->fds);
		free(w->term);
		free(w);
		return NULL;
	}
	return w;
}

static size_t index_locked(const struct respec_memguard *w)
{
	size_t i = 0;
	while (i < nwatches && watches[i] != w)
		i++;
	return i;
}

int respec_memguard_unwatch(respec_memguard *w)
{
	lock_tables();
	bool known = index_locked(w) < nwatches;
	unlock_tables();
	if (!known)
		return respec__fail(EINVAL, "respec_memguard_unwatch: unknown watch %p", (void *)w);
	/* The predicate's lock first, as everywhere: no establish or guard arms
	 * it meanwhile. (Unwatching one watch from two threads at once is the
	 * caller's double free.) */
	respec__predicate_lock(w->pred);
	respec__predicate_count_watches(w->pred, -1);
	lock_tables();
	arm_locked(w, false);
	watches[index_locked(w)] = watches[--nwatches];
	if (w->pages && !w->inert)
		for (uintptr_t a = first_page(w); a < w->end; a += page_size) {
			struct guarded_page *p = find_page(a);
			p->refs--;
			maybe_forget_page(p);
		}
	unlock_tables();
	respec__predicate_unlock(w->pred);
	/* A thread between on_segv and on_trap may have noted this watch. Acquire
	 * pairs with the release decrement at the end of its stepping-> */
	unsigned int spins = 0;
	while (atomic_load_explicit(&steps_in_flight, memory_order_acquire) != 0)
		respec__spin_pause(&spins);
	respec__watchpoints_close(w->fds, w->nfds);
	free(w->fds);
	free(w->term);
	free(w);
	return 0;
}

int respec_memguard_get_stats(const respec_memguard *w, respec_memguard_stats *out)
{
	if (!w || !out)
		return respec__fail(EINVAL, "respec_memguard_get_stats: NULL argument");
	out->term = w->term;
	out->backend = w->pages ? "pages" : "watchpoint";
	out->trapped = atomic_load_explicit(&w->trapped, memory_order_relaxed);
	out->stepped_others = atomic_load_explicit(&w->stepped_others, memory_order_relaxed);
	return 0;
}

void *respec_memguard_alloc_isolated(size_t size)
{
	if (size == 0) {
		respec__fail(EINVAL, "respec_memguard_alloc_isolated: size 0");
		return NULL;
	}
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		respec__fail(errno, "respec_memguard_alloc_isolated(%zu): %s", size, strerror(errno));
		return NULL;
	}
	return p;
}

void respec_memguard_free_isolated(void *ptr, size_t size)
{
	if (ptr)
		munmap(ptr, size);
}

/* fork(): the tables are consistent while the lock is held. */
void respec__memguard_fork_prepare(void)
{
	lock_tables();
}

void respec__memguard_fork_parent(void)
{
	unlock_tables();
}

/* The child gets no watchpoints (they are per thread of the parent) and
 * nobody to read reports: every watch goes inert and its pages writable. */
void respec__memguard_fork_child(void)
{
	for (size_t i = 0; i < npages; i++)
		mprotect((void *)pages[i].addr, page_size, PROT_READ | PROT_WRITE);
	npages = 0;
	for (size_t i = 0; i < nwatches; i++) {
		struct respec_memguard *w = watches[i];
		respec__watchpoints_close(w->fds, w->nfds);
		w->nfds = 0;
		w->armed = false;
		w->inert = true;
	}
	/* Only this thread survives: every record is free again. */
	memset(step_records, 0, sizeof step_records);
	for (size_t i = 0; i < STEP_RECORDS; i++)
		atomic_store_explicit(&step_record_taken[i], false, memory_order_relaxed);
	stepping = NULL;
	atomic_store_explicit(&steps_in_flight, 0, memory_order_relaxed);
	respec__report_fork_child();
	unlock_tables();
}
