/*
 * costs.c — the cost model's constants are measured on this machine at the
 * first decision and cached per machine (io/costs.c): a first process measures
 * them and writes the cache, a second reads the same figures back, a damaged
 * cache is measured over, RESPEC_IO_COSTS=measure measures despite a cache,
 * without a cache directory the built-in constants are used (not measured in
 * every process) and RESPEC_IO_COSTS=builtin keeps the development machine's
 * constants. Each
 * process is this program run again with "decide": it reads a file through the
 * API, which makes one decision, and RESPEC_IO_STATS=verbose makes it say where
 * its costs came from and what they are.
 */
#include "iotest.h"

#include <dirent.h>
#include <sys/wait.h>

struct costs {
	double syscall, kernel_copy, user_copy, setup, map, populate;
};

static void decide(void)
{
	int fd = respec_io_open("costs.dat", O_RDONLY);
	char block[4096];
	CHECK(fd >= 0, "open costs.dat");
	while (respec_io_read(fd, block, sizeof block) > 0)
		;
	respec_io_close(fd);
}

/* Runs this program with "decide"; returns the source of its costs (the words
 * before " in ") and the figures it printed. */
static void run_child(const char *self, char *source, size_t size, struct costs *c)
{
	pid_t child = fork();
	if (child == 0) {
		int log = open("child.log", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(log, 2);
		execl(self, self, "decide", (char *)NULL);
		_exit(127);
	}
	int status;
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "child failed");
	FILE *log = fopen("child.log", "r");
	char line[512];
	bool found = false;
	while (!found && fgets(line, sizeof line, log)) {
		char *costs = strstr(line, ": costs ");
		char *in = costs ? strstr(costs, " in ") : NULL;
		if (!in)
			continue;
		snprintf(source, size, "%.*s", (int)(in - costs - 8), costs + 8);
		found = sscanf(strchr(in, ':'), ": syscall %lf ns, kernel copy %lf ns/KiB, user copy %lf "
			       "ns/KiB, setup %lf ns, map %lf ns, populate %lf ns/KiB",
			       &c->syscall, &c->kernel_copy, &c->user_copy, &c->setup, &c->map,
			       &c->populate) == 6;
	}
	fclose(log);
	CHECK(found, "no costs line from the child");
}

static bool plausible(const struct costs *c)
{
	return c->syscall >= 10 && c->syscall < 100000 && c->kernel_copy > 0 && c->user_copy > 0 &&
	       c->setup > c->syscall && c->map > 0 && c->populate > 0;
}

/* The cache file the first child wrote (there must be exactly one). */
static void cache_file(char *path, size_t size)
{
	DIR *dir = opendir("cache");
	CHECK(dir != NULL, "no cache directory");
	int files = 0;
	for (struct dirent *e; (e = readdir(dir));)
		if (strncmp(e->d_name, "io-costs-", 9) == 0) {
			files++;
			snprintf(path, size, "cache/%.200s", e->d_name);
		}
	closedir(dir);
	CHECK(files == 1, "%d cache files", files);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "decide") == 0) {
		decide();
		return 0;
	}
	free(make_file("costs.dat", 1 << 20, 0));
	system("rm -rf cache");
	setenv("RESPEC_IO_CACHE_DIR", "cache", 1);
	setenv("RESPEC_IO_STATS", "verbose", 1);
	unsetenv("RESPEC_IO_COSTS");
	char source[64], path[256];
	struct costs first, second, again, builtin;

	run_child(argv[0], source, sizeof source, &first);
	CHECK(strcmp(source, "measured") == 0, "first process: costs %s", source);
	CHECK(plausible(&first), "implausible: syscall %.0f ns", first.syscall);
	cache_file(path, sizeof path);

	run_child(argv[0], source, sizeof source, &second);
	CHECK(strcmp(source, "read from the cache") == 0, "second process: costs %s", source);
	CHECK(memcmp(&first, &second, sizeof first) == 0, "the cache changed the figures");

	FILE *damaged = fopen(path, "w");
	fputs("respec-io-costs 2\nsyscall_ns -5\n", damaged);
	fclose(damaged);
	run_child(argv[0], source, sizeof source, &again);
	CHECK(strcmp(source, "measured") == 0, "damaged cache: costs %s", source);
	CHECK(plausible(&again), "implausible after a damaged cache");

	setenv("RESPEC_IO_COSTS", "measure", 1);
	run_child(argv[0], source, sizeof source, &again);
	CHECK(strcmp(source, "measured") == 0, "RESPEC_IO_COSTS=measure: costs %s", source);

	/* Nowhere to keep measured costs: every process would pay the
	 * measurement, so the built-in constants are used instead. */
	unsetenv("RESPEC_IO_COSTS");
	setenv("RESPEC_IO_CACHE_DIR", "/proc/respec-no-cache-here", 1);
	run_child(argv[0], source, sizeof source, &builtin);
	CHECK(strcmp(source, "built-in (no cache directory to keep measured ones in)") == 0 &&
		      builtin.syscall == 300,
	      "no cache directory: costs %s", source);
	setenv("RESPEC_IO_CACHE_DIR", "cache", 1);

	setenv("RESPEC_IO_COSTS", "builtin", 1);
	run_child(argv[0], source, sizeof source, &builtin);
	CHECK(strcmp(source, "built-in") == 0 && builtin.syscall == 300 && builtin.setup == 6000,
	      "RESPEC_IO_COSTS=builtin: costs %s, syscall %.0f ns", source, builtin.syscall);
	printf("costs measured: syscall %.0f ns, kernel copy %.1f ns/KiB, user copy %.1f ns/KiB, "
	       "setup %.0f ns, map %.0f ns, populate %.1f ns/KiB\n",
	       first.syscall, first.kernel_copy, first.user_copy, first.setup, first.map,
	       first.populate);
	return 0;
}
