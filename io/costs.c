/*
 * costs.c — the cost model's constants (strategy.c), measured on the machine
 * the library runs on, at the first decision, and cached per machine.
 *
 * What specializing a read path saves and costs depends on the machine: a
 * system call's price (mitigations, virtualization), the kernel's and the
 * CPU's copy bandwidth, what mmap and populating page tables cost. Constants
 * measured on one development machine would choose wrongly elsewhere, so the
 * first decision of a process measures them (a few milliseconds, on a 1 MiB
 * temporary file of its own) unless a cache file for this machine has them
 * (costs_cache.c: keyed by /etc/machine-id, the kernel release and the CPU
 * model, so a new kernel or a moved disk image measures again). A cache that does
 * not parse, or holds a value outside sane bounds, is measured over.
 *
 *   RESPEC_IO_COSTS=builtin   the development machine's constants (below)
 *   RESPEC_IO_COSTS=measure   measure even if a cache exists (and rewrite it)
 *
 * Each figure is the median of several batches; the copies are measured as
 * bench-io measures them (the same 64 KiB, copied again and again). The fixed
 * cost of specializing (checks, lease, slot, and later the release) is twelve system
 * calls at the measured price plus the user-space part measured on the
 * development machine; the size thresholds are not costs and stay fixed.
 * Without a cache directory (no HOME either: services, cron, programs
 * spawned with a bare environment) the built-in constants stay: measuring in
 * every process would cost short-lived programs more than it saves, and
 * finding a home in the password database (NSS) costs a few hundred
 * microseconds. So they do when nothing can be measured.
 */
#define _GNU_SOURCE
#include "internal.h"
#include "costs_cache.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* From `bench/run io` on the development machine (AMD EPYC, 2 vCPU KVM guest,
 * Linux 6.18, ext4): the "thresholds" object of bench/results/io.json and the
 * read-*-hot rows (io/README.md, "Strategies and thresholds"). */
struct io_costs io_costs = {
	.syscall_ns = 300,          /* read(2) of 1 cached byte: 315 ns */
	.kernel_copy_ns_kib = 17,   /* read(2) of 64 KiB: 1420 ns */
	.user_copy_ns_kib = 11,     /* memcpy of 64 KiB from a mapping: 690 ns */
	.setup_ns = 6000,           /* statx, fstatfs, lseek, lease 1.6 µs, slot, release */
	.map_ns = 5500,             /* mmap + munmap */
	.pte_populate_ns_kib = 50,  /* populating 4 KiB entries: 1 MiB in 58 µs */
	.buffer_max = 256 << 10,
	.whole_max = 16 << 20,
	.window = 2 << 20,
	.drop_behind_min = 1ull << 30,
};

/* The user-space part of setup_ns on the development machine (6 µs in all,
 * twelve system calls of 300 ns). */
enum { SETUP_SYSCALLS = 12, SETUP_USER_NS = 2400 };
enum { PROBE_BYTES = 1 << 20, COPY_BYTES = 64 << 10, COPY_REPEATS = 16, BATCHES = 9 };

/* The measured constants, in the cache file's order (costs_cache.h). */
static double *const cached_costs[IO_CACHED_COSTS] = {
	&io_costs.syscall_ns, &io_costs.kernel_copy_ns_kib, &io_costs.user_copy_ns_kib,
	&io_costs.setup_ns,   &io_costs.map_ns,            &io_costs.pte_populate_ns_kib,
};
enum { COSTS = IO_CACHED_COSTS };

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *samples, int n)
{
	qsort(samples, (size_t)n, sizeof *samples, compare_doubles);
	return samples[n / 2];
}

/* ---- measuring ------------------------------------------------------------------ */

