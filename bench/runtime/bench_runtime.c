/*
 * bench_runtime.c — what librespec's protocols cost, side by side with the
 * synchronization a user would otherwise reach for: a plain indirect call,
 * liburcu (qsbr and memb flavors, the real library), pthread_rwlock and an
 * atomic counter.
 *
 *   bench-runtime [--quick] [--json FILE] [--rounds N] [--seed N]
 *
 * Cases (ns per operation):
 *   call            one call of a trivial function through each mechanism
 *   call-2threads   the same with two threads calling at once (one per CPU)
 *   replug-idle     one replug (new implementation published, old one retired:
 *                   returns once no caller can run it) with no caller around
 *   replug-busy     the same while one thread calls through the slot nonstop
 *   replug-busy-2   the same with two such threads (one shares our CPU)
 *   guard           an untriggered guarded store vs a plain store
 *   guard-fire      a guarded store that breaks a predicate and re-specializes
 *
 * Protocol (bench/README.md): all variants of all cases run interleaved, round
 * after round (each case's variants in an order shuffled per round from the
 * run's seed), after a warm-up round; the median, min, p10 and p90 over rounds
 * are reported. Every variant's output is checked against the reference variant
 * (the sum of all call results, the number of replugs with every busy caller's
 * results valid, the final stored value) before anything is reported. The main
 * thread is pinned to CPU 0, helper threads to CPU 1 (and CPU 0 for the second
 * busy caller). This program does not use bench/harness.h: the harness requires
 * a variant named "generic" first and pins the whole process to one CPU, while
 * these cases need fixed variant names and a second CPU for the busy callers.
 */
#define _GNU_SOURCE
#include "harness.h"
#include "peers.h"
#include "respec/runtime.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_VARIANTS = 8, MAX_CASES = 8, MAX_ROUNDS = 64 };

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static bool pin_to_cpu(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

static _Noreturn void die(const char *what)
{
	fprintf(stderr, "bench-runtime: %s\n", what);
	exit(1);
}

static void ok(int err)
{
	if (err) {
		fprintf(stderr, "bench-runtime: %s\n", respec_last_error());
		exit(1);
	}
}

/* ---- the call loops, one per mechanism -------------------------------------- */

static _Atomic(target_fn) plain_pointer = target_add_one;
static respec_slot epoch_slot, counting_slot;
static _Thread_local respec_slot thread_slot; /* THREAD slots: one per calling thread */
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static _Atomic(target_fn) rwlock_pointer = target_add_one;
static _Atomic(target_fn) counted_pointer = target_add_one;
static _Atomic long callers_inside;

static uint64_t loop_indirect(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		target_fn fn = atomic_load_explicit(&plain_pointer, memory_order_relaxed);
		sum += (uint64_t)fn((int)(i & 0xffff));
	}
	return sum;
}

static uint64_t loop_respec_slot(respec_slot *slot, uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++)
		sum += (uint64_t)RESPEC_CALL(slot, target_fn, (int)(i & 0xffff));
	return sum;
}

static uint64_t loop_respec(uint64_t n) { return loop_respec_slot(&epoch_slot, n); }
static uint64_t loop_respec_counting(uint64_t n) { return loop_respec_slot(&counting_slot, n); }

static void ensure_thread_slot(void)
{
	if (!respec_slot_generic(&thread_slot)) {
		ok(respec_slot_init(&thread_slot, "bench.thread", RESPEC_PROTOCOL_THREAD,
				    RESPEC_FN(target_generic)));
		ok(respec_replug(&thread_slot, RESPEC_FN(target_add_one)));
	}
}

static uint64_t loop_respec_thread(uint64_t n)
{
	ensure_thread_slot();
	return loop_respec_slot(&thread_slot, n);
}

static uint64_t loop_rwlock(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		pthread_rwlock_rdlock(&rwlock);
		target_fn fn = atomic_load_explicit(&rwlock_pointer, memory_order_relaxed);
		sum += (uint64_t)fn((int)(i & 0xffff));
		pthread_rwlock_unlock(&rwlock);
	}
	return sum;
}

/* The textbook counting protocol, inline: what COUNTING does minus its call. */
static uint64_t loop_atomic_counter(uint64_t n)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		atomic_fetch_add_explicit(&callers_inside, 1, memory_order_seq_cst);
		target_fn fn = atomic_load_explicit(&counted_pointer, memory_order_seq_cst);
		sum += (uint64_t)fn((int)(i & 0xffff));
		atomic_fetch_sub_explicit(&callers_inside, 1, memory_order_release);
	}
	return sum;
}

