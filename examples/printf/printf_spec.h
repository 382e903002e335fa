/* The printf case study's entry points: dietlibc's snprintf with a static format and
 * dynamic arguments and buffer size. Every variant (generic, clang-lto, respec) defines
 * them; printf_glibc.c defines them on glibc's snprintf, the peer. */
#ifndef PRINTF_SPEC_H
#define PRINTF_SPEC_H
#include <stddef.h>

int format_point(char *buf, size_t size, int x, int y);
int format_tagged(char *buf, size_t size, unsigned id, const char *name, char tag);
int format_ratio(char *buf, size_t size, unsigned done, unsigned total, const char *unit);

#endif
