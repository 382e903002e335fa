/*
 * jit_host_spec.c — the run-time spec of jit_host_test.c: a stream's writes,
 * specialized on the stream itself. The stream is a static value (its address);
 * what the specialization may take as fixed is declared: its operations table
 * and the table's contents, its scale, buffer and size, and the library's bias.
 * The position and room change on every write and stay undeclared: the
 * specialized code tracks what it stores there itself.
 */
#include "jit_host_lib.h"

#include <respec/respec.h>

/* What a specialization on the stream s takes as fixed. */
#define declare_fixed(s)                                                                  \
	do {                                                                               \
		respec_static_memory(&(s)->ops, sizeof (s)->ops);                          \
		respec_static_memory((s)->ops, sizeof *(s)->ops);                          \
		respec_static_memory(&(s)->scale, sizeof (s)->scale);                      \
		respec_static_memory(&(s)->base, sizeof (s)->base + sizeof (s)->size);     \
		respec_static_variable("jit_host_lib.c:stream_bias");                      \
	} while (0)

RESPEC_SPECIALIZE int write_known(struct stream *s, const int32_t *values, int n)
{
	declare_fixed(s);
	return stream_write(s, values, n);
}

/* The tag of each value is run-time data, the table of arms is the library's
 * (file-static, declared): the search is unrolled into one test per arm, and
 * each arm's routine is called directly and specialized. */
RESPEC_SPECIALIZE int write_tagged(struct stream *s, const int32_t *tagged, int n)
{
	declare_fixed(s);
	respec_static_variable("jit_host_lib.c:stream_arms");
	return stream_write_tagged(s, tagged, n);
}

/* The recursive write on the selected stream, whose address the specialized
 * code reads from the library's file-static pointer (the first argument is
 * unused): a number, for the specializer, not an object it was given. With the
 * count dynamic, the recursive calls go to one function specialized for the
 * stream, kept residual. They move the stream's position, which the caller
 * stored itself (an undeclared cell of the program's memory): the caller must
 * read it again after each call, however the stream was handed to them. */
RESPEC_SPECIALIZE int write_selected(struct stream *unused, const int32_t *values, int n)
{
	(void)unused;
	respec_static_variable("jit_host_lib.c:selected_stream");
	respec_static_variable("jit_host_lib.c:selected_handle");
	respec_static_variable("stream_handle_size");
	struct stream *s = stream_selected();
	declare_fixed(s);
	return stream_write_selected(values, n);
}

/* A stream of the library's plain kind, its table named (respec_variable) and
 * its contents declared: the stream itself is run-time data, the calls through
 * its table become plain_put's code. */
RESPEC_SPECIALIZE int write_plain(struct stream *s, const int32_t *values, int n)
{
	respec_assume(s->ops == respec_variable("jit_host_lib.c:plain_ops"));
	respec_static_variable("jit_host_lib.c:plain_ops");
	return stream_write(s, values, n);
}

/* The name alone is ambiguous: two files have a file-static `stream_bias`. */
RESPEC_SPECIALIZE int write_ambiguous(struct stream *s, const int32_t *values, int n)
{
	respec_static_variable("stream_bias");
	return stream_write(s, values, n);
}

RESPEC_SPECIALIZE int write_unknown(struct stream *s, const int32_t *values, int n)
{
	respec_static_variable("jit_host_lib.c:no_such_variable");
	return stream_write(s, values, n);
}

int pick_first = 1, pick_second = 2;

/* A local array whose initializer mixes constants with a local's address: clang
 * copies the constant part from a private variable it does not mark constant
 * (`constinit`), which only the program's copy of the code may be read from. */
RESPEC_SPECIALIZE int pick_initialized(unsigned i)
{
	int local = 7;
	int *table[2][3] = {{0, 0, &pick_first}, {&pick_second, &pick_first, &local}};
	int *chosen = table[i % 2][i % 3];
	return (chosen ? *chosen : -1) + 10 * (table[0][i % 3] != 0);
}
