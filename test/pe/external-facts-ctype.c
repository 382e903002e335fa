// Declared facts about the C library (include/respec/libc.h, respec.h): with
// glibc's ctype tables vouched for (RESPEC_C_LOCALE_CTYPE) and strlen, memcmp,
// strcmp and strchr declared pure, a scanf-like matcher over static formats
// and dynamic input, and keyword searches over static tables, fold what is
// static. The specialized and the generic build run on 20,000 random inputs
// each (in the C locale, then in C.UTF-8, whose tables are elsewhere but
// equal) and must print the same; and in a Latin-1 locale, whose tables
// differ (isalpha(0xe4)), where the specialized functions' guards run the
// generic code (when localedef can build the locale).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s %S/Inputs/scan.c -I%S/Inputs -o %t/spec.o -q
// RUN: %respec specialize %s %S/Inputs/scan.c -I%S/Inputs --emit-llvm -o %t/spec.ll -q
// RUN: %FileCheck --check-prefix=IR %s < %t/spec.ll
// RUN: %respec explain %s %S/Inputs/scan.c -I%S/Inputs --color=never > %t/explain.txt 2>&1
// RUN: %FileCheck --check-prefix=EXPLAIN %s < %t/explain.txt
// RUN: %clang -O2 -I%inc -I%S/Inputs -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -I%S/Inputs -c %S/Inputs/scan.c -o %t/scan.o
// RUN: %clang -O2 -I%inc -I%S/Inputs -DMAIN %s %t/spec.o %t/scan.o -o %t/specialized
// RUN: %clang -O2 -I%inc -I%S/Inputs -DMAIN %s %t/generic.o %t/scan.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %FileCheck --check-prefix=OUT %s < %t/specialized.out
// RUN: sh %S/Inputs/in-latin1-locale.sh %t/locales %t/specialized %t/generic
// RUN: diff %t/specialized.latin1 %t/generic.latin1
// RUN: %FileCheck --check-prefix=LATIN1 %s < %t/specialized.latin1
#include <respec/libc.h>
#include <string.h>
#include "scan.h"

RESPEC_C_LOCALE_CTYPE();
RESPEC_PURE(strlen);
RESPEC_PURE(memcmp);
RESPEC_PURE(strcmp);
RESPEC_PURE(strchr);

int scan_date(const char *in, long *out);
int scan_pair(const char *in, long *out);
int scan_words(const char *in, long *out);
int keyword_of(const char *word, size_t n);
int keyword_while(void);
int sorted_for(void);
int raw_difference(void);
int ordered(void);
long conversion_at(void);

#ifdef MAIN
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long state = 12345;
static unsigned next(void)
{
	state = state * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(state >> 33);
}

/* Random text that often looks like what the formats want. */
static void random_input(char *buf, size_t size)
{
	static const char pieces[][8] = {"12", "-7", "+3", "2024", "-", " ", "\t", "0x", "fF",
					 "Ab", "zZ9", "w", "\xe4", "\x80", "%", "..", "\n"};
	size_t n = 0, parts = next() % 9;
	for (size_t p = 0; p < parts; p++) {
		const char *piece = next() % 4 ? pieces[next() % (sizeof pieces / sizeof *pieces)]
					       : (char[2]){(char)(next() % 255 + 1), 0};
		size_t len = strlen(piece);
		if (n + len + 1 >= size)
			break;
		memcpy(buf + n, piece, len);
		n += len;
	}
	buf[n] = 0;
}

