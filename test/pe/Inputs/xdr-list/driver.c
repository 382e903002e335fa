/* Encodes random lists into buffers of every size around the message's, and
 * decodes random and encoded messages; prints the results, the bytes and the
 * decoded values, so that two builds can be diffed. */
#include "intlist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int encode_list(char *buf, unsigned len, intlist *l);
int decode_list(const char *buf, unsigned len, intlist *l);

static unsigned long state = 12345;
static unsigned next_random(void)
{
	state = state * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(state >> 33);
}

static void print_list(const intlist *l)
{
	for (; l; l = l->next)
		printf(" %d", l->value);
	printf("\n");
}

static void free_list(intlist *l)
{
	for (intlist *next; l; l = next) {
		next = l->next;
		free(l);
	}
}

int main(void)
{
	intlist nodes[12];
	char buf[128];
	for (int round = 0; round < 3000; round++) {
		int n = 1 + next_random() % 12; /* 8 bytes per node: a value, a flag */
		for (int i = 0; i < n; i++) {
			nodes[i].value = (int)next_random();
			nodes[i].next = i + 1 < n ? &nodes[i + 1] : NULL;
		}
		unsigned len = round % 4 ? next_random() % (unsigned)(8 * n + 8) : sizeof buf;
		memset(buf, 0xa5, sizeof buf);
		int r = encode_list(buf, len, nodes);
		printf("encode %u -> %d:", len, r);
		for (unsigned i = 0; i < 8 * (unsigned)n + 4 && i < sizeof buf; i++)
			printf("%02x", (unsigned char)buf[i]);
		printf("\n");
		if (round % 2) /* a random message, with flags 0 and 1 in places */
			for (unsigned i = 0; i < len; i++)
				buf[i] = next_random() % 3 ? 0 : (char)(next_random() % 2);
		intlist decoded;
		memset(&decoded, 0, sizeof decoded);
		r = decode_list(buf, len, &decoded);
		printf("decode %u -> %d:", len, r);
		print_list(&decoded);
		free_list(decoded.next);
	}
	return 0;
}
