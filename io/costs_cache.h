/*
 * costs_cache.h — librespec-io's cost constants as cached per machine
 * (costs_cache.c says where and how). Used by costs.c, and compiled into respec
 * profile's files observer (profile/runtime/file_observer.c).
 */
#ifndef RESPEC_IO_COSTS_CACHE_H
#define RESPEC_IO_COSTS_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#define IO_CACHE_HIDDEN __attribute__((visibility("hidden")))

/* The cached constants, in the file's order: a read(2) of one cached byte
 * (ns), the kernel's and user space's copies (ns per KiB), specializing a
 * descriptor (ns), mmap and munmap (ns), populating page-table entries (ns per
 * KiB). */
enum { IO_CACHED_COSTS = 6 };

/* The cache directory, created (with its parents) when create is set; false
 * when there is none (no RESPEC_IO_CACHE_DIR, XDG_CACHE_HOME or HOME). */
IO_CACHE_HIDDEN bool io_costs_cache_directory(char *dir, size_t size, bool create);
/* This machine's cache file in dir. */
IO_CACHE_HIDDEN void io_costs_cache_file(char *path, size_t size, const char *dir);
/* Whether a measured or cached constant is within sane bounds. */
IO_CACHE_HIDDEN bool io_cost_sane(double value);
/* The constants in path; false when it is missing, of another version, or
 * holds a value out of bounds. */
IO_CACHE_HIDDEN bool io_costs_cache_read(const char *path, double values[IO_CACHED_COSTS]);
/* Written to a temporary name and renamed. */
IO_CACHE_HIDDEN void io_costs_cache_write(const char *path, const double values[IO_CACHED_COSTS]);

#endif
