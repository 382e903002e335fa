/*
 * memguard.c — MemGuard catches unguarded writes to predicate terms.
 *
 *   respec-runtime-memguard SCENARIO BACKEND     (BACKEND: watchpoint or pages)
 *
 * Scenarios:
 *   report    an unguarded write while the predicate holds is reported with the
 *             term's name and this file's line of the store; it lands, the
 *             predicate still holds; after an invalidation nothing is trapped
 *   enforce   (pages) a caller thread keeps calling the specialized
 *             implementation, which checks during each call that the term has
 *             the value it was specialized for; unguarded writes from the main
 *             thread must never be seen by it (the predicate is broken and the
 *             slot replugged before each write lands), and each write ends
 *             re-specialized for the new value
 *   inside-call  (pages) an ENFORCE write from inside a repluggable call
 *             cannot wait for its grace period: the process says why and
 *             aborts (in a child), as a guarded store there does
 *   guarded   RESPEC_GUARDED_STORE to a watched term does not trip
 *   others    writes to other data on the term's page (and to a field just
 *             before the term) land and are not reported
 *   neighbours  (pages) a store to the term that may also have reached a
 *             second watched term just after it names only the one it changed
 *   threads   writes from a thread that existed before the watch and from one
 *             created after it are both caught
 *   fallback  (BACKEND auto) five 8-byte terms watched without forcing a
 *             backend: watchpoints while debug registers last, then pages;
 *             a write to each is caught
 * A backend this machine does not have exits 77 ("skipped: reason"), which
 * ctest shows as skipped (SKIP_RETURN_CODE).
 */
#include "check.h"
#include "respec/memguard.h"
#include "respec/runtime.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* The object whose term `offset` is watched, laid out so that `before` ends
 * right where the term starts and `other` shares its page. */
struct file {
	respec_spid spid;
	long before;
	_Atomic long offset; /* the term (atomic: other threads read it) */
	long other;
};

static struct file *file;
static respec_slot read_slot;
static respec_predicate *pred;
static _Atomic long specialized_for;
static _Atomic long violations;

static long generic_read(void) { return atomic_load(&file->offset); }

/* Specialized on offset == specialized_for: reads the term twice across some
 * work; a change seen inside the call is a write that landed while specialized
 * code ran. */
static long specialized_read(void)
{
	long want = atomic_load(&specialized_for);
	long first = atomic_load(&file->offset);
	for (volatile int i = 0; i < 200; i++)
		;
	long second = atomic_load(&file->offset);
	if (first != want || second != want)
		atomic_fetch_add(&violations, 1);
	return want;
}

static pthread_t main_thread;
static _Atomic bool respecializing_in_handler_thread;

static respec_fn respecialize(respec_predicate *p, respec_slot *slot, void *arg)
{
	(void)p, (void)arg;
	/* After the write: the old code is out, the new value in. */
	CHECK(respec_slot_current(slot) == respec_slot_generic(slot));
	if (pthread_equal(pthread_self(), main_thread))
		atomic_store(&respecializing_in_handler_thread, true);
	atomic_store(&specialized_for, atomic_load(&file->offset));
	return RESPEC_FN(specialized_read);
}

static int store_line;
__attribute__((noinline)) static void unguarded_store(_Atomic long *term, long value)
{
	store_line = __LINE__ + 1;
	atomic_store_explicit(term, value, memory_order_relaxed);
}

static unsigned flags_for(const char *backend)
{
	if (strcmp(backend, "auto") == 0)
		return RESPEC_MEMGUARD_REPORT;
	if (strcmp(backend, "watchpoint") == 0) {
		const char *why = respec_memguard_watchpoints_unavailable();
		if (why) {
			printf("skipped: %s\n", why);
			exit(77);
		}
		return RESPEC_MEMGUARD_WATCHPOINT;
	}
	CHECK(strcmp(backend, "pages") == 0);
	return RESPEC_MEMGUARD_PAGES;
}