static uint64_t loop_qsbr(uint64_t n)
{
	qsbr_reader_begin();
	uint64_t sum = qsbr_call_loop(n);
	qsbr_reader_end();
	return sum;
}

static uint64_t loop_memb(uint64_t n)
{
	memb_reader_begin();
	uint64_t sum = memb_call_loop(n);
	memb_reader_end();
	return sum;
}

/* ---- helper threads ------------------------------------------------------- */

/* A helper runs jobs on its own CPU: a call loop (2-thread scaling) or a busy
 * caller (replug cases) that runs until told to stop. */
struct helper {
	pthread_t thread;
	int cpu;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	uint64_t (*job)(struct helper *);
	uint64_t (*loop)(uint64_t);
	uint64_t n, result;
	bool busy, done;
	_Atomic int stop;
	_Atomic int started;
};

static void *helper_main(void *arg)
{
	struct helper *h = arg;
	if (!pin_to_cpu(h->cpu))
		fprintf(stderr, "bench-runtime: could not pin a helper to CPU %d\n", h->cpu);
	pthread_mutex_lock(&h->lock);
	for (;;) {
		while (!h->busy)
			pthread_cond_wait(&h->changed, &h->lock);
		pthread_mutex_unlock(&h->lock);
		uint64_t result = h->job(h);
		pthread_mutex_lock(&h->lock);
		h->result = result;
		h->busy = false;
		h->done = true;
		pthread_cond_broadcast(&h->changed);
	}
	return NULL;
}

static void helper_start(struct helper *h, uint64_t (*job)(struct helper *))
{
	pthread_mutex_lock(&h->lock);
	h->job = job;
	h->done = false;
	atomic_store(&h->stop, 0);
	atomic_store(&h->started, 0);
	h->busy = true;
	pthread_cond_broadcast(&h->changed);
	pthread_mutex_unlock(&h->lock);
}

static uint64_t helper_finish(struct helper *h)
{
	atomic_store(&h->stop, 1);
	pthread_mutex_lock(&h->lock);
	while (!h->done)
		pthread_cond_wait(&h->changed, &h->lock);
	uint64_t result = h->result;
	pthread_mutex_unlock(&h->lock);
	return result;
}

static struct helper helpers[2];

static void helpers_create(void)
{
	for (int i = 0; i < 2; i++) {
		helpers[i].cpu = i == 0 ? 1 : 0;
		pthread_mutex_init(&helpers[i].lock, NULL);
		pthread_cond_init(&helpers[i].changed, NULL);
		if (pthread_create(&helpers[i].thread, NULL, helper_main, &helpers[i]) != 0)
			die("cannot create helper threads");
	}
}

static uint64_t job_loop(struct helper *h)
{
	atomic_store(&h->started, 1);
	return h->loop(h->n);
}

/* Busy callers return how many calls they made, or 0 if any result was not
 * one of the two implementations'. */
static uint64_t busy_calls_through(respec_slot *slot, struct helper *h)
{
	uint64_t calls = 0;
	atomic_store(&h->started, 1);
	while (!atomic_load_explicit(&h->stop, memory_order_relaxed)) {
		int got = RESPEC_CALL(slot, target_fn, 1);
		if (got != 2 && got != 3)
			return 0;
		calls++;
	}
	return calls;
}

static uint64_t job_busy_epoch(struct helper *h) { return busy_calls_through(&epoch_slot, h); }
static uint64_t job_busy_counting(struct helper *h) { return busy_calls_through(&counting_slot, h); }
static uint64_t job_busy_thread(struct helper *h)
{
	ensure_thread_slot();
	return busy_calls_through(&thread_slot, h);
}
static uint64_t job_busy_qsbr(struct helper *h)
{
	atomic_store(&h->started, 1);
	return qsbr_busy_reader(&h->stop);
}
static uint64_t job_busy_memb(struct helper *h)
{
	atomic_store(&h->started, 1);
	return memb_busy_reader(&h->stop);
}

/* ---- cases and variants ------------------------------------------------------ */

struct variant {
	const char *name;
	/* Runs n operations; returns the output to cross-check. */
	uint64_t (*run)(const struct variant *v, uint64_t n);
	uint64_t (*loop)(uint64_t);            /* call loops */
	uint64_t (*busy_job)(struct helper *); /* replug cases */
	void (*replug)(target_fn);
	double samples[MAX_ROUNDS];
	struct bench_stats stats;
};

struct bench_case {
	const char *name;
	uint64_t n, quick_n;
	int busy_callers;
	struct variant variants[MAX_VARIANTS];
	int nvariants;
};

