/*
 * arena_malloc.c — the short-running program's malloc (OMOS's electric
 * malloc, seeds file 004): memory is never given back to the system.
 *
 * A program that runs for a moment and exits (a compiler, a script, a batch
 * tool) gains nothing from a general allocator's work to return memory, merge
 * free blocks and keep fragmentation low over days; it pays for it on every
 * call. This allocator keeps only what reuse within one run needs:
 *
 *   - size classes: 16-byte steps up to 4 KiB (256 classes), then powers of
 *     two up to 32 MiB; a request takes the smallest class that holds it;
 *   - a free list per class (free pushes, malloc pops), never merged or
 *     split: a block keeps its class for the whole run;
 *   - fresh blocks cut from 64 MiB chunks with a bump pointer (mmap,
 *     MAP_NORESERVE: pages are committed when touched); a fresh block is
 *     zero, so calloc clears only reused ones;
 *   - larger requests get a mapping of their own, unmapped by free.
 *
 * Every block starts 16 bytes after a header holding its class (and, for
 * blocks aligned beyond 16, the distance back to the block that holds them),
 * so free, realloc and malloc_usable_size need no search.
 *
 * Threads: while glibc's __libc_single_threaded is set, the process has one
 * thread and nothing is locked; once any thread has been created (however:
 * pthread_create, or through dlsym) it stays clear and every call takes one
 * mutex, which fork holds across (as glibc's malloc does) so that the child
 * never inherits it locked. Known limit: the handlers are registered by a
 * constructor of the program, so they run after other libraries' prepare
 * handlers and before their parent and child ones; a library whose fork
 * handlers allocate, in a process with threads, would wait on the mutex. The rules that choose this allocator (malloc.rules) ask only that
 * the program be short-running; it is correct for any program.
 *
 * The functions are those glibc's manual lists for replacing malloc (malloc,
 * free, calloc, realloc, aligned_alloc, malloc_usable_size, memalign,
 * posix_memalign, pvalloc, valloc) and reallocarray.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern char __libc_single_threaded;

enum {
	HEADER = 16,
	GRAIN = 16,
	SMALL_MAX = 4096,
	SMALL_CLASSES = SMALL_MAX / GRAIN,  /* 16, 32, ... 4096 */
	LARGE_CLASSES = 13,                 /* 8 KiB ... 32 MiB */
	CLASSES = SMALL_CLASSES + LARGE_CLASSES,
	MAPPED = CLASSES,                   /* a block with a mapping of its own */
	ALIGNED = CLASSES + 1,              /* an aligned block inside another */
};
static const size_t chunk_size = (size_t)64 << 20;
static const size_t large_max = (size_t)32 << 20;

struct header {
	uint32_t class;
	uint32_t unused;
	size_t extent; /* MAPPED: the mapping's size; ALIGNED: bytes back to the holder */
};
_Static_assert(sizeof(struct header) == HEADER, "the header keeps payloads 16-aligned");

static void *free_lists[CLASSES];
static char *bump, *bump_end;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static size_t class_size(unsigned class)
{
	return class < SMALL_CLASSES ? (size_t)(class + 1) * GRAIN
				     : (size_t)SMALL_MAX << (class - SMALL_CLASSES + 1);
}

static unsigned class_of(size_t n)
{
	if (n <= SMALL_MAX)
		return n ? (unsigned)((n + GRAIN - 1) / GRAIN - 1) : 0;
	unsigned bits = 64 - __builtin_clzl(n - 1); /* 2^bits >= n */
	return SMALL_CLASSES + bits - 13;
}

static struct header *header_of(void *p)
{
	return (struct header *)((char *)p - HEADER);
}

static bool take_lock(void)
{
	if (__libc_single_threaded)
		return false;
	pthread_mutex_lock(&lock);
	return true;
}

static void before_fork(void)
{
	if (!__libc_single_threaded)
		pthread_mutex_lock(&lock);
}

static void after_fork_in_parent(void)
{
	if (!__libc_single_threaded)
		pthread_mutex_unlock(&lock);
}

static void after_fork_in_child(void)
{
	pthread_mutex_init(&lock, NULL); /* the child has one thread: this one */
}

