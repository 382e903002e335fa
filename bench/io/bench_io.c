/*
 * bench_io.c — bench-io: librespec-io against read(2), pread, fread and getc,
 * and unmodified programs with and without the LD_PRELOAD shim (the OMOS
 * Table 3 analog), plus the measurements behind the strategy thresholds.
 * `bench/run io` writes bench/results/io.json (a --quick run writes under the build directory).
 *
 * Self-contained rather than on bench/harness.h, for two reasons: the variants
 * are named after their peers (read(2), getc, ...; the harness wants the first
 * one to be "generic"), and the stdio and system-call peers must run in a
 * process of their own. The library starts a guard thread when it takes its
 * first lease, and glibc switches every stdio stream to locked mode once a
 * process has a second thread — getc measured next to a specialized
 * descriptor would be 5x slower than in the single-threaded programs it is
 * meant to represent. So a helper process, forked before anything is
 * specialized, runs fread and getc; this process runs read(2), pread and the
 * respec variants; the two take turns on one pinned CPU, round after round.
 *
 * Protocol (bench/README.md): every variant's output is checked against
 * read(2)'s before any timing; then rounds of interleaved samples after a
 * warm-up, the variants in an order shuffled per round from the run's seed;
 * median, minimum, p10 and p90 per variant. Micro cases time each
 * sample by the CPU time of the reading thread (it never blocks on a hot page
 * cache; a neighbour's time on our CPU does not count); program cases by the
 * user+system time of the child (wait4), with wall time in "extra".
 *
 * Data files are generated under <build>/bench/io-data (never committed).
 */
#define _GNU_SOURCE
#include "harness.h"
#include <respec/io.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static _Noreturn void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "bench-io: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static double thread_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}


static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *values, int n)
{
	qsort(values, (size_t)n, sizeof *values, compare_doubles);
	return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}


/* ---- data files ------------------------------------------------------------- */

static char data_dir[PATH_MAX - 64];
static char shim_path[PATH_MAX];

static const char *data(const char *name)
{
	static char paths[8][PATH_MAX];
	static int next;
	char *out = paths[next++ % 8];
	snprintf(out, PATH_MAX, "%s/%s", data_dir, name);
	return out;
}

/* Text like a log or source: lines of words, some containing "respec". */
static void fill_text(char *buf, size_t size, uint64_t seed)
{
	static const char *const words[] = {"alpha", "bravo", "charlie", "delta", "echo",
					    "foxtrot", "golf", "hotel", "india", "juliet",
					    "kilo", "lima", "respec", "mike", "november", "oscar"};
	uint64_t x = seed | 1;
	size_t at = 0;
	while (at < size) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		const char *w = words[x % 16];
		size_t len = strlen(w);
		if (at + len + 1 > size)
			break;
		memcpy(buf + at, w, len);
		at += len;
		buf[at++] = (x >> 8) % 8 == 0 ? '\n' : ' ';
	}
	memset(buf + at, '\n', size - at);
}

/* Writes `size` bytes of text in writes of `chunk` bytes. Unless `fresh`, a
 * file already there with that size is kept. The page cache keeps what the
 * writes made — large writes make 2 MiB folios, which a mapping maps 50 times
 * more cheaply than small ones — and it splits folios over time, so the files
 * whose mapping cost matters are written anew at every run. */
static void make_file(const char *path, size_t size, size_t chunk, uint64_t seed, bool fresh)
{
	struct stat st;
	if (!fresh && stat(path, &st) == 0 && (size_t)st.st_size == size)
		return;
	char *buf = malloc(size ? size : 1);
	fill_text(buf, size, seed);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("create %s: %s", path, strerror(errno));
	for (size_t done = 0; done < size;) {
		size_t part = size - done < chunk ? size - done : chunk;
		ssize_t w = write(fd, buf + done, part);
		if (w <= 0)
			die("write %s", path);
		done += (size_t)w;
	}
	close(fd);
	free(buf);
}

