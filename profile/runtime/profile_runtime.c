/*
 * profile_runtime.c — librespec-profile: what the value-profiling
 * instrumentation (profile/ValueProfilePass.cpp) records, and the profile it
 * writes when the program exits.
 *
 * Each instrumented module registers its sites from a constructor: a
 * descriptor string per site, a slot this library fills with the site's state,
 * and two counter words per site that the instrumented code updates inline (a
 * call's, a write's or a block's count; a branch's executions either way; a
 * value site's countdown to its next recorded observation). A value or region site calls in only when its countdown runs
 * out: every observation of its first EXACT_OBSERVATIONS, then about one in
 * SAMPLE_PERIOD (randomized, so that a loop whose body holds several sites
 * does not always record the same one), each recorded with the weight of the
 * observations it stands for. Counts are then estimates, and a value that
 * changes more rarely than the period may be missed: the first observations
 * are exact so that short runs are, and "changes" counts changes between
 * recorded observations. A site's state is a small sketch, updated under a
 * per-site spin lock (sites are rarely contended; a lock keeps the sketch's
 * words consistent when they are):
 *
 *   value sites (param, field): observations, changes (how often a value
 *     differed from the site's previous one: a value that alternates is not
 *     stable even when it is frequent) and the top SKETCH_VALUES values by the
 *     space-saving algorithm (a value not in the table takes the place of the
 *     least counted one and inherits its count as error), so the dominant
 *     value's count is exact whenever it never left the table;
 *   region sites: per offset from the parameter, the first value read there
 *     and whether a later read differed (an open-addressed table of
 *     REGION_OFFSETS offsets; more offsets are counted, not tracked);
 *   call, write and block sites: a count;
 *   branch sites: a count per way (its two words), written as the executions
 *     and the ones whose condition held.
 *
 * The profile (format in profile/ProfileReport.h) goes to $RESPEC_PROFILE_OUT, where
 * "%p" becomes the process id (default respec-profile.%p.txt): written to a
 * temporary name and renamed, so that a profile is never half-written. It is
 * written at exit(), and at _exit() and _Exit() too: `respec profile --ldflags`
 * wraps them (-Wl,--wrap), since programs that must not run destructors end
 * that way. A process killed by a signal writes nothing, and _exit called from
 * a signal handler is not supported (writing a file is not async-signal-safe).
 * A forked child starts from zero (pthread_atfork), so that its profile and
 * its parent's add up; a vfork child writes nothing. Not supported either: an
 * instrumented shared library that is unloaded (dlclose) before exit, whose
 * sites the profile would still read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "profile_output.h"
#include "symbols.h"

#define SKETCH_VALUES 8
#define REGION_OFFSETS 1024
#define EXACT_OBSERVATIONS 1024
#define SAMPLE_PERIOD 64

enum site_kind {
	SITE_CALL,
	SITE_PARAM,
	SITE_FIELD,
	SITE_REGION,
	SITE_WRITE,
	SITE_BLOCK,
	SITE_BRANCH,
	SITE_MODULE
};

struct region_cell {
	int64_t offset;
	uint64_t value, size; /* the first value read there, and its size */
	uint64_t reads;
	int used, changed;
};

struct site {
	atomic_flag lock;
	enum site_kind kind;
	const char *descriptor;
	/* The module's two words: events (call, write and block sites),
	 * countdown; a branch site's, its executions either way. */
	uint64_t *counter;
	uint64_t period; /* the weight of the next recorded observation */
	uint64_t random; /* xorshift state for the periods */
	uint64_t count, changes, last;
	uint64_t samples; /* recorded observations: changes are seen between them */
	uint64_t values[SKETCH_VALUES], counts[SKETCH_VALUES], errors[SKETCH_VALUES];
	unsigned used;
	/* region sites */
	struct region_cell *cells;
	uint64_t untracked, bases;
	uintptr_t base;
	struct site *next;
};

static struct site *all_sites;
static atomic_flag profile_written = ATOMIC_FLAG_INIT;
static atomic_flag registry_lock = ATOMIC_FLAG_INIT;
static int exit_hook_set;