__attribute__((constructor)) static void register_fork_handlers(void)
{
	pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

static void *map(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* A block of class (payload pointer); *fresh tells whether it was never used. */
static void *allocate_class(unsigned class, bool *fresh)
{
	bool locked = take_lock();
	void *p = free_lists[class];
	*fresh = !p;
	if (p) {
		free_lists[class] = *(void **)p;
	} else {
		size_t need = HEADER + class_size(class);
		if ((size_t)(bump_end - bump) < need) {
			char *chunk = map(chunk_size);
			if (!chunk) {
				if (locked)
					pthread_mutex_unlock(&lock);
				return NULL;
			}
			bump = chunk; /* the old chunk's rest is left unused */
			bump_end = chunk + chunk_size;
		}
		p = bump + HEADER;
		bump += need;
		header_of(p)->class = class;
	}
	if (locked)
		pthread_mutex_unlock(&lock);
	return p;
}

static void *allocate(size_t n, bool *fresh)
{
	if (n <= large_max)
		return allocate_class(class_of(n), fresh);
	if (n > SIZE_MAX - HEADER - 4096)
		return NULL;
	size_t extent = (n + HEADER + 4095) & ~(size_t)4095;
	char *mapping = map(extent);
	if (!mapping)
		return NULL;
	*fresh = true;
	struct header *h = (struct header *)mapping;
	h->class = MAPPED;
	h->extent = extent;
	return mapping + HEADER;
}

void *malloc(size_t n)
{
	bool fresh;
	void *p = allocate(n, &fresh);
	if (!p)
		errno = ENOMEM;
	return p;
}

void free(void *p)
{
	if (!p)
		return;
	struct header *h = header_of(p);
	if (h->class == ALIGNED)
		return free((char *)p - h->extent);
	if (h->class == MAPPED) {
		munmap(h, h->extent);
		return;
	}
	bool locked = take_lock();
	*(void **)p = free_lists[h->class];
	free_lists[h->class] = p;
	if (locked)
		pthread_mutex_unlock(&lock);
}

size_t malloc_usable_size(void *p)
{
	if (!p)
		return 0;
	struct header *h = header_of(p);
	if (h->class == ALIGNED)
		return malloc_usable_size((char *)p - h->extent) - h->extent;
	if (h->class == MAPPED)
		return h->extent - HEADER;
	return class_size(h->class);
}

void *calloc(size_t count, size_t size)
{
	size_t n;
	if (__builtin_mul_overflow(count, size, &n)) {
		errno = ENOMEM;
		return NULL;
	}
	bool fresh;
	void *p = allocate(n, &fresh);
	if (!p)
		errno = ENOMEM;
	else if (!fresh)
		memset(p, 0, n);
	return p;
}

void *realloc(void *p, size_t n)
{
	if (!p)
		return malloc(n);
	if (n == 0) { /* as glibc: free, and no block */
		free(p);
		return NULL;
	}
	size_t have = malloc_usable_size(p);
	if (n <= have)
		return p;
	void *grown = malloc(n);
	if (!grown)
		return NULL;
	memcpy(grown, p, have);
	free(p);
	return grown;
}

void *reallocarray(void *p, size_t count, size_t size)
{
	size_t n;
	if (__builtin_mul_overflow(count, size, &n)) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n);
}

/* A block of n bytes at a multiple of alignment (a power of two). */
static void *allocate_aligned(size_t alignment, size_t n)
{
	if (alignment <= GRAIN)
		return malloc(n);
	if (n > SIZE_MAX - alignment - HEADER) {
		errno = ENOMEM;
		return NULL;
	}
	char *holder = malloc(n + alignment + HEADER);
	if (!holder)
		return NULL;
	uintptr_t start = ((uintptr_t)holder + HEADER + alignment - 1) & ~(uintptr_t)(alignment - 1);
	struct header *h = header_of((void *)start);
	h->class = ALIGNED;
	h->extent = start - (uintptr_t)holder;
	return (void *)start;
}

static bool power_of_two(size_t n)
{
	return n && !(n & (n - 1));
}

int posix_memalign(void **out, size_t alignment, size_t n)
{
	if (!power_of_two(alignment) || alignment % sizeof(void *))
		return EINVAL;
	void *p = allocate_aligned(alignment, n);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

void *aligned_alloc(size_t alignment, size_t n)
{
	if (!power_of_two(alignment)) {
		errno = EINVAL;
		return NULL;
	}
	return allocate_aligned(alignment, n);
}

void *memalign(size_t alignment, size_t n)
{
	/* As glibc: an alignment that is not a power of two is rounded up to one. */
	if (alignment > (SIZE_MAX >> 1) + 1) {
		errno = EINVAL;
		return NULL;
	}
	size_t rounded = GRAIN;
	while (rounded < alignment)
		rounded <<= 1;
	return allocate_aligned(rounded, n);
}

void *valloc(size_t n)
{
	return allocate_aligned((size_t)sysconf(_SC_PAGESIZE), n);
}

void *pvalloc(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	if (n > SIZE_MAX - page) {
		errno = ENOMEM;
		return NULL;
	}
	return allocate_aligned(page, (n + page - 1) & ~(page - 1));
}
