/*
 * errors.c — every misuse the runtime reports: each call must fail with its
 * errno value and a message naming what went wrong, and leave state intact.
 * Misuse that cannot return an error (a call through an uninitialized slot, a
 * guarded store inside a repluggable call) must abort with a message; those
 * run in a child process.
 */
#include "check.h"
#include "respec/runtime.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static int generic_fn(int x) { return x; }
static int special_fn(int x) { return x + 1; }

static respec_slot epoch_slot, thread_slot, counting_slot;
static respec_predicate *pred;

/* Implementations that misuse the API from inside their own call. */
static int replugs_itself(int x)
{
	CHECK_FAILS(respec_replug(&epoch_slot, RESPEC_FN(generic_fn)), EDEADLK, "inside a call");
	CHECK_FAILS(respec_barrier(), EDEADLK, "respec_barrier");
	CHECK_FAILS(respec_slot_destroy(&epoch_slot), EDEADLK, "respec_slot_destroy");
	CHECK_FAILS(respec_predicate_invalidate(pred), EDEADLK, "respec_predicate_invalidate");
	CHECK_FAILS(respec_guard_begin(pred), EDEADLK, "guarded store");
	/* The non-blocking replug is the way to replug from inside a call. */
	CHECK_OK(respec_replug_async(&epoch_slot, RESPEC_FN(special_fn), NULL, NULL));
	return x;
}
static int thread_replugs_itself(int x)
{
	CHECK_FAILS(respec_replug(&thread_slot, RESPEC_FN(generic_fn)), EDEADLK,
		    "THREAD slot \"errors.thread\"");
	return x;
}
static int counting_replugs_itself(int x)
{
	CHECK_FAILS(respec_replug(&counting_slot, RESPEC_FN(generic_fn)), EDEADLK,
		    "COUNTING slot \"errors.counting\"");
	return x;
}

static void expect_abort(void (*misuse)(void), const char *what)
{
	fflush(NULL);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		misuse();
		_exit(0);
	}
	int status;
	CHECK(waitpid(pid, &status, 0) == pid);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT) {
		fprintf(stderr, "%s did not abort\n", what);
		exit(1);
	}
}

static void call_uninitialized(void)
{
	static respec_slot never_initialized;
	RESPEC_CALL(&never_initialized, int (*)(int), 1);
}

static respec_spid object_spid;
static int object_term;
static int guard_inside(int x)
{
	RESPEC_GUARDED_STORE(object_spid, object_term, x);
	return x;
}
static void guarded_store_inside_call(void)
{
	CHECK_OK(respec_replug(&epoch_slot, RESPEC_FN(guard_inside)));
	CHECK_OK(respec_predicate_watch(pred, &object_spid));
	atomic_store(&object_spid, pred);
	RESPEC_CALL(&epoch_slot, int (*)(int), 1);
}

