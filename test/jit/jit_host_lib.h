/*
 * jit_host_lib.h — a small "library" in the style of the system code run-time
 * specialization meets: a stream whose operations go through a file-static
 * table of file-static functions, whose mode and buffer rarely change while its
 * position changes on every call, and which reads file-static configuration.
 * jit_host_test.c specializes its callers on one stream's state.
 */
#ifndef RESPEC_TEST_JIT_HOST_LIB_H
#define RESPEC_TEST_JIT_HOST_LIB_H

#include <stddef.h>
#include <stdint.h>

struct stream;
struct stream_ops {
	int (*put)(struct stream *s, int32_t value);
	int (*position)(const struct stream *s);
};

enum stream_op { STREAM_IDLE, STREAM_WRITING };

struct stream {
	enum stream_op op;      /* set by each write, checked by each value's put */
	struct stream_ops *ops; /* a table of the library's, file-static */
	int scale;              /* put multiplies by it */
	char *base;             /* the buffer */
	int size;
	char *next;             /* where the next value goes */
	int room;               /* bytes left after next */
};

void stream_open(struct stream *s, char *buffer, int size, int scaled);
/* Writes the n values from the buffer's start; the position, or -1 when they
 * do not fit (the values that fit are written). */
int stream_write(struct stream *s, const int32_t *values, int n);
/* The same on the stream last selected (a file-static pointer), in two
 * halves, each written by a recursive function, plain: the position after the
 * first half times 256 plus the final one, or -1. The recursive calls get the
 * stream as the selection says. */
enum stream_handle { HANDLE_POINTER, HANDLE_WORD, HANDLE_BYTES };
void stream_select(struct stream *s, enum stream_handle how);
struct stream *stream_selected(void);
int stream_write_selected(const int32_t *values, int n);
extern size_t stream_handle_size; /* the bytes HANDLE_BYTES copies */
/* Writes n tagged values, each a (tag, value) pair of tagged: the value
 * plain (tag 1), scaled (2) or negated (7); the position, or -1 on another
 * tag or when they do not fit. */
int stream_write_tagged(struct stream *s, const int32_t *tagged, int n);
/* Changes what the stream does: quasi-invariants of a specialization. */
void stream_set_scaled(struct stream *s, int scaled);
void stream_set_bias(int32_t bias);
unsigned stream_writes(void);

/* jit_host_other.c: another file with a file-static of the same name. */
int32_t other_bias(void);

#endif
