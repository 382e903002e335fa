/*
 * jit_facts_test.c — external facts at run time (respec/jit.h, respec.h):
 * specialized code that folded glibc's ctype tables (read in this process)
 * and pure string functions computes what the generic code computes on
 * random inputs, in this thread and in one whose locale (uselocale) has its
 * tables elsewhere; strcmp folds to the C library's own value; a stable table
 * of the program's is checked on entry (the generic code runs when the
 * program points the function elsewhere), and what was folded shows when the
 * program breaks the contract by changing the memory in place.
 */
#include "scan.h"

#include <respec/jit.h>

#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RESPEC_DECLARE_BITCODE(jit_facts);

typedef int (*scan_fn)(const char *, const char *, long *);
typedef int (*compare_fn)(const char *, const char *);
typedef int (*keyword_fn)(const char *, size_t);
typedef int (*weigh_fn)(int, int);
int scan_with(const char *fmt, const char *in, long *out);
int compare_with(const char *a, const char *b);
int keyword_with(const char *word, size_t n);
int weigh2(int i, int j);
int clamp(int x);
typedef int (*clamp_fn)(int);
struct config {
	int limit, scale;
};
static struct config standard_config = {100, 3}, other_config = {10, 5};
static const struct config *config = &standard_config;
const struct config *current_config(void) { return config; }

#include "check.h"

static int A[4] = {10, 20, 30, 40}, B[4] = {1, 2, 3, 4};
static const int *weights = A;
const int **weights_loc(void) { return &weights; }

static const char *const formats[] = {" %d-%d-%d %w", "%x%%..%D", "KEY=%w;%d"};

static void random_input(char *buf, size_t size, unsigned *seed)
{
	static const char pieces[][6] = {"12", "-7", "+3", "2024", "-", " ", "\t", "fF", "Ab",
					 "zZ9", "key=", ";", "\xe4", "%", "..", "\n"};
	size_t n = 0, parts = (size_t)rand_r(seed) % 9;
	for (size_t p = 0; p < parts; p++) {
		const char *piece = pieces[(size_t)rand_r(seed) % (sizeof pieces / sizeof *pieces)];
		size_t len = strlen(piece);
		if (n + len + 1 >= size)
			break;
		memcpy(buf + n, piece, len);
		n += len;
	}
	buf[n] = 0;
}

/* Every format's specialized scanner against the generic one. */
static scan_fn scanners[3];
static int compare_scanners(unsigned seed)
{
	int mismatches = 0;
	char in[48];
	for (int i = 0; i < 20000; i++) {
		random_input(in, sizeof in, &seed);
		for (int f = 0; f < 3; f++) {
			long a[8] = {0}, b[8] = {0};
			int x = scanners[f](formats[f], in, a), y = scan_with(formats[f], in, b);
			if (x != y || memcmp(a, b, sizeof a) != 0)
				mismatches++;
		}
	}
	return mismatches;
}

static void *in_another_locale(void *arg)
{
	locale_t utf8 = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
	if (utf8)
		uselocale(utf8);
	*(int *)arg = compare_scanners(7);
	if (utf8) {
		uselocale(LC_GLOBAL_LOCALE);
		freelocale(utf8);
	}
	return NULL;
}

