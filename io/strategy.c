/*
 * strategy.c — OMOS's choice of an I/O strategy per open, as a cost model with
 * constants measured on the machine it runs on (costs.c).
 *
 * The decision is made at the first read that returned everything it asked
 * for, when the library knows what OMOS had to be told: the file's size, the
 * offset, and the request size the program uses. Specializing pays a fixed cost
 * (checks, lease, slot, later the release) plus the strategy's own (one kernel
 * copy of the file for a private copy; mmap, and populating page tables, for a
 * mapping); it saves, on every later read, a system call and the difference
 * between the kernel's copy and a user-space memcpy. Expected reads are the
 * remaining bytes over the request size, times the passes seen so far (a
 * program that seeks back and reads again is counted as doing it again).
 *
 *   BUFFER  small files: one pread into a private copy is cheaper than any
 *           mapping (mmap + munmap alone cost several µs here)
 *   WHOLE   medium files, or a program that discloses random access: the whole
 *           mapping populated at once, nothing left to check per read
 *   WINDOW  large files: populated a window ahead of the reader; the measured
 *           populate cost decides at run time whether it stays (page cache
 *           folios written in small pieces make populating dearer than read(2))
 *   KERNEL  when nothing above saves more than it costs: read(2)
 *
 * Disclosed hints: "random" maps whole files (up to random_max) regardless of
 * the expected reads; "sequential" prefers the window; "big-io" never makes a
 * private copy (the program's reads are large).
 */
#define _GNU_SOURCE
#include "internal.h"

/* What populating 2 MiB-aligned windows has cost in this process so far, in
 * ps per KiB: starts at the measured cost for page cache in 2 MiB folios (one
 * page-table entry maps 2 MiB) and follows each window's measurement, so that
 * a program going through files cached in small folios (where populating
 * costs 20-80 ns/KiB, more than read(2)'s copy) stops mapping them. */
static _Atomic uint64_t huge_populate_ps_kib = 1000;

void io_note_populate(uint64_t ns, uint64_t bytes)
{
	uint64_t measured = ns * 1000 / (bytes / 1024);
	uint64_t old = atomic_load(&huge_populate_ps_kib);
	atomic_store(&huge_populate_ps_kib, (old + measured) / 2);
}

/* Populating [lo, hi): whole aligned 2 MiB blocks at the learned cost, the
 * rest at the cost of 4 KiB page-table entries (a mapping, or a part of one,
 * smaller than 2 MiB is never mapped by the 2 MiB entries). */
static double populate_ns(uint64_t lo, uint64_t hi)
{
	uint64_t block = IO_HUGE_PAGE;
	uint64_t first = (lo + block - 1) & ~(block - 1), last = hi & ~(block - 1);
	uint64_t huge = last > first ? last - first : 0;
	double huge_ns_kib = (double)atomic_load(&huge_populate_ps_kib) / 1000.0;
	return (double)huge / 1024.0 * huge_ns_kib +
	       (double)(hi - lo - huge) / 1024.0 * io_costs.pte_populate_ns_kib;
}

/* Largest file a "random" program gets mapped and populated whole. */
static const uint64_t random_max = 1ull << 30;

static double saving_per_read(uint64_t count)
{
	double kib = (double)count / 1024.0;
	return io_costs.syscall_ns + kib * (io_costs.kernel_copy_ns_kib - io_costs.user_copy_ns_kib);
}

enum respec_io_strategy io_choose(uint64_t size, uint64_t pos, uint64_t count, unsigned hints,
				  uint32_t rereads)
{
	io_costs_init();
	if (size == 0 || count == 0)
		return RESPEC_IO_KERNEL;
	/* Disclosed random access: where the program is now says nothing. */
	if ((hints & RESPEC_IO_HINT_RANDOM) && size <= random_max)
		return RESPEC_IO_WHOLE;
	if (pos >= size)
		return RESPEC_IO_KERNEL;
	uint64_t remaining = size - pos;
	double passes = 1.0 + rereads;
	double reads = (double)((remaining + count - 1) / count) * passes;
	double saving = reads * saving_per_read(count);
	double size_kib = (double)size / 1024.0;

	enum respec_io_strategy best = RESPEC_IO_KERNEL;
	double best_cost = saving; /* a strategy must cost less than it saves */
	if (size <= io_costs.buffer_max && !(hints & RESPEC_IO_HINT_BIG_IO)) {
		double cost = io_costs.setup_ns + size_kib * io_costs.kernel_copy_ns_kib;
		if (cost < best_cost)
			best = RESPEC_IO_BUFFER, best_cost = cost;
	}
	/* One mapping strategy per size, as OMOS's thresholds: whole up to
	 * whole_max (nothing to check per read, seeks anywhere are free), a window
	 * beyond (or for a disclosed scan). */
	double cost;
	enum respec_io_strategy mapping;
	if (size <= io_costs.whole_max && !(hints & RESPEC_IO_HINT_SEQUENTIAL)) {
		mapping = RESPEC_IO_WHOLE;
		cost = io_costs.setup_ns + io_costs.map_ns + populate_ns(0, size);
	} else {
		/* Pages behind the reader are dropped only for huge files: every
		 * pass populates again then. */
		double window_passes = size >= io_costs.drop_behind_min ? passes : 1.0;
		mapping = RESPEC_IO_WINDOW;
		cost = io_costs.setup_ns + io_costs.map_ns +
		       populate_ns(pos & ~(IO_HUGE_PAGE - 1), size) * window_passes;
	}
	if (cost < best_cost)
		best = mapping;
	return best;
}

bool io_window_worth_it(const struct io_file *f)
{
	if (f->populate_bytes < IO_HUGE_PAGE && f->populate_bytes < f->size)
		return true;
	double measured = (double)f->populate_ns / ((double)f->populate_bytes / 1024.0);
	double count_kib = (double)(f->last_count ? f->last_count : 1) / 1024.0;
	/* A margin, so that a file populated at about break-even goes to read(2):
	 * "never slower" matters more than a few percent won. */
	double limit = 0.8 * saving_per_read(f->last_count) / count_kib;
	/* The page cache of one file can mix 2 MiB folios with small ones, and a
	 * first 2 MiB also pays one-time costs (page-table pages): after one
	 * window only a clear loss (page cache all in small folios, 20-80 ns/KiB)
	 * decides; after two, the average. */
	if (f->populate_bytes < 2 * IO_HUGE_PAGE && f->populate_bytes < f->size)
		return measured < 2 * limit;
	return measured < limit;
}