static void lock(atomic_flag *flag)
{
	while (atomic_flag_test_and_set_explicit(flag, memory_order_acquire))
		;
}

static void unlock(atomic_flag *flag)
{
	atomic_flag_clear_explicit(flag, memory_order_release);
}

/* The hooks never wait: an observation whose site is busy (another thread, or
 * a signal handler that interrupted this one inside the hook) is dropped, and
 * the site's countdown, still run out, takes the next one. */
static int try_lock(atomic_flag *flag)
{
	return !atomic_flag_test_and_set_explicit(flag, memory_order_acquire);
}

static void write_profile(void);
static void lock_all(void);
static void unlock_all(void);
static void reset_in_child(void);
/* The process whose profile this is: a vfork child shares this memory. */
static pid_t profiled_process;

/* A site's sampling seed: a hash of its descriptor (FNV-1a), so that it samples
 * the same observations of a run whatever else the plugin instrumented. */
static uint64_t descriptor_seed(const char *descriptor)
{
	uint64_t hash = 0xcbf29ce484222325ULL;
	for (const unsigned char *c = (const unsigned char *)descriptor; *c; c++)
		hash = (hash ^ *c) * 0x100000001b3ULL;
	return hash ? hash : 1; /* xorshift never leaves zero */
}

void __respec_profile_register(const char *const *descriptors, struct site **states,
			       uint64_t *counters, uint64_t n)
{
	static const char *kinds[] = {"call",  "param", "field",  "region",
				      "write", "block", "branch", "module"};
	enum { KINDS = sizeof kinds / sizeof kinds[0] };
	for (uint64_t i = 0; i < n; i++) {
		struct site *s = calloc(1, sizeof *s);
		if (!s)
			return; /* unprofiled from here on: the program itself must not fail */
		atomic_flag_clear(&s->lock);
		s->descriptor = descriptors[i];
		s->counter = &counters[2 * i];
		s->period = 1;
		s->random = descriptor_seed(descriptors[i]);
		for (int k = 0; k < KINDS; k++)
			if (strncmp(descriptors[i], kinds[k], strlen(kinds[k])) == 0 &&
			    descriptors[i][strlen(kinds[k])] == '\t')
				s->kind = (enum site_kind)k;
		lock(&registry_lock);
		s->next = all_sites;
		all_sites = s;
		unlock(&registry_lock);
		states[i] = s;
	}
	lock(&registry_lock);
	if (!exit_hook_set) {
		exit_hook_set = 1;
		profiled_process = getpid();
		atexit(write_profile);
		pthread_atfork(lock_all, unlock_all, reset_in_child);
	}
	unlock(&registry_lock);
}

/* The weight of this observation, and the countdown to the next recorded one. */
static uint64_t take_sample(struct site *s)
{
	uint64_t weight = s->period;
	if (s->count + weight < EXACT_OBSERVATIONS) {
		s->period = 1;
	} else {
		s->random ^= s->random << 13;
		s->random ^= s->random >> 7;
		s->random ^= s->random << 17;
		s->period = SAMPLE_PERIOD / 2 + s->random % SAMPLE_PERIOD;
	}
	/* The instrumented code counts down with plain (monotonic) accesses. */
	__atomic_store_n(&s->counter[1], s->period, __ATOMIC_RELAXED);
	return weight;
}

/* Space-saving: the value's counter, else the least counted one's. */
static void sketch_add(struct site *s, uint64_t value, uint64_t weight)
{
	unsigned least = 0;
	for (unsigned i = 0; i < s->used; i++) {
		if (s->values[i] == value) {
			s->counts[i] += weight;
			return;
		}
		if (s->counts[i] < s->counts[least])
			least = i;
	}
	if (s->used < SKETCH_VALUES) {
		s->values[s->used] = value;
		s->errors[s->used] = 0;
		s->counts[s->used++] = weight;
		return;
	}
	s->values[least] = value;
	s->errors[least] = s->counts[least];
	s->counts[least] += weight;
}