static uint64_t run_call(const struct variant *v, uint64_t n)
{
	return v->loop(n);
}

static uint64_t run_call_2threads(const struct variant *v, uint64_t n)
{
	helpers[0].loop = v->loop;
	helpers[0].n = n;
	helper_start(&helpers[0], job_loop);
	while (!atomic_load(&helpers[0].started))
		;
	uint64_t mine = v->loop(n);
	uint64_t theirs = helper_finish(&helpers[0]);
	return mine + theirs;
}

/* Slot (or pointer) replugs alternate between two implementations, neither of
 * them generic, so that each one waits for callers of the one it retires. */
static void replug_epoch(target_fn fn) { ok(respec_replug(&epoch_slot, RESPEC_FN(fn))); }
static void replug_counting(target_fn fn) { ok(respec_replug(&counting_slot, RESPEC_FN(fn))); }
static respec_slot *helper_thread_slot; /* the THREAD slot owned by helper 0 */
static void replug_thread(target_fn fn) { ok(respec_replug(helper_thread_slot, RESPEC_FN(fn))); }

static uint64_t job_report_thread_slot(struct helper *h)
{
	(void)h;
	ensure_thread_slot();
	helper_thread_slot = &thread_slot;
	return 0;
}

static int current_busy_callers;

static uint64_t run_replug(const struct variant *v, uint64_t n)
{
	for (int i = 0; i < current_busy_callers; i++) {
		helper_start(&helpers[i], v->busy_job);
		while (!atomic_load(&helpers[i].started))
			;
	}
	for (uint64_t i = 0; i < n; i++)
		v->replug(i & 1 ? target_add_one : target_add_two);
	v->replug(target_add_one);
	for (int i = 0; i < current_busy_callers; i++)
		if (helper_finish(&helpers[i]) == 0)
			die("a busy caller saw a result no implementation produces");
	return n;
}

static struct {
	respec_spid spid;
	long term;
} guarded_object;

static uint64_t run_plain_store(const struct variant *v, uint64_t n)
{
	(void)v;
	for (uint64_t i = 1; i <= n; i++) {
		guarded_object.term = (long)i;
		__asm__ volatile("" ::: "memory"); /* keep every store */
	}
	return (uint64_t)guarded_object.term;
}

static uint64_t run_guarded_store(const struct variant *v, uint64_t n)
{
	(void)v;
	for (uint64_t i = 1; i <= n; i++) {
		RESPEC_GUARDED_STORE(guarded_object.spid, guarded_object.term, (long)i);
		__asm__ volatile("" ::: "memory");
	}
	return (uint64_t)guarded_object.term;
}

/* guard-fire: a predicate on a second object's term, with one dependent slot,
 * re-specialized after each store. */
static respec_slot fire_slot;
static respec_predicate *fire_predicate;
static struct {
	respec_spid spid;
	long term;
} fire_object;
static int fire_specialized(int x) { return x + 7; }
static respec_fn fire_respecialize(respec_predicate *p, respec_slot *s, void *arg)
{
	(void)p, (void)s, (void)arg;
	return RESPEC_FN(fire_specialized);
}

static uint64_t run_guard_fire(const struct variant *v, uint64_t n)
{
	(void)v;
	for (uint64_t i = 1; i <= n; i++)
		RESPEC_GUARDED_STORE(fire_object.spid, fire_object.term, (long)i);
	if (RESPEC_CALL(&fire_slot, target_fn, 0) != 7)
		die("guard-fire: the slot is not re-specialized");
	return (uint64_t)fire_object.term;
}

static struct bench_case cases[MAX_CASES];
static int ncases;

static struct bench_case *add_case(const char *name, uint64_t n, uint64_t quick_n, int busy)
{
	struct bench_case *c = &cases[ncases++];
	c->name = name;
	c->n = n;
	c->quick_n = quick_n;
	c->busy_callers = busy;
	return c;
}

static struct variant *add_variant(struct bench_case *c, const char *name,
				   uint64_t (*run)(const struct variant *, uint64_t))
{
	struct variant *v = &c->variants[c->nvariants++];
	v->name = name;
	v->run = run;
	return v;
}

static void add_call_variants(struct bench_case *c, uint64_t (*run)(const struct variant *, uint64_t))
{
	static const struct {
		const char *name;
		uint64_t (*loop)(uint64_t);
	} loops[] = {
		{"indirect", loop_indirect},
		{"respec", loop_respec},
		{"respec-thread", loop_respec_thread},
		{"respec-counting", loop_respec_counting},
		{"liburcu-qsbr", loop_qsbr},
		{"liburcu-memb", loop_memb},
		{"pthread-rwlock", loop_rwlock},
		{"atomic-counter", loop_atomic_counter},
	};
	for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++)
		add_variant(c, loops[i].name, run)->loop = loops[i].loop;
}

