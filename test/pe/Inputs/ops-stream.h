struct stream;
struct stream_ops {
  int (*put)(struct stream *, int);
};
struct stream {
  const struct stream_ops *ops;
  int *buffer;
  int size, used;
};
void stream_memory(struct stream *s, int *buffer, int size);
void stream_counting(struct stream *s);
int put_pair(struct stream *s, int a, int b);