int main(void)
{
	respec_jit *jit = respec_jit_create(respec_bitcode_jit_facts, respec_bitcode_jit_facts_size);
	CHECK(jit, "respec_jit_create");
	if (!jit)
		return 1;
	for (int f = 0; f < 3; f++) {
		struct respec_arg args[] = {RESPEC_STATIC_MEMORY(formats[f], strlen(formats[f]) + 1),
					    RESPEC_DYNAMIC, RESPEC_DYNAMIC};
		scanners[f] = (scan_fn)respec_jit_specialize(jit, "scan_with", args, 3);
		CHECK(scanners[f], "specialize scan_with(\"%s\"): %s", formats[f], respec_jit_error(jit));
		if (!scanners[f])
			return 1;
	}
	int mismatches = compare_scanners(1);
	CHECK(mismatches == 0, "%d scans differ from the generic code's", mismatches);
	int other = -1;
	pthread_t thread;
	pthread_create(&thread, NULL, in_another_locale, &other);
	pthread_join(thread, NULL);
	CHECK(other == 0, "in C.UTF-8 (uselocale): %d scans differ", other);

	/* strcmp folded in-process: glibc's byte difference, not just a sign. */
	static const char apple[] = "apple", apricot[] = "apricot";
	struct respec_arg strings[] = {RESPEC_STATIC_MEMORY(apple, sizeof apple),
				       RESPEC_STATIC_MEMORY(apricot, sizeof apricot)};
	compare_fn compare = (compare_fn)respec_jit_specialize(jit, "compare_with", strings, 2);
	CHECK(compare && compare(NULL, NULL) == compare_with(apple, apricot),
	      "compare_with: specialized %d, generic %d", compare ? compare(NULL, NULL) : 0,
	      compare_with(apple, apricot));

	static const char *const words[] = {"while", "whilE", "do", "", "return", "x"};
	for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
		struct respec_arg args[] = {RESPEC_STATIC_MEMORY(words[w], strlen(words[w]) + 1),
					    RESPEC_STATIC_VALUE(strlen(words[w]))};
		keyword_fn k = (keyword_fn)respec_jit_specialize(jit, "keyword_with", args, 2);
		CHECK(k && k(NULL, 0) == keyword_with(words[w], strlen(words[w])),
		      "keyword_with(%s)", words[w]);
	}

	/* The program's table: folded for a static index, checked on entry. */
	struct respec_arg index[] = {RESPEC_STATIC_VALUE(1), RESPEC_DYNAMIC};
	weigh_fn weigh = (weigh_fn)respec_jit_specialize(jit, "weigh2", index, 2);
	CHECK(weigh, "specialize weigh2: %s", respec_jit_error(jit));
	if (weigh) {
		for (int j = 0; j < 4; j++)
			CHECK(weigh(0, j) == weigh2(1, j), "table A, j=%d", j);
		weights = B; /* elsewhere: the guard runs the generic code */
		for (int j = 0; j < 4; j++)
			CHECK(weigh(0, j) == weigh2(1, j), "table B, j=%d: %d %d", j, weigh(0, j),
			      weigh2(1, j));
		weights = A;
		A[1] = 21; /* the contract broken: the folded entry shows */
		CHECK(weigh(0, 0) == 2010 && weigh2(1, 0) == 2110,
		      "A changed in place: specialized %d (folded 20), generic %d", weigh(0, 0),
		      weigh2(1, 0));
		A[1] = 20;
	}
	/* A stable pointer: folded to the address read, checked on entry. */
	struct respec_arg dynamic[] = {RESPEC_DYNAMIC};
	clamp_fn c = (clamp_fn)respec_jit_specialize(jit, "clamp", dynamic, 1);
	CHECK(c, "specialize clamp: %s", respec_jit_error(jit));
	for (int x = -50; c && x < 50; x += 7) {
		config = &standard_config;
		CHECK(c(x) == clamp(x), "clamp(%d), standard: %d %d", x, c(x), clamp(x));
		config = &other_config;
		CHECK(c(x) == clamp(x), "clamp(%d), other: %d %d", x, c(x), clamp(x));
	}
	config = &standard_config;
	standard_config.scale = 4; /* the contract broken: the folded scale shows */
	CHECK(c && c(10) == 30 && clamp(10) == 40, "standard changed in place: %d %d",
	      c ? c(10) : 0, clamp(10));
	standard_config.scale = 3;
	respec_jit_destroy(jit);
	if (failures)
		return 1;
	printf("jit external facts: ok\n");
	return 0;
}