static void add_replug_variants(struct bench_case *c)
{
	struct variant *v = add_variant(c, "respec", run_replug);
	v->replug = replug_epoch, v->busy_job = job_busy_epoch;
	if (c->busy_callers <= 1) { /* a THREAD slot has a single caller, its owner */
		v = add_variant(c, "respec-thread", run_replug);
		v->replug = replug_thread, v->busy_job = job_busy_thread;
	}
	v = add_variant(c, "respec-counting", run_replug);
	v->replug = replug_counting, v->busy_job = job_busy_counting;
	v = add_variant(c, "liburcu-qsbr", run_replug);
	v->replug = qsbr_replug, v->busy_job = job_busy_qsbr;
	v = add_variant(c, "liburcu-memb", run_replug);
	v->replug = memb_replug, v->busy_job = job_busy_memb;
}

static double variant_median(const char *case_name, const char *variant)
{
	for (int c = 0; c < ncases; c++)
		for (int v = 0; v < cases[c].nvariants; v++)
			if (!strcmp(cases[c].name, case_name) && !strcmp(cases[c].variants[v].name, variant))
				return cases[c].variants[v].stats.median;
	return 0;
}

static void write_json(const char *path, bool quick, int rounds, uint64_t seed, bool pinned)
{
	FILE *out = fopen(path, "w");
	if (!out)
		die("cannot write the JSON file");
	char machine[256];
	bench_describe_machine(machine, sizeof machine);
	fprintf(out, "{\n  \"benchmark\": \"runtime\",\n  \"machine\": \"%s\",\n  \"quick\": %s,\n  \"rows\": [\n",
		machine, quick ? "true" : "false");
	bool first = true;
	for (int c = 0; c < ncases; c++)
		for (int v = 0; v < cases[c].nvariants; v++) {
			const struct variant *var = &cases[c].variants[v];
			fprintf(out, "%s    {\"case\": \"%s\", \"variant\": \"%s\", ", first ? "" : ",\n",
				cases[c].name, var->name);
			bench_json_stats(out, &var->stats, 4);
			fprintf(out, "}");
			first = false;
		}
	fprintf(out, "\n  ],\n  \"extra\": {\n");
	double indirect = variant_median("call", "indirect");
	fprintf(out, "    \"call_ns_above_indirect\": {");
	for (int v = 1; v < cases[0].nvariants; v++)
		fprintf(out, "%s\"%s\": %.3g", v > 1 ? ", " : "", cases[0].variants[v].name,
			cases[0].variants[v].stats.median - indirect);
	fprintf(out, "},\n    \"guard_ns_above_plain_store\": %.3g,\n",
		variant_median("guard", "respec") - variant_median("guard", "plain-store"));
	fprintf(out, "    \"default_protocol\": \"epoch\",\n    \"barrier\": \"%s\",\n",
		respec_barrier_mechanism());
	fprintf(out, "    \"rounds\": %d,\n    \"seed\": %llu,\n    \"clock\": \"wall (CLOCK_MONOTONIC)\",\n",
		rounds, (unsigned long long)seed);
	fprintf(out, "    \"pinning\": \"%s\",\n",
		pinned ? "main thread CPU 0, helper CPU 1, second busy caller CPU 0" : "not pinned");
	fprintf(out, "    \"liburcu\": \"Debian liburcu-dev 0.13.2, read side inlined (_LGPL_SOURCE); qsbr readers announce a quiescent state every 1024 calls\"\n");
	fprintf(out, "  }\n}\n");
	fclose(out);
}