/* A cached regular file of PROBE_BYTES in dir, unlinked already. */
static int probe_file(const char *dir)
{
	int fd = io_real.openat(AT_FDCWD, dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	char *block = malloc(COPY_BYTES);
	bool written = block != NULL;
	if (written) {
		memset(block, 0x5a, COPY_BYTES);
		for (off_t at = 0; at < PROBE_BYTES && written; at += COPY_BYTES)
			written = pwrite(fd, block, COPY_BYTES, at) == COPY_BYTES;
	}
	free(block);
	if (!written) {
		io_real.close(fd);
		return -1;
	}
	return fd;
}

static bool measure(int fd, double *measured)
{
	char *buffer = malloc(COPY_BYTES);
	char *map = mmap(NULL, PROBE_BYTES, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	if (!buffer || map == MAP_FAILED) {
		free(buffer);
		if (map != MAP_FAILED)
			munmap(map, PROBE_BYTES);
		return false;
	}
	double syscall[BATCHES], kernel[BATCHES], user[BATCHES], mapping[BATCHES], populate[BATCHES];
	for (int b = 0; b < BATCHES; b++) {
		double t = now_ns();
		for (int i = 0; i < 64; i++)
			io_real.pread(fd, buffer, 1, i);
		syscall[b] = (now_ns() - t) / 64;

		/* Each copy in a loop of its own over the same 64 KiB, as bench-io
		 * measures the constants the model was validated with: one lone
		 * copy after the mmap calls below pays cold TLB entries that a
		 * reader going through a mapping does not pay per read. */
		t = now_ns();
		for (int i = 0; i < COPY_REPEATS; i++)
			io_real.pread(fd, buffer, COPY_BYTES, 0);
		kernel[b] = (now_ns() - t) / COPY_REPEATS;

		t = now_ns();
		for (int i = 0; i < COPY_REPEATS; i++) {
			memcpy(buffer, map, COPY_BYTES);
			__asm__ volatile("" : : "r"(buffer) : "memory"); /* the copy is used */
		}
		user[b] = (now_ns() - t) / COPY_REPEATS;

		t = now_ns();
		void *bare = mmap(NULL, PROBE_BYTES, PROT_READ, MAP_SHARED, fd, 0);
		if (bare != MAP_FAILED)
			munmap(bare, PROBE_BYTES);
		mapping[b] = now_ns() - t;

		t = now_ns();
		void *full = mmap(NULL, PROBE_BYTES, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
		if (full != MAP_FAILED)
			munmap(full, PROBE_BYTES);
		populate[b] = now_ns() - t;
	}
	munmap(map, PROBE_BYTES);
	free(buffer);

	double kib = COPY_BYTES / 1024.0, syscall_ns = median(syscall, BATCHES);
	double map_ns = median(mapping, BATCHES);
	measured[0] = syscall_ns;
	measured[1] = (median(kernel, BATCHES) - syscall_ns) / kib;
	measured[2] = median(user, BATCHES) / kib;
	measured[3] = SETUP_SYSCALLS * syscall_ns + SETUP_USER_NS;
	measured[4] = map_ns;
	measured[5] = (median(populate, BATCHES) - map_ns) / (PROBE_BYTES / 1024.0);
	for (int i = 0; i < COSTS; i++)
		if (!io_cost_sane(measured[i]))
			return false;
	return true;
}

static void trace_costs(const char *source, double ms)
{
	IO_TRACE("costs %s in %.1f ms: syscall %.0f ns, kernel copy %.1f ns/KiB, user copy %.1f "
		 "ns/KiB, setup %.0f ns, map %.0f ns, populate %.1f ns/KiB",
		 source, ms, io_costs.syscall_ns, io_costs.kernel_copy_ns_kib,
		 io_costs.user_copy_ns_kib, io_costs.setup_ns, io_costs.map_ns,
		 io_costs.pte_populate_ns_kib);
}

static void find_costs(void)
{
	const char *setting = getenv("RESPEC_IO_COSTS");
	double start = now_ns();
	if (setting && strcmp(setting, "builtin") == 0) {
		trace_costs("built-in", 0);
		return;
	}
	char dir[PATH_MAX - 64], path[PATH_MAX];
	bool measure_anyway = setting && strcmp(setting, "measure") == 0;
	bool have_dir = io_costs_cache_directory(dir, sizeof dir, true);
	/* Measuring in every process (a millisecond or more each) would cost
	 * short-lived programs more than it could save them. */
	if (!have_dir && !measure_anyway) {
		trace_costs("built-in (no cache directory to keep measured ones in)", 0);
		return;
	}
	if (have_dir) {
		io_costs_cache_file(path, sizeof path, dir);
		double cached[COSTS];
		if (!measure_anyway && io_costs_cache_read(path, cached)) {
			for (int i = 0; i < COSTS; i++)
				*cached_costs[i] = cached[i];
			trace_costs("read from the cache", (now_ns() - start) / 1e6);
			return;
		}
	}
	int fd = probe_file(have_dir ? dir : P_tmpdir);
	double measured[COSTS];
	bool ok = fd >= 0 && measure(fd, measured);
	if (fd >= 0)
		io_real.close(fd);
	if (!ok) {
		trace_costs("built-in (nothing to measure on)", 0);
		return;
	}
	for (int i = 0; i < COSTS; i++)
		*cached_costs[i] = measured[i];
	if (have_dir)
		io_costs_cache_write(path, measured);
	trace_costs("measured", (now_ns() - start) / 1e6);
}

void io_costs_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, find_costs);
}