static void make_data(void)
{
	mkdir(data_dir, 0755);
	make_file(data("hot.dat"), 1 << 20, 1 << 20, 1, false);
	make_file(data("big128.dat"), 128 << 20, 2 << 20, 2, true);
	make_file(data("big128-64k.dat"), 128 << 20, 64 << 10, 3, true);
	mkdir(data("mb"), 0755);
	for (int i = 0; i < 64; i++) {
		char name[32];
		snprintf(name, sizeof name, "mb/f%02d.dat", i);
		make_file(data(name), 1 << 20, 1 << 20, 100 + (uint64_t)i, false);
	}
	mkdir(data("small"), 0755);
	for (int i = 0; i < 600; i++) {
		char name[32];
		snprintf(name, sizeof name, "small/f%03d.dat", i);
		/* 4 to 52 KiB, about 17 MB in all (OMOS: 618 files, 17 MB) */
		make_file(data(name), 4096 + (size_t)((i * 7919) % 49152), 1 << 20, 1000 + (uint64_t)i,
			  false);
	}
}

/* ---- readers: one per variant ---------------------------------------------------- */

enum kind { K_READ, K_PREAD, K_FREAD, K_GETC, K_RESPEC, K_SHIM, KINDS };
static const char *const kind_names[KINDS] = {"read(2)", "pread", "fread", "getc", "respec",
					       "respec-shim"};
/* Which process runs a variant: the single-threaded helper (stdio, whose
 * locking depends on the process having one thread), or this one (the system
 * calls, measured next to the respec variants in the same process). */
static bool in_helper(enum kind k)
{
	return k == K_FREAD || k == K_GETC;
}

/* The shim's own entry points, from a private dlopen: what an unmodified
 * program calls through its PLT. */
static struct {
	int (*open)(const char *, int, ...);
	ssize_t (*read)(int, void *, size_t);
	off_t (*lseek)(int, off_t, int);
	int (*close)(int);
	int (*info)(int, struct respec_io_info *);
} shim;

struct reader {
	enum kind kind;
	int fd;
	FILE *fp;
	off_t off;
	size_t size;
};

static void reader_open(struct reader *r, enum kind kind, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		die("stat %s", path);
	*r = (struct reader){.kind = kind, .fd = -1, .size = (size_t)st.st_size};
	switch (kind) {
	case K_FREAD:
	case K_GETC:
		r->fp = fopen(path, "r");
		break;
	case K_RESPEC:
		r->fd = respec_io_open(path, O_RDONLY);
		break;
	case K_SHIM:
		r->fd = shim.open(path, O_RDONLY);
		break;
	default:
		r->fd = open(path, O_RDONLY);
	}
	if (r->fd < 0 && !r->fp)
		die("open %s for %s", path, kind_names[kind]);
}

static void reader_close(struct reader *r)
{
	if (r->fp)
		fclose(r->fp);
	else if (r->kind == K_RESPEC)
		respec_io_close(r->fd);
	else if (r->kind == K_SHIM)
		shim.close(r->fd);
	else
		close(r->fd);
}

/* One read of n bytes, starting over at the end of the file; inlined into
 * each variant's loop so that every variant pays the same loop around it. */
static inline size_t reader_read(struct reader *r, unsigned char *buf, size_t n)
{
	ssize_t got;
	switch (r->kind) {
	case K_READ:
		got = read(r->fd, buf, n);
		if (got == 0) {
			lseek(r->fd, 0, SEEK_SET);
			got = read(r->fd, buf, n);
		}
		return (size_t)got;
	case K_PREAD:
		got = pread(r->fd, buf, n, r->off);
		if (got == 0) {
			r->off = 0;
			got = pread(r->fd, buf, n, 0);
		}
		r->off += got;
		return (size_t)got;
	case K_FREAD:
		got = (ssize_t)fread(buf, 1, n, r->fp);
		if (got == 0) {
			rewind(r->fp);
			got = (ssize_t)fread(buf, 1, n, r->fp);
		}
		return (size_t)got;
	case K_GETC: {
		int c = getc(r->fp);
		if (c == EOF) {
			rewind(r->fp);
			c = getc(r->fp);
		}
		buf[0] = (unsigned char)c;
		return 1;
	}
	case K_RESPEC:
		got = respec_io_read(r->fd, buf, n);
		if (got == 0) {
			respec_io_lseek(r->fd, 0, SEEK_SET);
			got = respec_io_read(r->fd, buf, n);
		}
		return (size_t)got;
	default:
		got = shim.read(r->fd, buf, n);
		if (got == 0) {
			shim.lseek(r->fd, 0, SEEK_SET);
			got = shim.read(r->fd, buf, n);
		}
		return (size_t)got;
	}
}

