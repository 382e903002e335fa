/* A stream with an operation and an ops table over a memory buffer, as XDR
 * has: the shape of the write-summary and call-effects tests. */
#ifndef MEM_STREAM_H
#define MEM_STREAM_H
#include <stddef.h>

enum op { ENCODE, DECODE };
struct stream;
struct ops { int (*put)(struct stream *, int); int (*get)(struct stream *, int *); };
struct stream { enum op op; const struct ops *ops; int *cursor; int left; int *count; };
struct node { int value; struct node *next; };

#ifdef MAIN
#include <stdio.h>
#include <string.h>
/* Runs the test's calls (which store up to 8 results) on lists of 0 to 8
 * nodes and streams of 0 to 12 ints, and prints a digest of the buffer and
 * the results. */
static int run_lists(int (*calls)(int *buf, int n, const struct node *list, int *results)) {
  struct node nodes[8];
  int buf[16], results[8];
  unsigned long digest = 0;
  for (int len = 0; len <= 8; len++) {
    for (int i = 0; i < len; i++) {
      nodes[i].value = i * 7 - 3;
      nodes[i].next = i + 1 < len ? &nodes[i + 1] : NULL;
    }
    for (int n = 0; n <= 12; n++) {
      memset(buf, 0, sizeof buf);
      int count = calls(buf, n, len ? nodes : NULL, results);
      for (int i = 0; i < 16; i++)
        digest = digest * 31 + (unsigned)buf[i];
      for (int i = 0; i < count; i++)
        digest = digest * 31 + (unsigned)results[i];
    }
  }
  printf("digest %lx\n", digest);
  return 0;
}
#else
static int mem_put(struct stream *s, int v) {
  if (s->left < 1)
    return 0;
  *s->cursor++ = v;
  s->left--;
  return 1;
}
static int mem_get(struct stream *s, int *v) {
  if (s->left < 1)
    return 0;
  *v = *s->cursor++;
  s->left--;
  return 1;
}
static const struct ops mem_ops = {mem_put, mem_get};
#endif
#endif
