/*
 * jit_host_test.c — run-time specialization on the program's own memory
 * (pe/HostMemory.cpp): a stream of the library in jit_host_lib.c is specialized
 * on its current state, reached only through the stream's address — its
 * operations table (file-static, as are the functions in it), its scale and
 * buffer, and the library's file-static bias named with
 * respec_static_variable(). Checked: the specialized writes produce what the
 * generic ones produce, byte for byte in the buffer and in the stream's
 * position and room, when everything fits and when it does not; the library's
 * file-static write count is shared; a state the code was not specialized on
 * is never served from the cache, while the code made for the old state still
 * computes with the old state (it was folded, not re-read); the old state again
 * finds the old code; a variable name that two files use, or none, is refused;
 * a recursive call kept residual that moves the stream's position (a cell the
 * caller stored at an address it only knows as a number) makes the caller read
 * the position again; a private variable of the generic code is bound to the
 * program's copy.
 *
 * Built twice: with the library's own objects, found through the program's
 * symbol table, and (JIT_HOST_WITH_CODE) with the library compiled by `respec
 * embed --replaces-sources`, whose address table binds it exactly — that
 * program is stripped, so no symbol table could.
 */
#include "jit_host_lib.h"

#include <respec/jit.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dump.h"

#ifdef JIT_HOST_WITH_CODE
RESPEC_DECLARE_EMBEDDED_CODE(jit_host_code);
#else
RESPEC_DECLARE_BITCODE(jit_host_test);
#endif

typedef int (*write_fn)(struct stream *, const int32_t *, int);

enum { VALUES = 8, BUFFER = 64 };

struct outcome {
	int result;
	long position;
	int room;
	char buffer[BUFFER];
};

static struct outcome run(write_fn write, struct stream *s, const int32_t *values, int n)
{
	struct outcome o;
	memset(s->base, 0x5a, (size_t)s->size);
	o.result = write(s, values, n);
	o.position = (long)(s->next - s->base);
	o.room = s->room;
	memset(o.buffer, 0, sizeof o.buffer);
	memcpy(o.buffer, s->base, (size_t)s->size);
	return o;
}

static int same(const struct outcome *a, const struct outcome *b)
{
	return a->result == b->result && a->position == b->position && a->room == b->room &&
	       memcmp(a->buffer, b->buffer, sizeof a->buffer) == 0;
}

/* The specialized write against the generic one on random values. */
static void compare(write_fn generic, write_fn specialized, struct stream *s, int n,
		    unsigned seed, const char *what)
{
	int32_t values[32];
	srand(seed);
	for (int round = 0; round < 2000; round++) {
		for (int i = 0; i < n; i++)
			values[i] = rand() - RAND_MAX / 2;
		struct outcome expected = run(generic, s, values, n);
		unsigned writes = stream_writes();
		struct outcome got = run(specialized, s, values, n);
		CHECK(stream_writes() == writes + 1, "%s: the library's write count is shared", what);
		if (!same(&expected, &got)) {
			CHECK(0, "%s, round %d: specialized result %d position %ld room %d, generic "
				 "%d %ld %d (or the buffers differ)",
			      what, round, got.result, got.position, got.room, expected.result,
			      expected.position, expected.room);
			return;
		}
	}
}

static write_fn specialize_for(respec_jit *jit, struct stream *s, int n)
{
	struct respec_arg args[] = {RESPEC_STATIC_VALUE(s), RESPEC_DYNAMIC,
				    n < 0 ? RESPEC_DYNAMIC : RESPEC_STATIC_VALUE(n)};
	write_fn f = (write_fn)respec_jit_specialize(jit, "write_known", args, 3);
	CHECK(f, "specialize write_known: %s", respec_jit_error(jit));
	return f;
}