static respec_memguard *watch(unsigned flags, const char *backend)
{
	respec_memguard *w = respec_memguard_watch((void *)&file->offset, sizeof file->offset, pred,
						   "offset", flags);
	if (!w) {
		fprintf(stderr, "respec_memguard_watch: %s\n", respec_last_error());
		exit(1);
	}
	respec_memguard_stats st;
	CHECK_OK(respec_memguard_get_stats(w, &st));
	CHECK(strcmp(st.backend, backend) == 0 && strcmp(st.term, "offset") == 0);
	return w;
}

static respec_memguard_stats stats(respec_memguard *w)
{
	respec_memguard_stats st;
	CHECK_OK(respec_memguard_get_stats(w, &st));
	return st;
}

/* Reports go to a temporary file; returns what was written since the last call. */
static FILE *report_file;
static char *take_reports(void)
{
	respec_memguard_flush();
	static char text[16384];
	size_t n = fread(text, 1, sizeof text - 1, report_file);
	text[n] = '\0';
	return text;
}

static void report(const char *backend, unsigned flags)
{
	respec_memguard *w = watch(flags, backend);
	CHECK_OK(respec_predicate_establish(pred));
	unguarded_store(&file->offset, 7);
	CHECK(atomic_load(&file->offset) == 7); /* the write landed */
	CHECK(respec_predicate_holds(pred));    /* report mode does not break it */
	CHECK(stats(w).trapped == 1);
	char *text = take_reports();
	char where[64];
	snprintf(where, sizeof where, "memguard.c:%d", store_line);
	printf("%s", text);
	CHECK(strstr(text, "unguarded write to term \"offset\" of predicate \"memguard.file\""));
	CHECK(strstr(text, where));
	CHECK(strstr(text, "unguarded_store"));
	CHECK(strstr(text, "(reported)"));
	CHECK_FAILS(respec_predicate_destroy(pred), EBUSY, "MemGuard still watches");
	CHECK(!respec_memguard_watch((void *)&file->offset, sizeof file->offset, pred, "offset",
				     RESPEC_MEMGUARD_PAGES | RESPEC_MEMGUARD_WATCHPOINT));
	CHECK(strstr(respec_last_error(), "both backends forced"));
	CHECK(!respec_memguard_watch(NULL, 8, pred, "offset", 0));

	/* Not trapped while the predicate does not hold. */
	CHECK_OK(respec_predicate_invalidate(pred));
	unguarded_store(&file->offset, 8);
	CHECK(atomic_load(&file->offset) == 8 && stats(w).trapped == 1);
	CHECK(take_reports()[0] == '\0');
	/* Armed again by the next establish. */
	CHECK_OK(respec_predicate_establish(pred));
	unguarded_store(&file->offset, 9);
	CHECK(atomic_load(&file->offset) == 9 && stats(w).trapped == 2);
	CHECK_OK(respec_memguard_unwatch(w));
	CHECK_FAILS(respec_memguard_unwatch(w), EINVAL, "unknown watch");
	unguarded_store(&file->offset, 10);
	CHECK(atomic_load(&file->offset) == 10);
	CHECK_OK(respec_predicate_invalidate(pred));
}

static _Atomic bool stop_calling;
static _Atomic long calls;
static void *call_loop(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop_calling)) {
		(void)RESPEC_CALL(&read_slot, long (*)(void));
		atomic_fetch_add(&calls, 1);
	}
	return NULL;
}

/*
 * Enforce: each unguarded write breaks the predicate, and the back-off thread
 * re-specializes for the new value. With pages, before the write lands: no
 * specialized call, in any thread, ever sees the term change. With a
 * watchpoint, right after it: the writing thread finds the predicate broken
 * (or already re-specialized for the new value) as soon as the store returns,
 * while a call running in the other thread may see the change (counted).
 */
