/* A client of streams. Built with -DCOUNT it also opens a counting stream;
 * with -DOWN_TABLE it makes a stream of its own table (filled with
 * stream_ops_set_put), which the library's dispatch must still reach; with
 * -DLATE it opens a stream whose table the library fills at run time. */
#include "streams.h"
#include <stdio.h>

#ifdef OWN_TABLE
static int twice_put(struct stream *s, int value)
{
	s->state += 2 * value;
	return 0;
}

static long own_total(const struct stream *s)
{
	return s->state;
}
#endif

int main(void)
{
	struct stream sum;
	stream_sum_open(&sum);
	for (int i = 1; i <= 1000; i++)
		stream_put(&sum, i);
	printf("sum %ld\n", stream_total(&sum));
#ifdef COUNT
	struct stream count;
	stream_count_open(&count);
	for (int i = 1; i <= 1000; i++)
		stream_put(&count, i);
	printf("count %ld\n", stream_total(&count));
#endif
#ifdef LATE
	struct stream late;
	stream_late_open(&late);
	for (int i = 1; i <= 1000; i++)
		stream_put(&late, i);
	printf("late %ld\n", stream_total(&late));
#endif
#ifdef OWN_TABLE
	static struct stream_ops own = {0, own_total};
	stream_ops_set_put(&own, twice_put);
	struct stream twice = {&own, 0};
	for (int i = 1; i <= 1000; i++)
		stream_put(&twice, i);
	printf("twice %ld\n", stream_total(&twice));
#endif
	return 0;
}
