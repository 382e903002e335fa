/*
 * corpus.c — writes the corpus the coreutils test runs unmodified programs on:
 * deterministic text (lines of words from a fixed vocabulary, some containing
 * the pattern "respec") and binary files, from empty to 24 MiB, plus a
 * directory of many small files. Usage: respec-io-test-corpus DIR.
 */
#include "iotest.h"

static const char *const words[] = {
	"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
	"india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa",
	"quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "xray",
	"yankee", "zulu", "respec", "lease", "window", "mapping",
};

/* Written in one go, in writes of up to 2 MiB, as a copy of a large file
 * would be: the page cache then holds it in large folios, which a mapping
 * can map cheaply (the library measures that and may decline otherwise). */
static void text_file(const char *dir, const char *name, uint64_t size, uint64_t seed)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *text = malloc(size + 1);
	CHECK(text != NULL, "out of memory");
	uint64_t rng = seed, written = 0;
	for (;;) {
		const char *w = words[test_rand(&rng) % (sizeof words / sizeof words[0])];
		bool end_line = test_rand(&rng) % 9 == 0;
		uint64_t len = strlen(w) + 1;
		if (written + len > size)
			break;
		memcpy(text + written, w, len - 1);
		text[written + len - 1] = end_line ? '\n' : ' ';
		written += len;
	}
	memset(text + written, '\n', size - written);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0, "create %s", path);
	for (uint64_t done = 0; done < size;) {
		uint64_t part = size - done < (2u << 20) ? size - done : (2u << 20);
		ssize_t n = write(fd, text + done, part);
		CHECK(n > 0, "write %s", path);
		done += (uint64_t)n;
	}
	close(fd);
	free(text);
}

int main(int argc, char **argv)
{
	CHECK(argc == 2, "usage: %s DIR", argv[0]);
	const char *dir = argv[1];
	static const struct {
		const char *name;
		uint64_t size;
	} texts[] = {
		{"empty.txt", 0}, {"one.txt", 1}, {"small.txt", 100}, {"page.txt", 4096},
		{"medium.txt", 65539}, {"large.txt", 300000}, {"mega.txt", 1 << 20},
		{"five.txt", 5 << 20}, {"big.txt", 24 << 20},
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
		text_file(dir, texts[i].name, texts[i].size, i + 1);
	char path[512];
	snprintf(path, sizeof path, "%s/binary.bin", dir);
	free(make_file(path, 3 << 20, 77));
	snprintf(path, sizeof path, "%s/many", dir);
	mkdir(path, 0755);
	for (int i = 0; i < 200; i++) {
		char name[64];
		snprintf(name, sizeof name, "many/f%03d.txt", i);
		text_file(dir, name, 100 + (uint64_t)i * 97, 1000 + (uint64_t)i);
	}
	return 0;
}