static void enforce(const char *backend, unsigned flags)
{
	bool pages = strcmp(backend, "pages") == 0;
	respec_memguard *w = watch(RESPEC_MEMGUARD_ENFORCE | flags, backend);
	CHECK_OK(respec_predicate_set_respecialize(pred, respecialize, NULL));
	/* Every guarded store is followed at once by a re-specialization. */
	CHECK_OK(respec_predicate_set_policy(pred, respec_policy_always, NULL));
	atomic_store(&specialized_for, atomic_load(&file->offset));
	CHECK_OK(respec_predicate_establish(pred));
	pthread_t caller;
	CHECK(pthread_create(&caller, NULL, call_loop, NULL) == 0);
	while (atomic_load(&calls) < 100)
		usleep(100);
	respec_slot_stats before;
	CHECK_OK(respec_slot_get_stats(&read_slot, &before));
	enum { WRITES = 200 };
	atomic_store(&respecializing_in_handler_thread, false);
	for (long i = 1; i <= WRITES; i++) {
		unguarded_store(&file->offset, 100 + i);
		CHECK(atomic_load(&file->offset) == 100 + i);
		CHECK(respec_slot_current(&read_slot) == respec_slot_generic(&read_slot) ||
		      atomic_load(&specialized_for) == 100 + i);
		/* The back-off thread re-specializes, not the trap handler. */
		for (int waited_ms = 0; !respec_predicate_holds(pred); waited_ms++) {
			CHECK(waited_ms < 10000);
			usleep(1000);
		}
		CHECK(respec_slot_current(&read_slot) == RESPEC_FN(specialized_read));
		CHECK(atomic_load(&specialized_for) == 100 + i);
	}
	atomic_store(&stop_calling, true);
	pthread_join(caller, NULL);
	respec_slot_stats after;
	CHECK_OK(respec_slot_get_stats(&read_slot, &after));
	printf("enforce (%s): %d writes, %ld specialized calls, %ld saw a changed term, "
	       "%llu invalidations\n",
	       backend, WRITES, atomic_load(&calls), atomic_load(&violations),
	       (unsigned long long)(after.invalidations - before.invalidations));
	CHECK(!pages || atomic_load(&violations) == 0);
	CHECK(!atomic_load(&respecializing_in_handler_thread));
	CHECK(after.invalidations - before.invalidations == WRITES);
	CHECK(stats(w).trapped == WRITES);
	char *text = take_reports();
	CHECK(strstr(text, pages ? "enforced: predicate broken before the write"
				 : "enforced: predicate broken after the write"));
	CHECK_OK(respec_memguard_unwatch(w));
	CHECK_OK(respec_predicate_invalidate(pred));
}

static long store_inside_call(void)
{
	unguarded_store(&file->offset, 500);
	return 0;
}

static void inside_call(void)
{
	int fds[2];
	CHECK(pipe(fds) == 0);
	fflush(NULL);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		/* Watches do not survive fork(): the child sets up its own. */
		dup2(fds[1], 2);
		watch(RESPEC_MEMGUARD_ENFORCE, "pages");
		static respec_slot outer;
		CHECK_OK(respec_slot_init(&outer, "memguard.outer", RESPEC_PROTOCOL_DEFAULT,
					  RESPEC_FN(store_inside_call)));
		CHECK_OK(respec_predicate_establish(pred));
		(void)RESPEC_CALL(&outer, long (*)(void));
		_exit(0);
	}
	close(fds[1]);
	char text[2048];
	size_t len = 0;
	for (ssize_t n; len + 1 < sizeof text && (n = read(fds[0], text + len, sizeof text - 1 - len)) > 0;)
		len += (size_t)n;
	text[len] = '\0';
	close(fds[0]);
	int status;
	CHECK(waitpid(pid, &status, 0) == pid);
	printf("child: %s", text);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	CHECK(strstr(text, "cannot enforce a write to term \"offset\""));
	CHECK(strstr(text, "inside a call"));
}

