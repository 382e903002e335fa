/* Included first (-include) in every dietlibc source of the printf case study, which is
 * compiled against the system's (glibc's) headers, as the generic variant and the peer
 * are: what dietlibc's own headers would provide and glibc's do not. Nothing here
 * changes what dietlibc's code does. */
#ifndef DIETLIBC_ON_GLIBC_H
#define DIETLIBC_ON_GLIBC_H

/* dietstdio.h's FILE uses uint32_t; dietlibc's sys/types.h defines it. */
#include <stdint.h>

/* dietlibc's sys/cdefs.h; strtoul.c uses them. */
#define __likely(foo) __builtin_expect((foo), 1)
#define __unlikely(foo) __builtin_expect((foo), 0)

/* isspace, isxdigit and isalnum are functions, as in dietlibc's ctype.h, which the
 * build takes from dietlibc's lib/ (ASCII only), not glibc's locale tables behind
 * macros. */
#define __NO_CTYPE 1

/* dietlibc's stdlib.h: the number conversions __v_printf.c calls. */
int __ltostr(char *s, unsigned int size, unsigned long i, unsigned int base, int UpCase);
int __lltostr(char *s, unsigned int size, unsigned long long i, unsigned int base,
              int UpCase);
int __dtostr(double d, char *buf, unsigned int maxlen, unsigned int prec, unsigned int prec2,
             int flags);

#endif
