// Stable memory vouched for in the spec (RESPEC_STABLE_TABLE_AS, RESPEC_STABLE_AS)
// folds at build time, and is checked on every call: when the program points
// the function at other memory, the specialized function runs the generic code
// if the contents differ (and the folded code if they are the same). The
// generic build checks the vouched contents once at startup.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %respec specialize %s --emit-llvm -o - -q | %FileCheck --check-prefix=IR %s
// RUN: %respec explain %s --color=never 2>&1 | %FileCheck --check-prefix=EXPLAIN %s
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %FileCheck --check-prefix=OUT %s < %t/specialized.out
// The generic build, started with other memory than vouched for:
// RUN: %clang -O2 -I%inc -DMAIN -DBAD_START %s %t/generic.o -o %t/bad-start
// RUN: %not --crash %t/bad-start 2>&1 | %FileCheck --check-prefix=START %s
// RUN: %clang -O2 -I%inc -DRESPEC_NO_CHECKS -c %s -o %t/unchecked.o
// RUN: %clang -O2 -I%inc -DMAIN -DBAD_START -DRESPEC_NO_CHECKS %s %t/unchecked.o -o %t/bad-start-unchecked
// RUN: %t/bad-start-unchecked
#include <respec/respec.h>

struct config {
	int limit;
	int scale;
};

/* The program's (not given to respec). */
const int **weights_loc(void);
const struct config *current_config(void);

static const int vouched_weights[4] = {10, 20, 30, 40};
// START: external-facts-guard.c:[[@LINE+1]]: respec fact violated: RESPEC_STABLE_TABLE_AS(weights_loc): the memory does not hold the contents vouched for
RESPEC_STABLE_TABLE_AS(weights_loc, 0, vouched_weights);
static const struct config vouched_config = {100, 3};
RESPEC_STABLE_AS(current_config, vouched_config);

/* A stable function that returns the address of a global. */
extern const int shared_weights[4];
const int *weights_now(void);
RESPEC_STABLE_AS(weights_now, vouched_weights);

int total(int i);
int clamp(int x);
int is_shared(void);

#ifdef MAIN
#include <stdio.h>
static const int A[4] = {10, 20, 30, 40}, B[4] = {1, 2, 3, 4};
static const int C[4] = {10, 20, 30, 40}; /* A's contents, elsewhere */
#ifdef BAD_START
static const int *weights = B;
#else
static const int *weights = A;
#endif
const int **weights_loc(void) { return &weights; }
static const struct config standard = {100, 3}, other = {10, 5};
static const struct config *config = &standard;
const struct config *current_config(void) { return config; }
const int shared_weights[4] = {10, 20, 30, 40};
const int *weights_now(void) { return shared_weights; }

static void show(const char *name, const int *table, const struct config *c)
{
	weights = table;
	config = c;
	printf("%s: %d %d %d %d %d\n", name, total(5), total(-2), clamp(7), clamp(500), clamp(-9));
}

int main(void)
{
	// OUT: A: 203020 303020 21 100 -27
	show("A", A, &standard);
	// OUT-NEXT: B: 20302 30302 21 100 -27
	show("B", B, &standard);
	// OUT-NEXT: C: 203020 303020 21 100 -27
	show("C", C, &standard);
	// OUT-NEXT: B: 20302 30302 21 100 -27
	show("B", B, &standard);
	// OUT-NEXT: A: 203020 303020 21 100 -27
	show("A", A, &standard);
	// OUT-NEXT: A, other config: 203020 303020 10 10 -45
	show("A, other config", A, &other);
	// OUT-NEXT: A: 203020 303020 21 100 -27
	show("A", A, &standard);
	// OUT-NEXT: is_shared 1
	printf("is_shared %d\n", is_shared());
	return 0;
}
#else

static int weight(int i)
{
	return (*weights_loc())[i & 3];
}

// The table's static entries fold; the dynamic one is read through the
// pointer the guard fetched and checked on entry.
// IR-LABEL: define {{.*}} @total(
// IR-NEXT: entry:
// IR-NEXT: %weights_loc = tail call ptr @weights_loc()
// IR-NEXT: icmp eq ptr %weights_loc, null
// IR: %weights_loc.table = load ptr, ptr %weights_loc
// IR-DAG: call i32 @bcmp({{.*}}%weights_loc.table, {{.*}}@vouched_weights, i64 16)
// IR-DAG: call {{.*}} @total.respec.generic(i32 noundef %i)
// IR-DAG: getelementptr inbounds i32, ptr %weights_loc.table
// IR-DAG: add nsw i32 %{{[0-9]+}}, 3020
// IR-NOT: call ptr @weights_loc()
// IR-LABEL: define {{.*}} @clamp(
RESPEC_SPECIALIZE int total(int i)
{
	return weight(1) + 100 * weight(2) + 10000 * weight(i);
}

// IR-NEXT: entry:
// IR-NEXT: %current_config = tail call ptr @current_config()
// IR-DAG: call i32 @bcmp({{.*}}%current_config, {{.*}}@vouched_config, i64 8)
// IR-DAG: call {{.*}} @clamp.respec.generic(i32 noundef %x)
// IR-DAG: icmp sgt i32 %x, 33
// IR-DAG: select i1 %{{[0-9]+}}, i32 100, i32
// IR-NOT: call ptr @current_config()
// IR: {{^}}}{{$}}
RESPEC_SPECIALIZE int clamp(int x)
{
	const struct config *c = current_config();
	int y = x * c->scale;
	return y > c->limit ? c->limit : y;
}

// Stable memory may be a global's: the comparison is made at run time.
// IR-LABEL: define {{.*}} @is_shared(
// IR: icmp eq ptr %weights_now, @shared_weights
RESPEC_SPECIALIZE int is_shared(void)
{
	return weights_now() == shared_weights;
}

// EXPLAIN: === total ===
// EXPLAIN: fact: {{.*}}external-facts-guard.c:[[#@LINE-105]]: RESPEC_STABLE_TABLE_AS(weights_loc, 0, vouched_weights): folded at {{.*}}external-facts-guard.c:[[#@LINE-45]]:9; checked on entry (the generic code runs when the memory differs)
// EXPLAIN: === clamp ===
// EXPLAIN: fact: {{.*}}external-facts-guard.c:[[#@LINE-105]]: RESPEC_STABLE_AS(current_config, vouched_config): folded at {{.*}}external-facts-guard.c:[[#@LINE-15]]:{{.*}}; read through the pointer fetched on entry at {{.*}}; checked on entry
// EXPLAIN-NOT: had no effect
#endif
