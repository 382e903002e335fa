/* scan.c — see scan.h. */
#include "scan.h"

#include <ctype.h>
#include <string.h>

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* Matches `in` against `fmt`: %d a signed decimal, %x hex digits, %w a word
 * (a letter, then letters and digits; stored as a hash of it in upper case),
 * %% a percent sign; white space skips any white space; other characters
 * match case-insensitively. Returns the number of conversions stored, or -1
 * for a bad format. */
int scan(const char *fmt, const char *in, long *out)
{
	int n = 0;
	for (; *fmt; fmt++) {
		if (isspace((unsigned char)*fmt)) {
			in = skip_space(in);
			continue;
		}
		if (*fmt != '%' || fmt[1] == '%') {
			if (*fmt == '%')
				fmt++;
			if (tolower((unsigned char)*fmt) != tolower((unsigned char)*in))
				return n;
			in++;
			continue;
		}
		fmt++;
		in = skip_space(in);
		switch (*fmt) {
		case 'd': {
			int negative = *in == '-';
			if (*in == '-' || *in == '+')
				in++;
			if (!isdigit((unsigned char)*in))
				return n;
			unsigned long v = 0;
			while (isdigit((unsigned char)*in))
				v = v * 10 + (unsigned long)(*in++ - '0');
			out[n++] = (long)(negative ? 0 - v : v);
			break;
		}
		case 'x': {
			if (!isxdigit((unsigned char)*in))
				return n;
			unsigned long v = 0;
			while (isxdigit((unsigned char)*in)) {
				int c = tolower((unsigned char)*in++);
				v = v * 16 + (unsigned long)(isdigit(c) ? c - '0' : c - 'a' + 10);
			}
			out[n++] = (long)v;
			break;
		}
		case 'w': {
			if (!isalpha((unsigned char)*in))
				return n;
			unsigned long h = 5381;
			while (isalnum((unsigned char)*in))
				h = h * 33 + (unsigned long)toupper((unsigned char)*in++);
			out[n++] = (long)(h & 0x7fffffff);
			break;
		}
		default:
			return -1;
		}
	}
	return n;
}

static const char *const keywords[] = {"break", "case",   "continue", "default",
				       "do",    "else",   "for",      "goto",
				       "if",    "return", "switch",   "while"};
#define NKEYWORDS (sizeof keywords / sizeof *keywords)

/* A linear search: strlen and memcmp on static strings. */
int keyword(const char *word, size_t n)
{
	for (size_t i = 0; i < NKEYWORDS; i++)
		if (strlen(keywords[i]) == n && memcmp(keywords[i], word, n) == 0)
			return (int)i;
	return -1;
}

/* A binary search: only the sign of strcmp's result is used. */
int keyword_sorted(const char *word)
{
	size_t lo = 0, hi = NKEYWORDS;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(word, keywords[mid]);
		if (c == 0)
			return (int)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

/* strcmp's result as a number: what the C library returns. */
int compare_raw(const char *a, const char *b)
{
	return strcmp(a, b);
}

long first_conversion(const char *fmt)
{
	const char *p = strchr(fmt, '%');
	return p ? p - fmt : -1;
}
