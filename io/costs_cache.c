/*
 * costs_cache.c — where librespec-io keeps the cost constants it measured on a
 * machine, and reading and writing them (costs.c measures them; respec
 * profile's files observer reads them, so that its report weighs a file's
 * reads as librespec-io would on the machine the program ran on).
 *
 * ${RESPEC_IO_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/respec}/io-costs-<key>, the
 * key a hash of /etc/machine-id, the CPU model and the kernel release; the
 * file is "respec-io-costs VERSION" and a "name value" line per constant, in
 * the order of costs_cache.h.
 */
#define _GNU_SOURCE
#include "costs_cache.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* 2: the copies measured in loops (1 measured lone copies: cold TLB entries). */
enum { CACHE_VERSION = 2 };

static const char *const cached_names[IO_CACHED_COSTS] = {
	"syscall_ns", "kernel_copy_ns_kib", "user_copy_ns_kib",
	"setup_ns",   "map_ns",             "pte_populate_ns_kib",
};

static uint64_t fnv1a(uint64_t hash, const char *text)
{
	for (; *text; text++)
		hash = (hash ^ (unsigned char)*text) * 0x100000001b3ull;
	return hash;
}

/* Appends the first line of path that starts with prefix (or the whole first
 * line, for an empty prefix) to the hash. */
static uint64_t hash_line(uint64_t hash, const char *path, const char *prefix)
{
	FILE *in = fopen(path, "re");
	if (!in)
		return hash;
	char line[512];
	while (fgets(line, sizeof line, in))
		if (strncmp(line, prefix, strlen(prefix)) == 0) {
			hash = fnv1a(hash, line);
			break;
		}
	fclose(in);
	return hash;
}

bool io_costs_cache_directory(char *dir, size_t size, bool create)
{
	const char *set = getenv("RESPEC_IO_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n = set && *set ? snprintf(dir, size, "%s", set)
		: xdg && *xdg ? snprintf(dir, size, "%s/respec", xdg)
		: home && *home ? snprintf(dir, size, "%s/.cache/respec", home)
		: -1;
	if (n < 0 || (size_t)n >= size)
		return false;
	if (!create) {
		struct stat st;
		return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
	}
	/* Each missing level in turn (the cache home may not exist yet either). */
	for (char *slash = dir + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(dir, 0700);
		*slash = '/';
	}
	return mkdir(dir, 0700) == 0 || errno == EEXIST;
}

/* The CPU's model: from the processor itself where it says (reading
 * /proc/cpuinfo costs tens of microseconds, in every process). */
static uint64_t hash_cpu_model(uint64_t hash)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned brand[13] = {0}; /* 48 bytes of brand string, then a NUL */
	if (__get_cpuid_max(0x80000000u, NULL) >= 0x80000004u) {
		for (unsigned leaf = 0; leaf < 3; leaf++)
			__get_cpuid(0x80000002u + leaf, &brand[4 * leaf], &brand[4 * leaf + 1],
				    &brand[4 * leaf + 2], &brand[4 * leaf + 3]);
		return fnv1a(hash, (const char *)brand);
	}
#endif
	return hash_line(hash, "/proc/cpuinfo", "model name");
}

void io_costs_cache_file(char *path, size_t size, const char *dir)
{
	struct utsname host;
	uint64_t key = 0xcbf29ce484222325ull;
	key = hash_line(key, "/etc/machine-id", "");
	key = hash_cpu_model(key);
	if (uname(&host) == 0)
		key = fnv1a(fnv1a(key, host.release), host.machine);
	snprintf(path, size, "%s/io-costs-%016llx", dir, (unsigned long long)key);
}

bool io_cost_sane(double value)
{
	return value > 0 && value < 1e7;
}

bool io_costs_cache_read(const char *path, double out[IO_CACHED_COSTS])
{
	FILE *in = fopen(path, "re");
	if (!in)
		return false;
	double values[IO_CACHED_COSTS];
	int version = 0, found = 0;
	if (fscanf(in, "respec-io-costs %d", &version) == 1 && version == CACHE_VERSION)
		for (; found < IO_CACHED_COSTS; found++) {
			char name[32];
			if (fscanf(in, "%31s %lf", name, &values[found]) != 2 ||
			    strcmp(name, cached_names[found]) != 0 || !io_cost_sane(values[found]))
				break;
		}
	fclose(in);
	if (found != IO_CACHED_COSTS)
		return false;
	memcpy(out, values, sizeof values);
	return true;
}

/* Written to a temporary name and renamed: a process reading the cache meanwhile
 * sees the old file or the whole new one. */
void io_costs_cache_write(const char *path, const double values[IO_CACHED_COSTS])
{
	char temporary[PATH_MAX];
	if (snprintf(temporary, sizeof temporary, "%s.%d", path, (int)getpid()) >= (int)sizeof temporary)
		return;
	FILE *out = fopen(temporary, "we");
	if (!out)
		return;
	fprintf(out, "respec-io-costs %d\n", CACHE_VERSION);
	/* 17 significant digits read back as the same double: a process that reads
	 * the cache decides with the figures of the one that measured them (%.3f
	 * did not, and the trace's rounding of the two could differ). */
	for (int i = 0; i < IO_CACHED_COSTS; i++)
		fprintf(out, "%s %.17g\n", cached_names[i], values[i]);
	if (fclose(out) != 0 || rename(temporary, path) != 0)
		unlink(temporary);
}