static void test_state_changes(respec_jit *jit)
{
	char buffer[BUFFER];
	struct stream s;
	stream_open(&s, buffer, sizeof buffer, 0);
	write_fn plain = specialize_for(jit, &s, VALUES);
	if (!plain)
		return;
	compare(stream_write, plain, &s, VALUES, 1, "plain stream");
	CHECK(specialize_for(jit, &s, VALUES) == plain, "same state: the cached code");

	/* The stream changes operations table: new code. */
	stream_set_scaled(&s, 1);
	write_fn scaled = specialize_for(jit, &s, VALUES);
	CHECK(scaled && scaled != plain, "a new operations table: new code");
	if (scaled)
		compare(stream_write, scaled, &s, VALUES, 2, "scaled stream");
	/* The old code folded the old table in: it still writes plain values. */
	int32_t values[VALUES] = {1, -2, 3, -4, 5, -6, 7, -8};
	struct outcome old = run(plain, &s, values, VALUES);
	stream_set_scaled(&s, 0);
	struct outcome generic_plain = run(stream_write, &s, values, VALUES);
	CHECK(same(&old, &generic_plain), "code for the old state computes with the old state");

	/* The library's file-static bias changes: new code again. */
	stream_set_bias(-7);
	write_fn biased = specialize_for(jit, &s, VALUES);
	CHECK(biased && biased != plain && biased != scaled, "a new bias: new code");
	if (biased)
		compare(stream_write, biased, &s, VALUES, 3, "plain stream, bias -7");
	stream_set_bias(1000);
	CHECK(specialize_for(jit, &s, VALUES) == plain, "the first state again: its code");
	CHECK(other_bias() == 99, "the other file's stream_bias is not the one named");
}

/* A buffer too small: the library's overflow check decides, as in the generic code. */
static void test_overflow(respec_jit *jit)
{
	char buffer[20];
	struct stream s;
	stream_open(&s, buffer, sizeof buffer, 1);
	write_fn f = specialize_for(jit, &s, VALUES);
	if (f)
		compare(stream_write, f, &s, VALUES, 4, "5 of 8 values fit");
}

/* The count known only per call: a loop the specialized code keeps. */
static void test_dynamic_count(respec_jit *jit)
{
	char buffer[40];
	struct stream s;
	stream_open(&s, buffer, sizeof buffer, 0);
	write_fn f = specialize_for(jit, &s, -1);
	for (int n = 0; f && n <= 14; n++)
		compare(stream_write, f, &s, n, 5 + (unsigned)n, "dynamic count");
}

struct dumped_text {
	const char *text;
	int lines; /* that contain it */
};

static void count_text(const char *name, const char *line, void *context)
{
	(void)name;
	struct dumped_text *t = context;
	t->lines += strstr(line, t->text) != NULL;
}

/* A stream whose buffer follows it in one allocation, as an RPC client
 * handle's XDR stream and its buffer: the cursor moves forward from the
 * buffer's start, so its writes cannot reach the stream's fields before the
 * buffer (pe/HostMemory.cpp, "Cursors"). The operation each write stores in
 * the stream stays known while the loop writes values: the specialized code
 * never reads it back. */
static void test_cursor_floor(respec_jit *jit)
{
	struct {
		struct stream s;
		char buffer[40];
	} framed;
	stream_open(&framed.s, framed.buffer, sizeof framed.buffer, 0);
	char directory[] = "/tmp/respec-jit-host-dump.XXXXXX";
	CHECK(mkdtemp(directory), "mkdtemp");
	setenv("RESPEC_JIT_DUMP", directory, 1);
	write_fn f = specialize_for(jit, &framed.s, -1);
	unsetenv("RESPEC_JIT_DUMP");
	for (int n = 0; f && n <= 14; n++)
		compare(stream_write, f, &framed.s, n, 60 + (unsigned)n, "stream and buffer in one block");
	char load_of_op[96];
	snprintf(load_of_op, sizeof load_of_op, "load i32, ptr inttoptr (i64 %ju to ptr)",
		 (uintmax_t)(uintptr_t)&framed.s.op);
	struct dumped_text op_loads = {load_of_op, 0};
	read_dump(directory, count_text, &op_loads);
	int loads = op_loads.lines;
	CHECK(f && loads == 0, "the stream's operation is read back %d times (%s)", loads, load_of_op);
}

