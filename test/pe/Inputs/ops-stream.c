// A stream whose operations are a table of function pointers, file-static as
// Sun RPC's xdrmem_ops is: a spec cannot name the table but by respec_variable().
#include "ops-stream.h"

static int memory_put(struct stream *s, int value) {
  if (s->used == s->size)
    return 0;
  s->buffer[s->used++] = value;
  return 1;
}

static int counting_put(struct stream *s, int value) {
  (void)value;
  s->used++;
  return 1;
}

static const struct stream_ops memory_ops = {memory_put};
static const struct stream_ops counting_ops = {counting_put};

void stream_memory(struct stream *s, int *buffer, int size) {
  s->ops = &memory_ops;
  s->buffer = buffer;
  s->size = size;
  s->used = 0;
}

void stream_counting(struct stream *s) {
  s->ops = &counting_ops;
  s->used = 0;
}

int put_pair(struct stream *s, int a, int b) {
  return s->ops->put(s, a) && s->ops->put(s, b);
}