/* ---- micro cases ------------------------------------------------------------------- */

struct micro {
	const char *name;
	const char *file;
	size_t request;
	struct reader readers[KINDS];
	bool has[KINDS];
	uint64_t iterations[KINDS];
	double *samples[KINDS];
};

static struct micro micros[] = {
	{.name = "read-1B-hot", .file = "hot.dat", .request = 1},
	{.name = "read-8KiB-hot", .file = "hot.dat", .request = 8192},
	{.name = "read-64KiB-hot", .file = "hot.dat", .request = 65536},
	{.name = "read-1B-stream", .file = "big128.dat", .request = 1},
	{.name = "read-8KiB-stream", .file = "big128.dat", .request = 8192},
	{.name = "read-64KiB-stream", .file = "big128.dat", .request = 65536},
};
enum { MICROS = sizeof micros / sizeof micros[0] };

static unsigned char *io_buffer;

/* Runs `iterations` reads; returns CPU ns per read and digests the last one. */
static double run_sample(struct micro *m, enum kind k, uint64_t iterations, uint64_t *digest)
{
	struct reader *r = &m->readers[k];
	size_t n = m->request, last = 0;
	double start = thread_ns();
	for (uint64_t i = 0; i < iterations; i++)
		last = reader_read(r, io_buffer, n);
	double ns = (thread_ns() - start) / (double)iterations;
	if (digest)
		*digest = bench_digest_bytes(BENCH_DIGEST_INIT, io_buffer, last);
	return ns;
}

/* Output check: 3 MiB (several passes over the hot file) from a fresh open. */
static uint64_t check_variant(struct micro *m, enum kind k)
{
	struct reader r;
	reader_open(&r, k, data(m->file));
	uint64_t digest = BENCH_DIGEST_INIT;
	for (size_t done = 0; done < (3u << 20);) {
		size_t got = reader_read(&r, io_buffer, m->request);
		if (got == 0)
			die("%s: %s read nothing", m->name, kind_names[k]);
		digest = bench_digest_bytes(digest, io_buffer, got);
		done += got;
	}
	reader_close(&r);
	return digest;
}

/* ---- the helper process ------------------------------------------------------------ */

enum request_op { REQ_OPEN, REQ_CHECK, REQ_SAMPLE, REQ_QUIT };
struct request {
	int op, micro, kind;
	uint64_t iterations;
};
struct reply {
	double ns;
	uint64_t digest;
};
static int to_helper, from_helper;

static void serve(int in, int out)
{
	struct request q;
	while (read(in, &q, sizeof q) == sizeof q) {
		struct reply a = {0, 0};
		struct micro *m = &micros[q.micro];
		switch (q.op) {
		case REQ_OPEN:
			reader_open(&m->readers[q.kind], (enum kind)q.kind, data(m->file));
			break;
		case REQ_CHECK:
			a.digest = check_variant(m, (enum kind)q.kind);
			break;
		case REQ_SAMPLE:
			a.ns = run_sample(m, (enum kind)q.kind, q.iterations, &a.digest);
			break;
		default:
			_exit(0);
		}
		if (write(out, &a, sizeof a) != sizeof a)
			_exit(1);
	}
	_exit(0);
}

static void start_helper(void)
{
	int down[2], up[2];
	if (pipe(down) || pipe(up))
		die("pipe");
	pid_t pid = fork();
	if (pid == 0) {
		close(down[1]);
		close(up[0]);
		serve(down[0], up[1]);
	}
	close(down[0]);
	close(up[1]);
	to_helper = down[1];
	from_helper = up[0];
}