static void run(const char *title)
{
	unsigned long sum = 0;
	char in[64];
	long out[8];
	for (int i = 0; i < 20000; i++) {
		random_input(in, sizeof in);
		memset(out, 0, sizeof out);
		int a = scan_date(in, out);
		sum = sum * 31 + (unsigned long)a;
		for (int k = 0; k < a; k++)
			sum = sum * 31 + (unsigned long)out[k];
		int b = scan_pair(in, out);
		sum = sum * 31 + (unsigned long)b;
		for (int k = 0; k < b; k++)
			sum = sum * 31 + (unsigned long)out[k];
		int c = scan_words(in, out);
		sum = sum * 31 + (unsigned long)c;
		for (int k = 0; k < c; k++)
			sum = sum * 31 + (unsigned long)out[k];
		sum = sum * 31 + (unsigned long)keyword_of(in, strlen(in));
	}
	printf("%s: %lx\n", title, sum);
	const char *words[] = {"break", "while", "whilE", "do", "d", "", "return"};
	for (size_t w = 0; w < sizeof words / sizeof *words; w++)
		printf("keyword_of(%s) = %d\n", words[w], keyword_of(words[w], strlen(words[w])));
	long x[8];
	printf("scan_date = %d", scan_date(" 2024-07-1\tHello9", x));
	printf(" %ld %ld %ld %ld\n", x[0], x[1], x[2], x[3]);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		// LATIN1: {{latin1: unavailable|de_DE.ISO-8859-1: [0-9a-f]+}}
		// LATIN1: {{latin1: unavailable|words starting with a-umlaut: [1-9]}}
		if (!setlocale(LC_ALL, argv[1]))
			return 1;
		run(argv[1]);
		long x[8];
		int words = 0;
		const char *inputs[] = {"\xe4rger", "\xc4 x", "\xe4\xe4 \xe4", "a\xe4"};
		for (int i = 0; i < 4; i++)
			words += scan_words(inputs[i], x) > 0 && inputs[i][0] != 'a';
		printf("words starting with a-umlaut: %d\n", words);
		return 0;
	}
	// OUT: C: {{[0-9a-f]+}}
	run("C");
	// OUT: keyword_of(while) = 11
	// OUT: keyword_of(whilE) = -1
	// OUT: scan_date = 4 2024 7 1 {{[0-9]+}}
	// OUT: keyword_while 11 sorted_for 6 raw_difference -2 ordered 1 conversion_at 4
	printf("keyword_while %d sorted_for %d raw_difference %d ordered %d conversion_at %ld\n",
	       keyword_while(), sorted_for(), raw_difference(), ordered(), conversion_at());
	// OUT: C.UTF-8: {{[0-9a-f]+}}
	if (setlocale(LC_ALL, "C.UTF-8"))
		run("C.UTF-8");
	else
		printf("C.UTF-8: 0\n");
	return 0;
}
#else

// The format's characters are classified at specialization time; the input's
// are read through the table pointer the guard on entry fetched, once; the
// guard compares the table with the C locale's (once per table address) and
// runs the generic code if it differs.
// IR-LABEL: define {{.*}} @scan_date(
// IR-NEXT: entry:
// IR-NEXT: %__ctype_b_loc = tail call ptr @__ctype_b_loc()
// IR-NEXT: icmp eq ptr %__ctype_b_loc, null
// IR: %__ctype_b_loc.table = load ptr, ptr %__ctype_b_loc
// IR: load atomic ptr, ptr @respec.guard.matched.__ctype_b_loc monotonic
// IR-NOT: @__ctype_b_loc()
// IR: call i32 @bcmp({{.*}}@respec_c_locale_class_, i64 768)
// IR-NOT: @__ctype_b_loc()
// IR: call {{.*}} @scan_date.respec.generic(ptr noundef %in, ptr noundef %out)
// IR-NOT: @__ctype_b_loc()
// IR: getelementptr inbounds i16, ptr %__ctype_b_loc.table
// IR-NOT: @__ctype_b_loc()
// IR-NOT: call {{.*}} @scan(
// IR-LABEL: define {{.*}} @scan_pair(
RESPEC_SPECIALIZE int scan_date(const char *in, long *out)
{
	return scan(" %d-%d-%d %w", in, out);
}

RESPEC_SPECIALIZE int scan_pair(const char *in, long *out)
{
	return scan("%x%%..%D", in, out);
}

RESPEC_SPECIALIZE int scan_words(const char *in, long *out)
{
	return scan("%w %w", in, out);
}