void __respec_profile_value(struct site *s, uint64_t value)
{
	if (!s || !try_lock(&s->lock))
		return;
	uint64_t weight = take_sample(s);
	if (s->count && value != s->last)
		s->changes++;
	s->samples++;
	s->count += weight;
	s->last = value;
	sketch_add(s, value, weight);
	unlock(&s->lock);
}

void __respec_profile_region(struct site *s, const void *base, const void *address, uint64_t value,
			     uint64_t size)
{
	if (!s || !try_lock(&s->lock))
		return;
	uint64_t weight = take_sample(s);
	if (!s->cells)
		s->cells = calloc(REGION_OFFSETS, sizeof *s->cells);
	if (!s->count || s->base != (uintptr_t)base)
		s->bases++;
	s->base = (uintptr_t)base;
	s->count += weight;
	int64_t offset = (int64_t)((uintptr_t)address - (uintptr_t)base);
	struct region_cell *cell = NULL;
	if (s->cells) {
		uint64_t h = (uint64_t)offset * 0x9e3779b97f4a7c15ULL;
		for (unsigned probe = 0; probe < 16; probe++) {
			struct region_cell *c = &s->cells[(h + probe) % REGION_OFFSETS];
			if (!c->used || c->offset == offset) {
				cell = c;
				break;
			}
		}
	}
	if (!cell) {
		s->untracked += weight;
	} else if (!cell->used) {
		cell->used = 1;
		cell->offset = offset;
		cell->value = value;
		cell->size = size;
		cell->reads = weight;
	} else {
		cell->changed |= cell->value != value;
		cell->reads += weight;
	}
	unlock(&s->lock);
}

static void write_site(FILE *out, struct site *s)
{
	uint64_t counted = __atomic_load_n(&s->counter[0], __ATOMIC_RELAXED);
	uint64_t count = s->kind == SITE_MODULE ? 1
			 : s->kind == SITE_CALL || s->kind == SITE_WRITE || s->kind == SITE_BLOCK
				 ? counted
			 : s->kind == SITE_BRANCH ? counted + __atomic_load_n(&s->counter[1], __ATOMIC_RELAXED)
						  : s->count;
	if (!count)
		return;
	fprintf(out, "%s\t%llu", s->descriptor, (unsigned long long)count);
	if (s->kind == SITE_BRANCH) {
		fprintf(out, "\t%llu", (unsigned long long)counted);
	} else if (s->kind == SITE_PARAM || s->kind == SITE_FIELD) {
		/* Changes were seen between recorded observations: scaled to all of
		 * them (exact while every observation is recorded). */
		double changes = s->samples ? (double)s->changes * (double)s->count / (double)s->samples : 0;
		fprintf(out, "\t%llu\t", (unsigned long long)(changes + 0.5));
		for (unsigned i = 0; i < s->used; i++)
			fprintf(out, "%s%llx:%llu:%llu", i ? "," : "", (unsigned long long)s->values[i],
				(unsigned long long)s->counts[i], (unsigned long long)s->errors[i]);
	} else if (s->kind == SITE_REGION) {
		uint64_t offsets = 0, changed = 0, stable_reads = 0;
		int64_t low = INT64_MAX, high = INT64_MIN;
		for (unsigned i = 0; s->cells && i < REGION_OFFSETS; i++) {
			struct region_cell *c = &s->cells[i];
			if (!c->used)
				continue;
			offsets++;
			changed += c->changed;
			stable_reads += c->changed ? 0 : c->reads;
			low = c->offset < low ? c->offset : low;
			high = c->offset > high ? c->offset : high;
		}
		fprintf(out, "\t%llu\t%llu:%llu:%llu:%llu:%lld:%lld\t",
			(unsigned long long)s->bases, (unsigned long long)offsets,
			(unsigned long long)changed, (unsigned long long)stable_reads,
			(unsigned long long)s->untracked, (long long)(offsets ? low : 0),
			(long long)(offsets ? high : 0));
		/* The contents of a region that never changed, for the report's
		 * measuring spec: offset:size:value of every cell. */
		for (unsigned i = 0, first = 1; !changed && s->cells && i < REGION_OFFSETS; i++)
			if (s->cells[i].used) {
				fprintf(out, "%s%lld:%llu:%llx", first ? "" : ",",
					(long long)s->cells[i].offset,
					(unsigned long long)s->cells[i].size,
					(unsigned long long)s->cells[i].value);
				first = 0;
			}
	}
	fputc('\n', out);
}