static struct reply ask(enum request_op op, int micro, enum kind k, uint64_t iterations)
{
	struct request q = {op, micro, k, iterations};
	struct reply a;
	if (write(to_helper, &q, sizeof q) != sizeof q || read(from_helper, &a, sizeof a) != sizeof a)
		die("helper died");
	return a;
}

static struct reply variant_sample(int mi, enum kind k, uint64_t iterations)
{
	if (in_helper(k))
		return ask(REQ_SAMPLE, mi, k, iterations);
	struct reply a;
	a.ns = run_sample(&micros[mi], k, iterations, &a.digest);
	return a;
}

/* ---- program cases (the OMOS Table 3 analog) --------------------------------------- */

struct program {
	const char *name;
	char *argv[700];
	double *cpu[2], *wall[2]; /* [0] read(2), [1] respec (LD_PRELOAD) */
};
enum { PROGRAMS = 9 };
static struct program programs[PROGRAMS];
static int nprograms;

static void add_program(const char *name, const char *tool, const char *const *args, int nargs,
			const char *dir_glob)
{
	struct program *p = &programs[nprograms++];
	p->name = name;
	int argc = 0;
	p->argv[argc++] = (char *)tool;
	for (int i = 0; i < nargs; i++)
		p->argv[argc++] = (char *)args[i];
	if (dir_glob) {
		DIR *d = opendir(data(dir_glob));
		struct dirent *e;
		char **names = calloc(700, sizeof *names);
		int n = 0;
		while (d && (e = readdir(d)))
			if (e->d_name[0] != '.')
				names[n++] = strdup(e->d_name);
		closedir(d);
		qsort(names, (size_t)n, sizeof *names, (int (*)(const void *, const void *))strcmp);
		for (int i = 0; i < n; i++) {
			char path[PATH_MAX];
			snprintf(path, sizeof path, "%s/%s", data(dir_glob), names[i]);
			p->argv[argc++] = strdup(path);
		}
	}
	p->argv[argc] = NULL;
}

/* Runs the program once; its output is digested; returns CPU and wall ns. */
static uint64_t run_program(struct program *p, bool with_shim, double *cpu, double *wall)
{
	char preload[PATH_MAX + 16];
	snprintf(preload, sizeof preload, "LD_PRELOAD=%s", shim_path);
	char *env_shim[] = {preload, "LC_ALL=C", NULL};
	char *env_plain[] = {"LC_ALL=C", NULL};
	/* grep exits with 1 when nothing matches. */
	struct bench_program_run run =
		bench_spawn_digest(p->argv, with_shim ? env_shim : env_plain, 1, false);
	*wall = run.wall_ns;
	*cpu = run.cpu_ns;
	return run.digest;
}

/* ---- thresholds: what the cost model's constants rest on ---------------------------- */

struct thresholds {
	double syscall_ns, kernel_ns_kib, user_ns_kib, lease_ns, map_ns;
	double populate_ns_kib_2m, populate_ns_kib_64k;
	double buffer_setup_ns[8], fresh_buffer_setup_ns[8], mapping_setup_ns[8];
	size_t sizes[8];
	int nsizes;
	size_t buffer_crossover;
};

static double time_median(int reps, double (*fn)(void *), void *arg)
{
	double v[64];
	for (int i = 0; i < reps; i++)
		v[i] = fn(arg);
	return median(v, reps);
}

struct setup_arg {
	const char *path;
	size_t size;
	int fd;
};

/* A private copy into memory already faulted in (the library keeps a pool of
 * regions for them: fresh anonymous pages cost more than the copy here). */
static double buffer_setup(void *p)
{
	struct setup_arg *a = p;
	static unsigned char *region;
	if (!region)
		region = calloc(1, 16 << 20);
	double start = thread_ns();
	if (pread(a->fd, region, a->size, 0) != (ssize_t)a->size)
		die("pread");
	return thread_ns() - start;
}

