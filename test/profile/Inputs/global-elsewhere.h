/* test/profile/global-elsewhere.c: a stream and its operations table. */
struct stream;
struct ops {
	int (*put)(struct stream *, int);
};
struct stream {
	int op;
	const struct ops *ops;
	int written;
};
int encode(struct stream *s, int v);