/* fork: every lock is taken before (so that no other thread holds one in the
 * child's copy) and released after, in both processes; the child's sites then
 * count only what the child does. */
static void lock_all(void)
{
	lock(&registry_lock);
	for (struct site *s = all_sites; s; s = s->next)
		lock(&s->lock);
}

static void unlock_all(void)
{
	for (struct site *s = all_sites; s; s = s->next)
		unlock(&s->lock);
	unlock(&registry_lock);
}

static void reset_in_child(void)
{
	profiled_process = getpid();
	atomic_flag_clear(&profile_written);
	for (struct site *s = all_sites; s; s = s->next) {
		__atomic_store_n(&s->counter[0], 0, __ATOMIC_RELAXED);
		s->count = s->changes = s->untracked = s->bases = s->samples = s->last = 0;
		s->used = 0;
		memset(s->errors, 0, sizeof s->errors);
		s->period = 1;
		__atomic_store_n(&s->counter[1], s->kind == SITE_BRANCH ? 0 : 1, __ATOMIC_RELAXED);
		if (s->cells)
			memset(s->cells, 0, REGION_OFFSETS * sizeof *s->cells);
	}
	unlock_all();
}

void __real__exit(int status) __attribute__((noreturn));
void __real__Exit(int status) __attribute__((noreturn));

void __wrap__exit(int status)
{
	write_profile();
	__real__exit(status);
}

void __wrap__Exit(int status)
{
	write_profile();
	__real__Exit(status);
}

/* The variables and functions the observed values point into, as the
 * program's symbol tables name them ("variable" and "function" records): a
 * spec can state a pointer fact by a variable's name (respec_variable), not by
 * an address of this run, and runs with different addresses merge by name. */
static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static void write_variables(FILE *out)
{
	/* Each distinct value once: the sites' values, sorted. */
	size_t count = 0, capacity = 0;
	uint64_t *values = NULL;
	for (struct site *s = all_sites; s; s = s->next) {
		if (s->kind != SITE_PARAM && s->kind != SITE_FIELD)
			continue;
		lock(&s->lock);
		for (unsigned i = 0; i < s->used; i++) {
			if (s->values[i] < 4096)
				continue;
			if (count == capacity) {
				uint64_t *grown = realloc(values, (capacity = 2 * capacity + 256) * sizeof *values);
				if (!grown)
					break; /* fewer names: the report states fewer pointer facts */
				values = grown;
			}
			values[count++] = s->values[i];
		}
		unlock(&s->lock);
	}
	if (count)
		qsort(values, count, sizeof *values, by_value);
	for (size_t i = 0; i < count; i++) {
		struct respec_symbol_name v;
		if ((i == 0 || values[i] != values[i - 1]) && respec_symbol_at((uintptr_t)values[i], &v))
			fprintf(out, "%s\t%llx\t%s\t%s\t%llu\t\t1\n", v.function ? "function" : "variable",
				(unsigned long long)values[i], v.file ? v.file : "", v.name,
				(unsigned long long)v.offset);
	}
	free(values);
}

static void write_sites(FILE *out, void *context)
{
	(void)context;
	/* The run's CPU time: with the block counts, its rate of instructions. */
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	fprintf(out, "run\t%s\t\t\t\t\t%llu\n", program_invocation_short_name,
		(unsigned long long)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000000ull +
			(unsigned long long)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1000ull);
	lock(&registry_lock);
	for (struct site *s = all_sites; s; s = s->next) {
		lock(&s->lock);
		write_site(out, s);
		unlock(&s->lock);
	}
	write_variables(out);
	unlock(&registry_lock);
}

static void write_profile(void)
{
	/* A vfork child ending with _exit shares the parent's memory: the profile
	 * is the parent's to write. */
	if (getpid() != profiled_process || atomic_flag_test_and_set(&profile_written))
		return;
	profile_write("", write_sites, NULL);
}