/* A search of the library's table of arms for a tag read at run time: the
 * specialized code tests the tag against each arm and calls that arm's code
 * directly (pe/Generalization.cpp, walksOn: the walk over the table is bounded
 * by the table), with the same results as the generic search on every tag. */
static void test_tagged(respec_jit *jit)
{
	char buffer[40];
	struct stream s;
	stream_open(&s, buffer, sizeof buffer, 0);
	enum { PAIRS = 4 };
	struct respec_arg args[] = {RESPEC_STATIC_VALUE(&s), RESPEC_DYNAMIC, RESPEC_STATIC_VALUE(PAIRS)};
	write_fn f = (write_fn)respec_jit_specialize(jit, "write_tagged", args, 3);
	CHECK(f, "specialize write_tagged: %s", respec_jit_error(jit));
	if (!f)
		return;
	struct respec_jit_stats stats;
	respec_jit_get_stats(jit, &stats);
	CHECK(stats.last_loops_kept == 0,
	      "the search of the table of arms is unrolled: %u loops kept", stats.last_loops_kept);
	/* The arms' routines, called directly: three arms for each of the four values. */
	CHECK(stats.last_calls_devirtualized >= 3 * PAIRS,
	      "each arm's routine is called directly: %u calls devirtualized",
	      stats.last_calls_devirtualized);
	static const int32_t tags[] = {1, 2, 7, 0, 3, -1};
	int32_t tagged[2 * PAIRS];
	srand(40);
	for (int round = 0; round < 4000; round++) {
		for (int i = 0; i < PAIRS; i++) {
			/* Mostly known tags, so that most rounds get through all four. */
			tagged[2 * i] = tags[rand() % 16 < 15 ? rand() % 3 : 3 + rand() % 3];
			tagged[2 * i + 1] = rand() - RAND_MAX / 2;
		}
		struct outcome expected = run(stream_write_tagged, &s, tagged, PAIRS);
		struct outcome got = run(f, &s, tagged, PAIRS);
		if (!same(&expected, &got)) {
			CHECK(0, "tagged values, round %d: specialized %d, generic %d (or the buffers differ)",
			      round, got.result, expected.result);
			return;
		}
	}
}

/* The generic write_selected. */
static int write_selected_generic(struct stream *s, const int32_t *values, int n)
{
	(void)s;
	return stream_write_selected(values, n);
}

/* Recursive calls kept residual write the stream's position behind the
 * caller's back (pe/CallEffects.cpp: an address made from a number is memory the
 * caller does not track precisely). */
static void test_recursive_calls(respec_jit *jit, enum stream_handle how)
{
	static const char *const names[] = {"pointer", "word", "bytes"};
	char buffer[40];
	struct stream s;
	stream_open(&s, buffer, sizeof buffer, 0);
	stream_select(&s, how);
	struct respec_arg args[] = {RESPEC_DYNAMIC, RESPEC_DYNAMIC, RESPEC_DYNAMIC};
	write_fn f = (write_fn)respec_jit_specialize(jit, "write_selected", args, 3);
	CHECK(f, "specialize write_selected: %s", respec_jit_error(jit));
	char what[64];
	snprintf(what, sizeof what, "recursive calls given a %s", names[how]);
	for (int n = 0; f && n <= 14; n++)
		compare(write_selected_generic, f, &s, n, 20 + (unsigned)n, what);
}

