/* The printf case study's entry points: dietlibc's snprintf with a static format and
 * dynamic arguments and buffer size. Every variant (generic, clang-lto, respec) defines
 * them, renamed <variant>_format_* (examples/RespecVariants.cmake). */
#ifndef PRINTF_SPEC_H
#define PRINTF_SPEC_H
#include <stddef.h>

#define PRINTF_SPEC_DECLARE(prefix)                                                       \
	int prefix##format_point(char *buf, size_t size, int x, int y);                   \
	int prefix##format_tagged(char *buf, size_t size, unsigned id, const char *name,  \
				  char tag);                                              \
	int prefix##format_ratio(char *buf, size_t size, unsigned done, unsigned total,   \
				 const char *unit);

/* "(%d, %d)", "%08x:%-6s|%c" and "%5u/%u %s" (printf_spec.c). */
PRINTF_SPEC_DECLARE()

#endif