// IR-LABEL: define {{.*}} @keyword_of(
// IR-NOT: call {{.*}} @strlen(
// IR: ret i32
RESPEC_SPECIALIZE int keyword_of(const char *word, size_t n)
{
	return keyword(word, n);
}

// Static strings throughout: no call is left.
// IR-LABEL: define {{.*}} @keyword_while(
// IR-NEXT: entry:
// IR-NEXT: ret i32 11
RESPEC_SPECIALIZE int keyword_while(void)
{
	return keyword("while", 5);
}

// IR-LABEL: define {{.*}} @sorted_for(
// IR-NEXT: entry:
// IR-NEXT: ret i32 6
RESPEC_SPECIALIZE int sorted_for(void)
{
	return keyword_sorted("for");
}

// strcmp's value, not only its sign, is returned: the C library decides it.
// IR-LABEL: define {{.*}} @raw_difference(
// IR: call i32 @strcmp(
RESPEC_SPECIALIZE int raw_difference(void)
{
	return compare_raw("apple", "apricot");
}

// The same comparator, whose caller tests only the sign: folded.
// IR-LABEL: define {{.*}} @ordered(
// IR-NEXT: entry:
// IR-NEXT: ret i32 1
RESPEC_SPECIALIZE int ordered(void)
{
	return compare_raw("apple", "apricot") < 0;
}

// IR-LABEL: define {{.*}} @conversion_at(
// IR-NEXT: entry:
// IR-NEXT: ret i64 4
RESPEC_SPECIALIZE long conversion_at(void)
{
	return first_conversion("abc %d");
}

// EXPLAIN: === scan_date ===
// EXPLAIN: fact: {{.*}}external-facts-ctype.c:[[#CTYPE:]]: RESPEC_STABLE_TABLE_AS(__ctype_b_loc, -128, respec_c_locale_class_): folded at {{.*}}scan.c:23:{{[0-9]+}}; read through the pointer fetched on entry at {{.*}}scan.c:9:{{.*}}; checked on entry (the generic code runs when the memory differs)
// EXPLAIN: fact: {{.*}}external-facts-ctype.c:[[#CTYPE]]: RESPEC_STABLE_TABLE_AS(__ctype_toupper_loc, -128, respec_c_locale_toupper_): read through the pointer fetched on entry at {{.*}}scan.c:66:33; checked on entry
// EXPLAIN: fact: {{.*}}external-facts-ctype.c:[[#CTYPE]]: RESPEC_STABLE_TABLE_AS(__ctype_tolower_loc, -128, respec_c_locale_tolower_): folded at {{.*}}scan.c:30:{{[0-9]+}}; checked on entry
// EXPLAIN: === keyword_of ===
// EXPLAIN: fact: {{.*}}external-facts-ctype.c:[[#CTYPE+1]]: RESPEC_PURE(strlen): folded at {{.*}}scan.c:86:7
// A dynamic word: the call stays, and forgets nothing with or without the fact.
// EXPLAIN: fact: {{.*}}external-facts-ctype.c:[[#CTYPE+2]]: RESPEC_PURE(memcmp): no effect
// EXPLAIN: === keyword_while ===
// EXPLAIN: RESPEC_PURE(memcmp): folded at {{.*}}scan.c:86:35
// EXPLAIN: === sorted_for ===
// EXPLAIN: RESPEC_PURE(strcmp): folded at {{.*}}scan.c:97:11
// EXPLAIN: === raw_difference ===
// EXPLAIN: note: {{.*}}scan.c:111:9: call to 'strcmp' kept residual: the C standard fixes only the sign of its result, and a use of the result depends on more
// EXPLAIN: === conversion_at ===
// EXPLAIN: fact: {{.*}}external-facts-ctype.c:[[#CTYPE+4]]: RESPEC_PURE(strchr): folded at {{.*}}scan.c:116:18
// EXPLAIN-NOT: had no effect
#endif