int main(int argc, char **argv)
{
	struct bench_options options = bench_parse_options(argc, argv);
	bool quick = options.quick;
	const char *json = options.json_path;
	int rounds = options.rounds ? options.rounds : quick ? 5 : 31;
	bool pinned = pin_to_cpu(0);
	helpers_create();

	/* Slots start generic and are replugged to target_add_one: calls then run
	 * an implementation a replug must retire, as specialized code is. */
	ok(respec_slot_init(&epoch_slot, "bench.epoch", RESPEC_PROTOCOL_DEFAULT, RESPEC_FN(target_generic)));
	ok(respec_slot_init(&counting_slot, "bench.counting", RESPEC_PROTOCOL_COUNTING,
			    RESPEC_FN(target_generic)));
	ok(respec_replug(&epoch_slot, RESPEC_FN(target_add_one)));
	ok(respec_replug(&counting_slot, RESPEC_FN(target_add_one)));
	ok(respec_slot_init(&fire_slot, "bench.fire", RESPEC_PROTOCOL_DEFAULT, RESPEC_FN(target_generic)));
	helper_start(&helpers[0], job_report_thread_slot);
	helper_finish(&helpers[0]);
	fire_predicate = respec_predicate_create("bench.fire");
	ok(respec_predicate_add_slot(fire_predicate, &fire_slot, RESPEC_FN(fire_specialized)));
	ok(respec_predicate_watch(fire_predicate, &fire_object.spid));
	ok(respec_predicate_set_respecialize(fire_predicate, fire_respecialize, NULL));
	/* Each store pays the whole break and re-specialization: no back-off. */
	ok(respec_predicate_set_policy(fire_predicate, respec_policy_always, NULL));
	ok(respec_predicate_establish(fire_predicate));

	add_call_variants(add_case("call", 2000000, 500000, 0), run_call);
	add_call_variants(add_case("call-2threads", 2000000, 500000, 0), run_call_2threads);
	add_replug_variants(add_case("replug-idle", 2000, 500, 0));
	add_replug_variants(add_case("replug-busy", 300, 100, 1));
	add_replug_variants(add_case("replug-busy-2", 100, 40, 2));
	struct bench_case *guard = add_case("guard", 5000000, 1000000, 0);
	add_variant(guard, "plain-store", run_plain_store);
	add_variant(guard, "respec", run_guarded_store);
	add_variant(add_case("guard-fire", 2000, 500, 0), "respec", run_guard_fire);

	/* Cross-check: every variant's output equals the case's first variant's. */
	for (int c = 0; c < ncases; c++) {
		struct bench_case *bc = &cases[c];
		current_busy_callers = bc->busy_callers;
		uint64_t n = 1000;
		uint64_t expected = bc->variants[0].run(&bc->variants[0], n);
		for (int v = 1; v < bc->nvariants; v++) {
			uint64_t got = bc->variants[v].run(&bc->variants[v], n);
			if (got != expected) {
				fprintf(stderr, "bench-runtime: case %s: variant %s output %llu, %s gave %llu\n",
					bc->name, bc->variants[v].name, (unsigned long long)got,
					bc->variants[0].name, (unsigned long long)expected);
				return 1;
			}
		}
	}

	uint64_t order_state = options.seed;
	int order[MAX_VARIANTS];
	for (int round = -1; round < rounds; round++) { /* round -1 warms up */
		for (int c = 0; c < ncases; c++) {
			struct bench_case *bc = &cases[c];
			current_busy_callers = bc->busy_callers;
			uint64_t n = quick ? bc->quick_n : bc->n;
			for (int v = 0; v < bc->nvariants; v++)
				order[v] = v;
			bench_shuffle(&order_state, order, bc->nvariants);
			for (int v = 0; v < bc->nvariants; v++) {
				struct variant *var = &bc->variants[order[v]];
				uint64_t start = now_ns();
				var->run(var, n);
				double ns = (double)(now_ns() - start) / (double)n;
				if (round >= 0)
					var->samples[round] = ns;
			}
		}
	}

	printf("bench-runtime: %d rounds%s, order seed %llu, barrier %s, %s\n", rounds,
	       quick ? " (quick)" : "", (unsigned long long)options.seed, respec_barrier_mechanism(),
	       pinned ? "pinned" : "not pinned");
	for (int c = 0; c < ncases; c++) {
		printf("\n%s\n  %-16s %12s %12s %21s\n", cases[c].name, "variant", "median ns/op",
		       "min ns/op", "p10-p90 ns/op");
		for (int v = 0; v < cases[c].nvariants; v++) {
			struct variant *var = &cases[c].variants[v];
			var->stats = bench_stats(var->samples, rounds);
			printf("  %-16s %12.2f %12.2f %10.2f-%-10.2f\n", var->name, var->stats.median,
			       var->stats.min, var->stats.p10, var->stats.p90);
		}
	}
	double indirect = variant_median("call", "indirect");
	printf("\ncall, ns above a plain indirect call (medians):");
	for (int v = 1; v < cases[0].nvariants; v++)
		printf(" %s %+.2f;", cases[0].variants[v].name,
		       cases[0].variants[v].stats.median - indirect);
	printf("\nguard, ns above a plain store: %+.2f\n",
	       variant_median("guard", "respec") - variant_median("guard", "plain-store"));
	if (json)
		write_json(json, quick, rounds, options.seed, pinned);
	return 0;
}
