/*
 * subjects.h — example subjects of the PCRE2 case study's patterns: strings of
 * each pattern's language and near misses, realistic lines a program would match
 * the pattern against. The differential test (test/pcre2) mutates them into its
 * subjects; the benchmark (bench/pcre2) matches them as they are.
 */
#ifndef RESPEC_PCRE2_SUBJECTS_H
#define RESPEC_PCRE2_SUBJECTS_H

#include <stddef.h>
#include <string.h>

struct pcre2_examples {
	const char *pattern;
	const char *const *strings;
};
static const char *const date_examples[] = {
	"2024-01-31", "1999-12-01", "0000-00-00", "2024-1-31", "2024-01-31\n", "24-01-31",
	"2024/01/31", "12345-01-01", "2024-01-311", " 2024-01-31", NULL };
static const char *const words_examples[] = {
	"disk error on /dev/sda", "warning: low memory", "critical failure in fan 2",
	"fatal: not a git repository", "kernel panic - not syncing", "errors: 0",
	"no problems here", "warn", "panicked", "a fatalistic view", "error", "xerror warning_",
	"ERROR", "[critical]", NULL };
static const char *const email_examples[] = {
	"contact: john.doe@example.com", "a@b.co", "bad@address", "user+tag@mail.server.org",
	"x@y.z", "@example.com", "first.last@sub-domain.example.museum", "no at sign here",
	"a@b.abcdefg", "mail me at x_y%z@q-r.s.tu today", "a@@b.cc", NULL };
static const char *const keyvalue_examples[] = {
	"key=value", "  name = \"quoted value\"  # comment", "path=/usr/local/bin", "x.y-z=1",
	"=value", "key = ", "9key=1", "key=\"unterminated", "key=value # c", "key value",
	"key=val ue", "\tk\t=\t\"a#b\"\t", "a=b=c", NULL };
static const char *const http_examples[] = {
	"GET / HTTP/1.1", "POST /api/v1/items?id=42&x=y HTTP/1.0", "HEAD /index.html HTTP/2.0",
	"get / HTTP/1.1", "GET /a b HTTP/1.1", "PATCH /x?y HTTP/1.1", "DELETE /users/7 HTTP/1.1\n",
	"GET http://x/ HTTP/1.1", "OPTIONS /# HTTP/1.1", "PUT /f?a=1 HTTP/1.", "GET /?q HTTP/9.9",
	NULL };
static const char *const altstar_examples[] = {
	"c", "ac", "abc", "aabac", "ababab", "abababababababc", "xyz", "aaaaaaaaaab", "bc",
	"abababababababababababababababab", "aaaaaaaaaaaaaaaaaaaac", "ba", NULL };
static const char *const backref_examples[] = {
	"hello hello", "the the cat", "abc abcd", "abc  abc", "a a", "word\tword!", "foo bar",
	"aaaa aaa", "x_1 x_1", "hello  hellO", "aaaaaaaaaa aaaaaaaaab", " a a", NULL };
static const struct pcre2_examples pcre2_all_examples[] = {
	{ "date", date_examples }, { "words", words_examples }, { "email", email_examples },
	{ "keyvalue", keyvalue_examples }, { "http", http_examples },
	{ "altstar", altstar_examples }, { "backref", backref_examples },
};

/* The NULL-terminated examples of the pattern named `name`, or NULL. */
static inline const char *const *pcre2_examples_for(const char *name)
{
	for (size_t i = 0; i < sizeof pcre2_all_examples / sizeof pcre2_all_examples[0]; i++)
		if (strcmp(pcre2_all_examples[i].pattern, name) == 0)
			return pcre2_all_examples[i].strings;
	return NULL;
}

#endif /* RESPEC_PCRE2_SUBJECTS_H */