static void test_errors(respec_jit *jit)
{
	char buffer[BUFFER];
	struct stream s;
	stream_open(&s, buffer, sizeof buffer, 0);
	struct respec_arg args[] = {RESPEC_STATIC_VALUE(&s), RESPEC_DYNAMIC, RESPEC_DYNAMIC};
	CHECK(!respec_jit_specialize(jit, "write_ambiguous", args, 3) &&
		      strstr(respec_jit_error(jit), "2 variables have that name") &&
		      strstr(respec_jit_error(jit), "file.c:stream_bias"),
	      "an ambiguous name: %s", respec_jit_error(jit));
	CHECK(!respec_jit_specialize(jit, "write_unknown", args, 3) &&
		      strstr(respec_jit_error(jit), "no such variable"),
	      "an unknown name: %s", respec_jit_error(jit));
}

/* The stream dynamic, its operations table stated by the name of the
 * library's file-static plain_ops: the code serves every plain stream, of any
 * buffer, count and contents. */
static void test_named_table(respec_jit *jit)
{
	struct respec_arg args[] = {RESPEC_DYNAMIC, RESPEC_DYNAMIC, RESPEC_DYNAMIC};
	write_fn f = (write_fn)respec_jit_specialize(jit, "write_plain", args, 3);
	CHECK(f, "specialize write_plain: %s", respec_jit_error(jit));
	for (int size = 0; f && size <= 40; size += 4) {
		char buffer[40];
		struct stream s;
		stream_open(&s, buffer, size, 0);
		for (int n = 0; n <= 12; n++)
			compare(stream_write, f, &s, n, 100 + (unsigned)(size * 13 + n), "named table");
	}
}

int pick_initialized(unsigned i);

/* A private variable of the generic code that is not constant (clang's copy of
 * a local array's constant initializer) is bound to the program's copy by the
 * embedded code's address table: until session 28 the table left private
 * symbols out and the specializer refused the function. Without the table
 * nothing can bind it (it has no symbol): the other build refuses it, saying
 * what would. */
static void test_private_initializer(respec_jit *jit)
{
	struct respec_arg args[] = {RESPEC_DYNAMIC};
	int (*f)(unsigned) = (int (*)(unsigned))respec_jit_specialize(jit, "pick_initialized",
								      args, 1);
#ifdef JIT_HOST_WITH_CODE
	CHECK(f, "specialize pick_initialized: %s", respec_jit_error(jit));
	for (unsigned i = 0; f && i < 12; i++)
		CHECK(f(i) == pick_initialized(i), "pick_initialized(%u): %d, generic %d", i, f(i),
		      pick_initialized(i));
#else
	CHECK(!f && strstr(respec_jit_error(jit), "--replaces-sources"),
	      "pick_initialized without an address table: %s", f ? "specialized" : respec_jit_error(jit));
#endif
}

static respec_jit *create(void)
{
#ifdef JIT_HOST_WITH_CODE
	return RESPEC_JIT_CREATE_WITH_CODE(jit_host_code);
#else
	return respec_jit_create(respec_bitcode_jit_host_test, respec_bitcode_jit_host_test_size);
#endif
}

/* Everything twice: with the light clean-up and with the full -O2 pipeline
 * (respec_jit_set_cleanup), each on a specializer of its own (no cached code). */
int main(void)
{
	static const enum respec_jit_cleanup cleanups[] = {RESPEC_JIT_CLEANUP_LIGHT,
							   RESPEC_JIT_CLEANUP_FULL};
	for (unsigned c = 0; c < sizeof cleanups / sizeof cleanups[0]; c++) {
		respec_jit *jit = create();
		CHECK(jit, "respec_jit_create");
		if (!jit)
			return 1;
		respec_jit_set_cleanup(jit, cleanups[c]);
		test_state_changes(jit);
		test_overflow(jit);
		test_dynamic_count(jit);
		test_cursor_floor(jit);
		test_tagged(jit);
		test_named_table(jit);
		test_recursive_calls(jit, HANDLE_POINTER);
		test_recursive_calls(jit, HANDLE_WORD);
		test_recursive_calls(jit, HANDLE_BYTES);
		test_errors(jit);
		test_private_initializer(jit);
		respec_jit_destroy(jit);
	}
	printf("%s\n", failures ? "FAILED" : "all host-memory specialization tests passed");
	return failures != 0;
}