/* The same into fresh anonymous memory. */
static double fresh_buffer_setup(void *p)
{
	struct setup_arg *a = p;
	double start = thread_ns();
	void *copy = mmap(NULL, a->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pread(a->fd, copy, a->size, 0) != (ssize_t)a->size)
		die("pread");
	munmap(copy, a->size);
	return thread_ns() - start;
}

static double mapping_setup(void *p)
{
	struct setup_arg *a = p;
	double start = thread_ns();
	void *map = mmap(NULL, a->size, PROT_READ, MAP_SHARED, a->fd, 0);
	madvise(map, a->size, MADV_POPULATE_READ);
	munmap(map, a->size);
	return thread_ns() - start;
}

static double lease_cycle(void *p)
{
	struct setup_arg *a = p;
	struct f_owner_ex self = {F_OWNER_TID, gettid()};
	double start = thread_ns();
	fcntl(a->fd, F_SETSIG, SIGRTMIN + 8);
	fcntl(a->fd, F_SETOWN_EX, &self);
	if (fcntl(a->fd, F_SETLEASE, F_RDLCK) != 0)
		return 0;
	fcntl(a->fd, F_SETLEASE, F_UNLCK);
	return thread_ns() - start;
}

static double populate_per_kib(const char *path)
{
	int fd = open(path, O_RDONLY);
	size_t size = 32 << 20;
	double v[5];
	for (int i = 0; i < 5; i++) {
		void *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
		double start = thread_ns();
		madvise(map, size, MADV_POPULATE_READ);
		v[i] = (thread_ns() - start) / (double)(size / 1024);
		munmap(map, size);
	}
	close(fd);
	return median(v, 5);
}

