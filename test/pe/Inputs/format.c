/* format.c — the generic code of test/pe/external-facts-format.c: a tiny
 * formatter whose conversions have widths parsed with isdigit. */
#include <ctype.h>

/* %[0][width]x, %[0][width]X, %[0][width]d of one unsigned value each. */
int format(char *out, const char *fmt, unsigned long v)
{
	char *o = out;
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			*o++ = *fmt;
			continue;
		}
		fmt++;
		char pad = ' ';
		if (*fmt == '0') {
			pad = '0';
			fmt++;
		}
		int width = 0;
		while (isdigit((unsigned char)*fmt))
			width = width * 10 + (*fmt++ - '0');
		unsigned base = tolower((unsigned char)*fmt) == 'x' ? 16 : 10;
		char digits[32];
		int n = 0;
		do {
			unsigned d = (unsigned)(v % base);
			digits[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
			v /= base;
		} while (v);
		for (int i = n; i < width; i++)
			*o++ = pad;
		while (n) {
			char c = digits[--n];
			*o++ = isupper((unsigned char)*fmt) ? (char)toupper((unsigned char)c) : c;
		}
		v = v * 7 + 3;
	}
	*o = 0;
	return (int)(o - out);
}