static void guarded(const char *backend, unsigned flags)
{
	respec_memguard *w = watch(flags, backend);
	CHECK_OK(respec_predicate_set_respecialize(pred, respecialize, NULL));
	/* Every guarded store is followed at once by a re-specialization. */
	CHECK_OK(respec_predicate_set_policy(pred, respec_policy_always, NULL));
	CHECK_OK(respec_predicate_establish(pred));
	for (long i = 0; i < 5; i++) {
		RESPEC_GUARDED_STORE(file->spid, file->offset, 50 + i);
		CHECK(respec_predicate_holds(pred) && atomic_load(&specialized_for) == 50 + i);
	}
	CHECK(stats(w).trapped == 0 && stats(w).stepped_others == 0);
	CHECK(take_reports()[0] == '\0');
	CHECK_OK(respec_memguard_unwatch(w));
	CHECK_OK(respec_predicate_invalidate(pred));
}

static void others(const char *backend, unsigned flags)
{
	respec_memguard *w = watch(flags, backend);
	CHECK_OK(respec_predicate_establish(pred));
	volatile long *other = &file->other, *before = &file->before;
	for (long i = 1; i <= 10; i++) {
		*other = i;
		*before = -i;
		CHECK(*other == i && *before == -i);
	}
	CHECK(stats(w).trapped == 0);
	printf("others: %llu writes stepped\n", (unsigned long long)stats(w).stepped_others);
	if (strcmp(backend, "pages") == 0)
		CHECK(stats(w).stepped_others == 20);
	CHECK(take_reports()[0] == '\0');
	CHECK(respec_predicate_holds(pred));
	CHECK_OK(respec_memguard_unwatch(w));
	CHECK_OK(respec_predicate_invalidate(pred));
}

/* Two watched terms within one store's reach: `other` (watched first) lies
 * within 64 bytes after `offset`, so a store to `offset` may have reached it
 * too. Only the term whose bytes changed is named in the report. */
static void neighbours(void)
{
	respec_memguard *w_other = respec_memguard_watch(&file->other, sizeof file->other, pred,
							 "other", RESPEC_MEMGUARD_PAGES);
	CHECK(w_other);
	respec_memguard *w = watch(RESPEC_MEMGUARD_PAGES, "pages");
	CHECK_OK(respec_predicate_establish(pred));
	unguarded_store(&file->offset, 77);
	CHECK(stats(w).trapped == 1 && stats(w_other).trapped == 0);
	char *text = take_reports();
	CHECK(strstr(text, "term \"offset\"") && !strstr(text, "term \"other\""));
	CHECK_OK(respec_memguard_unwatch(w));
	CHECK_OK(respec_memguard_unwatch(w_other));
	CHECK_OK(respec_predicate_invalidate(pred));
}

static pthread_barrier_t start_writing;
static void *writer(void *arg)
{
	pthread_barrier_wait(&start_writing);
	unguarded_store(&file->offset, (long)(intptr_t)arg);
	return NULL;
}

static void threads(const char *backend, unsigned flags)
{
	pthread_barrier_init(&start_writing, NULL, 2);
	pthread_t early, late;
	CHECK(pthread_create(&early, NULL, writer, (void *)(intptr_t)301) == 0);
	respec_memguard *w = watch(flags, backend);
	CHECK_OK(respec_predicate_establish(pred));
	pthread_barrier_wait(&start_writing);
	pthread_join(early, NULL);
	CHECK(atomic_load(&file->offset) == 301 && stats(w).trapped == 1);
	CHECK(pthread_create(&late, NULL, writer, (void *)(intptr_t)302) == 0);
	pthread_barrier_wait(&start_writing);
	pthread_join(late, NULL);
	CHECK(atomic_load(&file->offset) == 302 && stats(w).trapped == 2);
	char *text = take_reports();
	char *second = strstr(text, "term \"offset\"");
	CHECK(second && strstr(second + 1, "term \"offset\""));
	CHECK_OK(respec_memguard_unwatch(w));
	CHECK_OK(respec_predicate_invalidate(pred));
}