static void measure_thresholds(struct thresholds *t)
{
	const char *path = data("big128.dat");
	int fd = open(path, O_RDONLY);
	/* read(2) of one byte, and per KiB at 64 KiB; memcpy from a mapping. */
	unsigned char *map = mmap(NULL, 1 << 20, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	double v[9];
	for (int i = 0; i < 9; i++) {
		double start = thread_ns();
		for (int k = 0; k < 20000; k++)
			if (pread(fd, io_buffer, 1, k % 4096) != 1)
				die("pread");
		v[i] = (thread_ns() - start) / 20000;
	}
	t->syscall_ns = median(v, 9);
	for (int i = 0; i < 9; i++) {
		double start = thread_ns();
		for (int k = 0; k < 2000; k++)
			if (pread(fd, io_buffer, 65536, (off_t)(k % 16) * 65536) != 65536)
				die("pread");
		v[i] = ((thread_ns() - start) / 2000 - t->syscall_ns) / 64;
	}
	t->kernel_ns_kib = median(v, 9);
	for (int i = 0; i < 9; i++) {
		double start = thread_ns();
		for (int k = 0; k < 2000; k++) {
			memcpy(io_buffer, map + (size_t)(k % 16) * 65536, 65536);
			__asm__ volatile("" : : "r"(io_buffer) : "memory");
		}
		v[i] = (thread_ns() - start) / 2000 / 64;
	}
	t->user_ns_kib = median(v, 9);
	munmap(map, 1 << 20);

	struct setup_arg a = {path, 0, fd};
	t->lease_ns = time_median(21, lease_cycle, &a);
	a.size = 4096;
	t->map_ns = time_median(21, mapping_setup, &a);
	t->populate_ns_kib_2m = populate_per_kib(path);
	t->populate_ns_kib_64k = populate_per_kib(data("big128-64k.dat"));
	static const size_t sizes[] = {4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20,
				       16 << 20};
	t->nsizes = 7;
	t->buffer_crossover = 0;
	for (int i = 0; i < t->nsizes; i++) {
		a.size = sizes[i];
		t->sizes[i] = sizes[i];
		t->buffer_setup_ns[i] = time_median(9, buffer_setup, &a);
		t->fresh_buffer_setup_ns[i] = time_median(9, fresh_buffer_setup, &a);
		t->mapping_setup_ns[i] = time_median(9, mapping_setup, &a);
		if (!t->buffer_crossover && t->buffer_setup_ns[i] > t->mapping_setup_ns[i])
			t->buffer_crossover = sizes[i];
	}
	close(fd);
}

/* ---- main ------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct bench_options options = bench_parse_options(argc, argv);
	bool quick = options.quick;
	const char *json = options.json_path;
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
	if (len <= 0)
		die("readlink /proc/self/exe");
	self[len] = 0;
	snprintf(data_dir, sizeof data_dir, "%s/io-data", dirname(self));
	snprintf(shim_path, sizeof shim_path, "%s", RESPEC_IO_SHIM_PATH);

	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	bool pinned = sched_setaffinity(0, sizeof one, &one) == 0;
	io_buffer = malloc(1 << 20);
	printf("bench-io: generating data in %s ...\n", data_dir);
	fflush(stdout);
	make_data();
	/* The cost figures first, describing the page cache the run starts with. */
	struct thresholds t;
	measure_thresholds(&t);
	start_helper(); /* single-threaded from here on: nothing specialized yet */

	void *handle = dlopen(shim_path, RTLD_NOW | RTLD_LOCAL);
	if (!handle)
		die("dlopen %s: %s", shim_path, dlerror());
	shim.open = dlsym(handle, "open");
	shim.read = dlsym(handle, "read");
	shim.lseek = dlsym(handle, "lseek");
	shim.close = dlsym(handle, "close");
	shim.info = dlsym(handle, "respec_io_info");
	if (!shim.open || !shim.read || !shim.lseek || !shim.close || !shim.info)
		die("the shim lacks its interposers");

	int rounds = options.rounds ? options.rounds : quick ? 7 : 31,
	    program_rounds = quick ? 3 : 15;
	double sample_ns = quick ? 2e6 : 5e6;
	uint64_t order_state = options.seed;
	int order[KINDS];
	for (int k = 0; k < KINDS; k++)
		order[k] = k;

	/* Micro cases: check, open, warm up, calibrate, then interleaved rounds. */
	for (int mi = 0; mi < MICROS; mi++) {
		struct micro *m = &micros[mi];
		for (int k = 0; k < KINDS; k++)
			m->has[k] = k != K_GETC || m->request == 1;
		uint64_t reference = ask(REQ_CHECK, mi, K_READ, 0).digest;
		for (int k = 0; k < KINDS; k++) {
			if (!m->has[k])
				continue;
			uint64_t d = in_helper((enum kind)k) ? ask(REQ_CHECK, mi, (enum kind)k, 0).digest
							     : check_variant(m, (enum kind)k);
			if (d != reference)
				die("%s: %s reads different bytes than read(2)", m->name, kind_names[k]);
			if (in_helper((enum kind)k))
				ask(REQ_OPEN, mi, (enum kind)k, 0);
			else
				reader_open(&m->readers[k], (enum kind)k, data(m->file));
			/* Warm-up doubles as calibration: a sample of about sample_ns. */
			uint64_t n = 1000;
			for (;;) {
				double ns = variant_sample(mi, (enum kind)k, n).ns;
				if (ns * (double)n >= sample_ns / 4 || n >= (1ull << 34)) {
					m->iterations[k] = (uint64_t)(sample_ns / (ns > 0.1 ? ns : 0.1)) + 1;
					break;
				}
				n *= 4;
			}
			m->samples[k] = calloc((size_t)rounds, sizeof(double));
		}
		for (int r = 0; r < rounds; r++) {
			bench_shuffle(&order_state, order, KINDS);
			for (int i = 0; i < KINDS; i++) {
				int k = order[i];
				if (m->has[k]) {
					struct reply a = variant_sample(mi, (enum kind)k, m->iterations[k]);
					m->samples[k][r] = a.ns;
				}
			}
		}
		struct respec_io_info info;
		respec_io_info(m->readers[K_RESPEC].fd, &info);
		printf("%-18s respec: %s%s%s\n", m->name,
		       info.specialized ? respec_io_strategy_name(info.strategy) : "read(2): ",
		       info.specialized ? "" : "", info.specialized ? "" : info.why_generic);
	}
	struct request quit = {REQ_QUIT, 0, 0, 0};
	if (write(to_helper, &quit, sizeof quit) != sizeof quit)
		die("helper died");

	/* Program cases. */
	static const char *const wc_l[] = {"-l"}, *const grep_c[] = {"-c", "respec lima"};
	const char *big = strdup(data("big128.dat")), *big64k = strdup(data("big128-64k.dat"));
	const char *wc_big[] = {"-l", big}, *grep_big[] = {"-c", "respec lima", big};
	const char *wc_big64k[] = {"-l", big64k};
	add_program("cat-600-small", "cat", NULL, 0, "small");
	add_program("wc-128MiB", "wc", wc_big, 2, NULL);
	add_program("grep-128MiB", "grep", grep_big, 3, NULL);
	add_program("wc-64x1MiB", "wc", wc_l, 1, "mb");
	add_program("grep-64x1MiB", "grep", grep_c, 2, "mb");
	add_program("wc-128MiB-64KiB-writes", "wc", wc_big64k, 2, NULL);
	for (int pi = 0; pi < nprograms; pi++) {
		struct program *p = &programs[pi];
		double cpu, wall;
		uint64_t plain = run_program(p, false, &cpu, &wall);
		if (run_program(p, true, &cpu, &wall) != plain)
			die("%s: output differs under the shim", p->name);
		for (int v = 0; v < 2; v++) {
			p->cpu[v] = calloc((size_t)program_rounds, sizeof(double));
			p->wall[v] = calloc((size_t)program_rounds, sizeof(double));
		}
		for (int r = 0; r < program_rounds; r++) {
			int shim_order[2] = {0, 1};
			bench_shuffle(&order_state, shim_order, 2);
			for (int i = 0; i < 2; i++) {
				int v = shim_order[i];
				run_program(p, v == 1, &p->cpu[v][r], &p->wall[v][r]);
			}
		}
	}

	/* Page cache folios can be split while the machine runs: the populate
	 * cost of the same files again, at the end. */
	double populate_end_2m = populate_per_kib(data("big128.dat"));
	double populate_end_64k = populate_per_kib(data("big128-64k.dat"));

	/* Report. */
	char where[256];
	bench_describe_machine(where, sizeof where);
	printf("\nbench-io: %s; %d rounds (micro), %d (programs), order seed %llu%s%s\n", where, rounds,
	       program_rounds, (unsigned long long)options.seed, quick ? ", quick" : "",
	       pinned ? ", pinned to CPU 0" : "");
	printf("%-24s %-12s %14s %14s %10s\n", "case", "variant", "median ns/op", "min ns/op",
	       "vs read(2)");
	FILE *out = json ? fopen(json, "w") : NULL;
	if (json && !out)
		die("cannot write %s", json);
	if (out)
		fprintf(out, "{\n  \"benchmark\": \"io\",\n  \"machine\": \"%s\",\n  \"quick\": %s,\n  \"rows\": [\n",
			where, quick ? "true" : "false");
	bool first_row = true;
	for (int mi = 0; mi < MICROS; mi++) {
		struct micro *m = &micros[mi];
		double base = bench_stats(m->samples[K_READ], rounds).median;
		for (int k = 0; k < KINDS; k++) {
			if (!m->has[k])
				continue;
			struct bench_stats st = bench_stats(m->samples[k], rounds);
			printf("%-24s %-12s %14.2f %14.2f %9.2fx\n", m->name, kind_names[k], st.median, st.min,
			       base / st.median);
			if (out) {
				fprintf(out, "%s    {\"case\": \"%s\", \"variant\": \"%s\", ",
					first_row ? "" : ",\n", m->name, kind_names[k]);
				bench_json_stats(out, &st, 4);
				fprintf(out, "}");
			}
			first_row = false;
		}
	}
	for (int pi = 0; pi < nprograms; pi++) {
		struct program *p = &programs[pi];
		double base = bench_stats(p->cpu[0], program_rounds).median;
		for (int v = 0; v < 2; v++) {
			struct bench_stats st = bench_stats(p->cpu[v], program_rounds);
			const char *variant = v ? "respec" : "read(2)";
			printf("%-24s %-12s %14.0f %14.0f %9.2fx  (wall %.2f ms)\n", p->name, variant, st.median,
			       st.min, base / st.median, median(p->wall[v], program_rounds) / 1e6);
			if (out) {
				fprintf(out, ",\n    {\"case\": \"%s\", \"variant\": \"%s\", ", p->name, variant);
				bench_json_stats(out, &st, 4);
				fprintf(out, ", \"wall_ns\": %.4g}", median(p->wall[v], program_rounds));
			}
		}
	}
	printf("\nthresholds: read(2) %.0f ns + %.1f ns/KiB; memcpy from a mapping %.1f ns/KiB; "
	       "lease take+release %.0f ns; mmap+munmap %.0f ns;\n  populate %.2f ns/KiB (2 MiB "
	       "writes; %.2f at the end), %.1f ns/KiB (64 KiB writes; %.1f at the end); private copy "
	       "cheaper than a mapping up to %zu bytes\n",
	       t.syscall_ns, t.kernel_ns_kib, t.user_ns_kib, t.lease_ns, t.map_ns, t.populate_ns_kib_2m,
	       populate_end_2m, t.populate_ns_kib_64k, populate_end_64k,
	       t.buffer_crossover ? t.buffer_crossover : t.sizes[t.nsizes - 1]);
	for (int i = 0; i < t.nsizes; i++)
		printf("  %8zu bytes: private copy %8.0f ns (fresh memory %8.0f), populated mapping %8.0f ns\n",
		       t.sizes[i], t.buffer_setup_ns[i], t.fresh_buffer_setup_ns[i], t.mapping_setup_ns[i]);
	if (out) {
		fprintf(out, "\n  ],\n  \"extra\": {\n    \"thresholds\": {\"read_syscall_ns\": %.4g, \"read_ns_per_kib\": %.4g, "
			"\"memcpy_from_mapping_ns_per_kib\": %.4g, \"lease_take_release_ns\": %.4g, \"mmap_munmap_ns\": %.4g, "
			"\"populate_ns_per_kib_2MiB_writes\": %.4g, \"populate_ns_per_kib_2MiB_writes_at_end\": %.4g, "
			"\"populate_ns_per_kib_64KiB_writes\": %.4g, \"populate_ns_per_kib_64KiB_writes_at_end\": %.4g, "
			"\"private_copy_cheaper_up_to_bytes\": %zu, \"setup_ns_by_size\": [",
			t.syscall_ns, t.kernel_ns_kib, t.user_ns_kib, t.lease_ns, t.map_ns, t.populate_ns_kib_2m,
			populate_end_2m, t.populate_ns_kib_64k, populate_end_64k,
			t.buffer_crossover ? t.buffer_crossover : t.sizes[t.nsizes - 1]);
		for (int i = 0; i < t.nsizes; i++)
			fprintf(out, "%s{\"bytes\": %zu, \"private_copy\": %.4g, \"private_copy_fresh_memory\": %.4g, \"populated_mapping\": %.4g}",
				i ? ", " : "", t.sizes[i], t.buffer_setup_ns[i], t.fresh_buffer_setup_ns[i],
				t.mapping_setup_ns[i]);
		fprintf(out, "]},\n    \"micro_timing\": \"CPU time of the reading thread\",\n"
			     "    \"program_timing\": \"user+system CPU time of the program (wall_ns: wall clock)\",\n"
			     "    \"stdio_peers\": \"fread and getc measured in a single-threaded helper process\",\n"
			     "    \"seed\": %llu\n  }\n}\n", (unsigned long long)options.seed);
		fclose(out);
		printf("wrote %s\n", json);
	}
	return 0;
}