int main(void)
{
	/* slots */
	CHECK_FAILS(respec_slot_init(NULL, "x", RESPEC_PROTOCOL_EPOCH, RESPEC_FN(generic_fn)),
		    EINVAL, "NULL slot");
	CHECK_FAILS(respec_slot_init(&epoch_slot, "errors.epoch", RESPEC_PROTOCOL_EPOCH, NULL),
		    EINVAL, "NULL generic");
	CHECK_FAILS(respec_slot_init(&epoch_slot, "errors.epoch", (enum respec_protocol)7,
				     RESPEC_FN(generic_fn)),
		    EINVAL, "unknown protocol");
	CHECK_OK(respec_slot_init(&epoch_slot, "errors.epoch", RESPEC_PROTOCOL_EPOCH,
				  RESPEC_FN(generic_fn)));
	CHECK_FAILS(respec_slot_init(&epoch_slot, "again", RESPEC_PROTOCOL_EPOCH, RESPEC_FN(generic_fn)),
		    EEXIST, "already registered as \"errors.epoch\"");
	CHECK_OK(respec_slot_init(&thread_slot, "errors.thread", RESPEC_PROTOCOL_THREAD,
				  RESPEC_FN(thread_replugs_itself)));
	CHECK_OK(respec_slot_init(&counting_slot, "errors.counting", RESPEC_PROTOCOL_COUNTING,
				  RESPEC_FN(counting_replugs_itself)));
	CHECK_FAILS(respec_slot_set_owner(&epoch_slot), EINVAL, "not a THREAD slot");

	respec_slot uninitialized = {0};
	CHECK_FAILS(respec_replug(&uninitialized, RESPEC_FN(special_fn)), EINVAL, "not initialized");
	CHECK_FAILS(respec_replug(&epoch_slot, NULL), EINVAL, "NULL implementation");
	CHECK_FAILS(respec_replug_async(&uninitialized, RESPEC_FN(special_fn), NULL, NULL), EINVAL,
		    "not initialized");
	CHECK_FAILS(respec_replug_async(&epoch_slot, NULL, NULL, NULL), EINVAL, "NULL implementation");
	CHECK_FAILS(respec_slot_destroy(&uninitialized), EINVAL, "not initialized");
	respec_slot_stats stats;
	CHECK_FAILS(respec_slot_get_stats(&uninitialized, &stats), EINVAL, "not initialized");
	CHECK_FAILS(respec_slot_set_owner(&uninitialized), EINVAL, "not initialized");
	CHECK(respec_slot_current(&uninitialized) == NULL);

	/* predicates */
	CHECK(respec_predicate_create(NULL) == NULL);
	CHECK(strstr(respec_last_error(), "NULL name"));
	pred = respec_predicate_create("errors.pred");
	CHECK(pred);
	CHECK_FAILS(respec_predicate_establish(pred), EINVAL, "no slots");
	CHECK_FAILS(respec_predicate_add_slot(pred, &uninitialized, RESPEC_FN(special_fn)), EINVAL,
		    "not initialized");
	CHECK_FAILS(respec_predicate_add_slot(pred, &epoch_slot, NULL), EINVAL, "NULL implementation");
	CHECK_OK(respec_predicate_add_slot(pred, &epoch_slot, RESPEC_FN(special_fn)));
	CHECK_FAILS(respec_predicate_add_slot(pred, &epoch_slot, RESPEC_FN(special_fn)), EEXIST,
		    "added twice");
	respec_spid spid = NULL;
	CHECK_OK(respec_predicate_watch(pred, &spid));
	CHECK_FAILS(respec_predicate_watch(pred, &spid), EEXIST, "watched twice");
	CHECK_FAILS(respec_predicate_watch(pred, NULL), EINVAL, "NULL argument");
	CHECK_FAILS(respec_guard_end(pred), EPERM, "no respec_guard_begin");
	CHECK_FAILS(respec_slot_destroy(&epoch_slot), EBUSY, "still listed by 1 predicate");
	CHECK_OK(respec_predicate_establish(pred));
	CHECK(respec_spid_load(&spid) == pred);
	CHECK_FAILS(respec_predicate_establish(pred), EALREADY, "already established");
	CHECK_FAILS(respec_predicate_add_slot(pred, &counting_slot, RESPEC_FN(special_fn)), EBUSY,
		    "is established");
	CHECK_FAILS(respec_predicate_destroy(pred), EBUSY, "still established");
	CHECK_OK(respec_predicate_invalidate(pred));
	CHECK(respec_spid_load(&spid) == NULL);
	CHECK_FAILS(respec_predicate_invalidate(NULL), EINVAL, "NULL predicate");
	CHECK_FAILS(respec_predicate_establish(NULL), EINVAL, "NULL predicate");
	CHECK_FAILS(respec_guard_begin(NULL), EINVAL, "NULL predicate");

	/* from inside calls */
	CHECK_OK(respec_replug(&epoch_slot, RESPEC_FN(replugs_itself)));
	CHECK(RESPEC_CALL(&epoch_slot, int (*)(int), 5) == 5);
	CHECK(respec_slot_current(&epoch_slot) == RESPEC_FN(special_fn));
	CHECK(RESPEC_CALL(&thread_slot, int (*)(int), 5) == 5);
	CHECK(RESPEC_CALL(&counting_slot, int (*)(int), 5) == 5);

	expect_abort(call_uninitialized, "a call through an uninitialized slot");
	expect_abort(guarded_store_inside_call, "a guarded store inside a call");

	CHECK_OK(respec_barrier());
	CHECK_OK(respec_predicate_destroy(pred));
	CHECK_OK(respec_slot_destroy(&epoch_slot));
	CHECK_FAILS(respec_replug(&epoch_slot, RESPEC_FN(special_fn)), EINVAL, "not initialized");
	CHECK_OK(respec_slot_destroy(&thread_slot));
	CHECK_OK(respec_slot_destroy(&counting_slot));
	printf("errors: PASS\n");
	return 0;
}
