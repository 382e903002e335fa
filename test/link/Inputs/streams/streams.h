/* streams: a small library that dispatches through tables of functions, as
 * stdio, XDR and Sun RPC's transports do: two kinds of stream, each with its
 * operations table, made by their own constructors. */
#ifndef STREAMS_H
#define STREAMS_H

struct stream;

struct stream_ops {
	int (*put)(struct stream *s, int value);
	long (*total)(const struct stream *s);
};

struct stream {
	const struct stream_ops *ops;
	long state;
};

/* A stream that sums what is put; one that counts it. */
void stream_sum_open(struct stream *s);
void stream_count_open(struct stream *s);
/* A stream that sums three times what is put, its table filled on opening. */
void stream_late_open(struct stream *s);
/* Puts value (through the table); returns 0 or -1. */
int stream_put(struct stream *s, int value);
long stream_total(const struct stream *s);
/* Makes a table's put the given function (fills a table at run time). */
void stream_ops_set_put(struct stream_ops *ops, int (*put)(struct stream *, int));

#endif
