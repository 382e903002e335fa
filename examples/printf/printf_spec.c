/* The printf case study (README.md here): three formats mixing %d %u %x %s %c, widths,
 * '0' padding and '-' alignment, each a call of dietlibc's own snprintf with dynamic
 * arguments and a dynamic buffer size. Compiled normally it is the generic variant;
 * respec evaluates the format away. */
#include <stdio.h>
#include <respec/respec.h>
#include "printf_spec.h"

RESPEC_SPECIALIZE int format_point(char *buf, size_t size, int x, int y) {
  return snprintf(buf, size, "(%d, %d)", x, y);
}

RESPEC_SPECIALIZE int format_tagged(char *buf, size_t size, unsigned id, const char *name,
                                    char tag) {
  return snprintf(buf, size, "%08x:%-6s|%c", id, name, tag);
}

RESPEC_SPECIALIZE int format_ratio(char *buf, size_t size, unsigned done, unsigned total,
                                   const char *unit) {
  return snprintf(buf, size, "%5u/%u %s", done, total, unit);
}
