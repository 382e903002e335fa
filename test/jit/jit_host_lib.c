/*
 * jit_host_lib.c — the generic "library" of jit_host_test.c (see jit_host_lib.h).
 * Everything the specialization needs is private to this file: the operations
 * tables and their functions, the bias, the count of writes.
 */
#include "jit_host_lib.h"

#include <string.h>

static int32_t stream_bias = 1000;
static unsigned stream_write_count;

static int plain_put(struct stream *s, int32_t value)
{
	if (s->op != STREAM_WRITING || (s->room -= 4) < 0)
		return 0;
	value = (int32_t)((uint32_t)value + (uint32_t)stream_bias); /* wraps, defined */
	memcpy(s->next, &value, sizeof value);
	s->next += 4;
	return 1;
}

static int scaled_put(struct stream *s, int32_t value)
{
	return plain_put(s, (int32_t)((uint32_t)value * (uint32_t)s->scale));
}

static int buffer_position(const struct stream *s)
{
	return (int)(s->next - s->base);
}

static struct stream_ops plain_ops = {plain_put, buffer_position};
static struct stream_ops scaled_ops = {scaled_put, buffer_position};

void stream_open(struct stream *s, char *buffer, int size, int scaled)
{
	s->op = STREAM_IDLE;
	s->base = s->next = buffer;
	s->size = s->room = size;
	s->scale = 3;
	stream_set_scaled(s, scaled);
}

void stream_set_scaled(struct stream *s, int scaled)
{
	s->ops = scaled ? &scaled_ops : &plain_ops;
}

void stream_set_bias(int32_t bias)
{
	stream_bias = bias;
}

unsigned stream_writes(void)
{
	return stream_write_count;
}

/* Every write: counted, and the stream writing from its buffer's start. */
static void begin_write(struct stream *s)
{
	stream_write_count++;
	s->op = STREAM_WRITING;
	s->next = s->base;
	s->room = s->size;
}

int stream_write(struct stream *s, const int32_t *values, int n)
{
	begin_write(s);
	for (int i = 0; i < n; i++)
		if (!s->ops->put(s, values[i]))
			return -1;
	return s->ops->position(s);
}

/* A stream handle the way the selected one is passed on (enum
 * stream_handle): a pointer, or a machine word written as an integer (code
 * that tags or hashes handles), or bytes copied into it. */
union stream_word {
	uintptr_t bits;
	struct stream *stream;
	unsigned char bytes[sizeof(struct stream *)];
};

/* The values, plain (whatever the stream's table), one call per value,
 * recursively: after the recursive call returns, the position is read again
 * from the stream. */
static int write_from(const union stream_word *handle, const int32_t *values, int n)
{
	struct stream *s = handle->stream;
	if (n == 0)
		return buffer_position(s);
	if (!plain_put(s, values[0]) || write_from(handle, values + 1, n - 1) < 0)
		return -1;
	return buffer_position(s);
}

static struct stream *selected_stream;
static enum stream_handle selected_handle;
size_t stream_handle_size = sizeof(struct stream *);

void stream_select(struct stream *s, enum stream_handle how)
{
	selected_stream = s;
	selected_handle = how;
}

struct stream *stream_selected(void)
{
	return selected_stream;
}

int stream_write_selected(const int32_t *values, int n)
{
	struct stream *s = selected_stream;
	union stream_word handle;
	switch (selected_handle) {
	case HANDLE_POINTER:
		handle.stream = s;
		break;
	case HANDLE_WORD:
		handle.bits = (uintptr_t)s;
		break;
	case HANDLE_BYTES:
		memcpy(handle.bytes, &selected_stream, stream_handle_size);
		break;
	}
	begin_write(s);
	int first = write_from(&handle, values, n / 2);
	if (first < 0)
		return -1;
	int second = write_from(&handle, values + n / 2, n - n / 2);
	return second < 0 ? -1 : first << 8 | second;
}

/* The arms of a tagged value, in the style of XDR's discriminated unions
 * (xdr_union): a file-static table of (tag, routine), ended by a null
 * routine, searched for the tag that comes with the data. */
struct stream_arm {
	int32_t tag;
	int (*put)(struct stream *s, int32_t value);
};

static int negated_put(struct stream *s, int32_t value)
{
	return plain_put(s, (int32_t)(0u - (uint32_t)value));
}

static struct stream_arm stream_arms[] = {
	{1, plain_put}, {2, scaled_put}, {7, negated_put}, {0, NULL}};

int stream_write_tagged(struct stream *s, const int32_t *tagged, int n)
{
	begin_write(s);
	for (int i = 0; i < n; i++) {
		const struct stream_arm *arm = stream_arms;
		for (; arm->put; arm++)
			if (arm->tag == tagged[2 * i])
				break;
		if (!arm->put || !arm->put(s, tagged[2 * i + 1]))
			return -1;
	}
	return buffer_position(s);
}