static void fallback(void)
{
	enum { TERMS = 5 };
	_Atomic long *terms = respec_memguard_alloc_isolated(TERMS * sizeof *terms);
	CHECK(terms);
	respec_memguard *w[TERMS];
	int watchpoints = 0;
	for (int i = 0; i < TERMS; i++) {
		char name[16];
		snprintf(name, sizeof name, "term%d", i);
		w[i] = respec_memguard_watch((void *)&terms[i], sizeof terms[i], pred, name, 0);
		CHECK(w[i]);
		printf("%s: %s\n", name, stats(w[i]).backend);
		watchpoints += strcmp(stats(w[i]).backend, "watchpoint") == 0;
	}
	const char *why = respec_memguard_watchpoints_unavailable();
	CHECK(why ? watchpoints == 0 : watchpoints >= 1);
	/* x86-64 has four debug registers per thread: the fifth term needs pages. */
	CHECK(strcmp(stats(w[TERMS - 1]).backend, "pages") == 0);
	if (!why)
		CHECK(!respec_memguard_watch((void *)&terms[TERMS - 1], sizeof *terms, pred, "more",
					     RESPEC_MEMGUARD_WATCHPOINT));
	CHECK_OK(respec_predicate_establish(pred));
	for (int i = 0; i < TERMS; i++) {
		unguarded_store(&terms[i], i + 1);
		CHECK(atomic_load(&terms[i]) == i + 1 && stats(w[i]).trapped == 1);
	}
	char *text = take_reports();
	CHECK(strstr(text, "term \"term0\"") && strstr(text, "term \"term4\""));
	for (int i = 0; i < TERMS; i++)
		CHECK_OK(respec_memguard_unwatch(w[i]));
	CHECK_OK(respec_predicate_invalidate(pred));
	respec_memguard_free_isolated((void *)terms, TERMS * sizeof *terms);
}

int main(int argc, char **argv)
{
	main_thread = pthread_self();
	if (argc != 3) {
		fprintf(stderr, "usage: %s report|enforce|inside-call|guarded|others|neighbours|threads watchpoint|pages, "
			"or fallback auto\n",
			argv[0]);
		return 2;
	}
	const char *scenario = argv[1], *backend = argv[2];
	unsigned flags = flags_for(backend);
	file = respec_memguard_alloc_isolated(sizeof *file);
	CHECK(file);
	/* Written through one descriptor, read through another (own offset). */
	char path[] = "/tmp/respec-memguard-XXXXXX";
	int report_fd = mkstemp(path);
	CHECK(report_fd >= 0 && (report_file = fopen(path, "r")) != NULL);
	unlink(path);
	respec_memguard_set_report_fd(report_fd);
	CHECK_OK(respec_slot_init(&read_slot, "memguard.read", RESPEC_PROTOCOL_DEFAULT,
				  RESPEC_FN(generic_read)));
	pred = respec_predicate_create("memguard.file");
	CHECK(pred);
	CHECK_OK(respec_predicate_add_slot(pred, &read_slot, RESPEC_FN(specialized_read)));
	CHECK_OK(respec_predicate_watch(pred, &file->spid));

	if (strcmp(scenario, "report") == 0)
		report(backend, flags);
	else if (strcmp(scenario, "enforce") == 0)
		enforce(backend, flags);
	else if (strcmp(scenario, "inside-call") == 0 && strcmp(backend, "pages") == 0)
		inside_call();
	else if (strcmp(scenario, "guarded") == 0)
		guarded(backend, flags);
	else if (strcmp(scenario, "others") == 0)
		others(backend, flags);
	else if (strcmp(scenario, "neighbours") == 0 && strcmp(backend, "pages") == 0)
		neighbours();
	else if (strcmp(scenario, "threads") == 0)
		threads(backend, flags);
	else if (strcmp(scenario, "fallback") == 0 && strcmp(backend, "auto") == 0)
		fallback();
	else {
		fprintf(stderr, "unknown scenario %s for %s\n", scenario, backend);
		return 2;
	}
	CHECK_OK(respec_predicate_destroy(pred));
	respec_memguard_free_isolated(file, sizeof *file);
	printf("PASS memguard %s %s\n", scenario, backend);
	return 0;
}
