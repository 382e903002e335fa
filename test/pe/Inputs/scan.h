/* scan.h — the generic code of test/pe/external-facts-*.c: a scanf-like
 * matcher and keyword tables, written with <ctype.h> and <string.h>. */
#include <stddef.h>

int scan(const char *fmt, const char *in, long *out);
int keyword(const char *word, size_t n);
int keyword_sorted(const char *word);
int compare_raw(const char *a, const char *b);
long first_conversion(const char *fmt);
