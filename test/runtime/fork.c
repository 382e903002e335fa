/*
 * fork.c — fork() while other threads call through slots and replug them, and
 * fork() from inside a call. Each child, where only the forking thread exists,
 * must be able to call, replug (no dead thread may hold it up), use predicates,
 * and exit; an alarm kills a child that hangs, which fails the test.
 */
#include "check.h"
#include "respec/runtime.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

static respec_slot shared_slot, counted_slot;
static _Atomic bool stop;

static int generic_fn(int x) { return x; }
static int plus_one(int x) { return x + 1; }
static int plus_two(int x) { return x + 2; }

static bool fork_inside_call;
static pid_t forked_inside;

static int forking_fn(int x)
{
	if (fork_inside_call) {
		fork_inside_call = false;
		forked_inside = fork();
		CHECK(forked_inside >= 0);
	}
	return x + 3;
}

static void *caller(void *unused)
{
	(void)unused;
	while (!atomic_load(&stop)) {
		int a = RESPEC_CALL(&shared_slot, int (*)(int), 10);
		int b = RESPEC_CALL(&counted_slot, int (*)(int), 10);
		CHECK(a >= 10 && a <= 13 && b >= 10 && b <= 12);
	}
	return NULL;
}

static void *replugger(void *unused)
{
	(void)unused;
	for (unsigned i = 0; !atomic_load(&stop); i++) {
		CHECK_OK(respec_replug(&shared_slot, i & 1 ? RESPEC_FN(plus_one) : RESPEC_FN(plus_two)));
		CHECK_OK(respec_replug(&counted_slot, i & 1 ? RESPEC_FN(plus_two) : RESPEC_FN(plus_one)));
	}
	return NULL;
}

/* What every child does: it is alone now, and everything must still work. */
static void child_work(void)
{
	alarm(20);
	for (int i = 0; i < 1000; i++) {
		int a = RESPEC_CALL(&shared_slot, int (*)(int), 1);
		int b = RESPEC_CALL(&counted_slot, int (*)(int), 1);
		CHECK(a >= 1 && a <= 4 && b >= 1 && b <= 3);
	}
	for (int i = 0; i < 20; i++) {
		CHECK_OK(respec_replug(&shared_slot, i & 1 ? RESPEC_FN(plus_one) : RESPEC_FN(plus_two)));
		CHECK_OK(respec_replug(&counted_slot, RESPEC_FN(plus_one)));
		CHECK(RESPEC_CALL(&shared_slot, int (*)(int), 1) == (i & 1 ? 2 : 3));
	}
	respec_predicate *pred = respec_predicate_create("fork.child");
	CHECK(pred);
	CHECK_OK(respec_predicate_add_slot(pred, &counted_slot, RESPEC_FN(plus_two)));
	CHECK_OK(respec_predicate_establish(pred));
	CHECK(RESPEC_CALL(&counted_slot, int (*)(int), 1) == 3);
	CHECK_OK(respec_predicate_invalidate(pred));
	CHECK(RESPEC_CALL(&counted_slot, int (*)(int), 1) == 1);
	CHECK_OK(respec_predicate_destroy(pred));
}

static void expect_child_ok(pid_t pid)
{
	int status;
	CHECK(waitpid(pid, &status, 0) == pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "child failed: %s %d\n", WIFSIGNALED(status) ? "signal" : "exit",
			WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		exit(1);
	}
}

int main(void)
{
	CHECK_OK(respec_slot_init(&shared_slot, "fork.shared", RESPEC_PROTOCOL_EPOCH,
				  RESPEC_FN(generic_fn)));
	CHECK_OK(respec_slot_init(&counted_slot, "fork.counted", RESPEC_PROTOCOL_COUNTING,
				  RESPEC_FN(generic_fn)));
	pthread_t threads[3];
	CHECK(pthread_create(&threads[0], NULL, caller, NULL) == 0);
	CHECK(pthread_create(&threads[1], NULL, caller, NULL) == 0);
	CHECK(pthread_create(&threads[2], NULL, replugger, NULL) == 0);

	int forks = RESPEC_TEST_TSAN ? 10 : 40;
	for (int i = 0; i < forks; i++) {
		pid_t pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			child_work();
			_exit(0);
		}
		expect_child_ok(pid);
	}
	atomic_store(&stop, true);
	for (int i = 0; i < 3; i++)
		CHECK(pthread_join(threads[i], NULL) == 0);

	/* fork() from inside a call: the child returns into the call, leaves it,
	 * and can then replug the very slot it was inside. */
	respec_slot forking_slot = {0};
	CHECK_OK(respec_slot_init(&forking_slot, "fork.inside", RESPEC_PROTOCOL_EPOCH,
				  RESPEC_FN(generic_fn)));
	CHECK_OK(respec_replug(&forking_slot, RESPEC_FN(forking_fn)));
	fork_inside_call = true;
	CHECK(RESPEC_CALL(&forking_slot, int (*)(int), 1) == 4);
	if (forked_inside == 0) {
		alarm(20);
		CHECK_OK(respec_replug(&forking_slot, RESPEC_FN(plus_one)));
		CHECK(RESPEC_CALL(&forking_slot, int (*)(int), 1) == 2);
		_exit(0);
	}
	expect_child_ok(forked_inside);
	CHECK_OK(respec_replug(&forking_slot, RESPEC_FN(plus_two)));
	CHECK_OK(respec_slot_destroy(&forking_slot));
	printf("%d forks under load and one from inside a call: PASS\n", forks);
	return 0;
}
