// Variadic callees are unfolded (pe/VariadicArguments.cpp): the call's variadic
// arguments are laid out as the x86-64 ABI lays them out, static ones static,
// and clang's inline va_arg code folds on them. Each spec is checked twice: its
// IR (what folded), and its results against the generic build on many inputs.
//
// RUN: %respec specialize %s -O1 --emit-llvm -o %t.ll 2> %t.notes
// RUN: %FileCheck %s < %t.ll
// RUN: %FileCheck --check-prefix=NOTE %s < %t.notes
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %FileCheck --check-prefix=OUT %s < %t/specialized.out
#include <respec/respec.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

struct big { long a, b, c; };

long sum3(int a, int b, int c);
long sum_upto(unsigned n, int a, int b, int c);
double mixed(int i0, long l1, double d0, int *p);
double many(int a, double x);
int format_point(char *buf, size_t size, int x, int y);
int format_record(char *buf, size_t size, unsigned id, const char *name, char tag);
int chars(char *buf, char a, char b);
int dynamic_format(char *buf, size_t size, const char *f, int x, const char *s);
int through_libc(char *buf, size_t size, int x, const char *s);
long copied(int a, int b);
int char_then_int(char c, int x);
long pointer_to_local(int a);
long struct_by_value(long a);
long variadic_spec(int n, ...);

#ifndef MAIN
// n ints; the count decides how many are read.
static long sum_ints(unsigned n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (unsigned i = 0; i < n; i++)
    s += va_arg(ap, int);
  va_end(ap);
  return s;
}

// Static count, dynamic arguments: the loop, the va_list and the ABI's
// register-or-memory choice are gone.
// CHECK-LABEL: define {{.*}} @sum3(
// CHECK-NOT: {{call|alloca|br }}
// CHECK: ret i64
RESPEC_SPECIALIZE long sum3(int a, int b, int c) { return sum_ints(3, a, b, c); }

// A dynamic count: the loop stays, and reads the real argument area.
// CHECK-LABEL: define {{.*}} @sum_upto(
// CHECK: br
RESPEC_SPECIALIZE long sum_upto(unsigned n, int a, int b, int c) {
  return sum_ints(n & 3, a, b, c);
}

// A static description of the arguments: 'i' int, 'l' long, 'p' pointer to
// int, 'd' double. More than six integers and more than eight doubles: the
// rest are in the overflow area.
static double by_kinds(const char *kinds, ...) {
  va_list ap;
  va_start(ap, kinds);
  double s = 0;
  for (const char *k = kinds; *k; k++) {
    switch (*k) {
    case 'i': s = s * 3 + va_arg(ap, int); break;
    case 'l': s = s * 3 + (double)va_arg(ap, long); break;
    case 'p': s = s * 3 + *va_arg(ap, int *); break;
    case 'd': s = s * 3 + va_arg(ap, double); break;
    }
  }
  va_end(ap);
  return s;
}

// Static and dynamic arguments mixed, of every kind.
// CHECK-LABEL: define {{.*}} @mixed(
// CHECK-NOT: {{@by_kinds|alloca|br }}
// CHECK: ret double
RESPEC_SPECIALIZE double mixed(int i0, long l1, double d0, int *p) {
  return by_kinds("ildpdilpd", i0, l1, d0, p, 0.5, -7, 1L << 40, p, d0 * 2);
}

// Nine ints and ten doubles: three ints and two doubles in the overflow area,
// interleaved there in argument order.
// CHECK-LABEL: define {{.*}} @many(
// CHECK-NOT: {{@by_kinds|alloca|br }}
// CHECK: ret double
RESPEC_SPECIALIZE double many(int a, double x) {
  return by_kinds("iidddiiddddiddddiii", a, 1, x, 2.0, x, a, 3, x, 4.0, 0.25, x, a, 5.0, x,
                  -1.5, x, a, -9, a);
}

// A formatter in the style of printf: %d %u %x %s %c, a width, '-' and '0'.
static void put(char *buf, size_t size, size_t *at, char c) {
  if (*at + 1 < size)
    buf[*at] = c;
  ++*at;
}

static void put_number(char *buf, size_t size, size_t *at, unsigned long v, unsigned base,
                       int negative, int width, int left, char pad) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v);
  if (negative)
    digits[n++] = '-';
  int length = n;
  if (!left)
    for (int w = length; w < width; w++)
      put(buf, size, at, pad);
  while (n)
    put(buf, size, at, digits[--n]);
  if (left)
    for (int w = length; w < width; w++)
      put(buf, size, at, ' ');
}

static int vformat(char *buf, size_t size, const char *f, va_list ap) {
  size_t at = 0;
  for (; *f; f++) {
    if (*f != '%') {
      put(buf, size, &at, *f);
      continue;
    }
    int left = 0, width = 0;
    char pad = ' ';
    if (*++f == '-')
      left = 1, f++;
    if (*f == '0')
      pad = '0', f++;
    while (*f >= '0' && *f <= '9')
      width = width * 10 + (*f++ - '0');
    switch (*f) {
    case 'd': {
      int v = va_arg(ap, int);
      put_number(buf, size, &at, v < 0 ? -(unsigned long)v : (unsigned long)v, 10, v < 0,
                 width, left, pad);
      break;
    }
    case 'u': put_number(buf, size, &at, va_arg(ap, unsigned), 10, 0, width, left, pad); break;
    case 'x': put_number(buf, size, &at, va_arg(ap, unsigned), 16, 0, width, left, pad); break;
    case 'c': put(buf, size, &at, (char)va_arg(ap, int)); break;
    case 's': {
      const char *s = va_arg(ap, const char *);
      int length = 0;
      while (s[length])
        length++;
      for (int w = length; w < width && !left; w++)
        put(buf, size, &at, ' ');
      for (int i = 0; i < length; i++)
        put(buf, size, &at, s[i]);
      for (int w = length; w < width && left; w++)
        put(buf, size, &at, ' ');
      break;
    }
    default: put(buf, size, &at, *f); break;
    }
  }
  if (size)
    buf[at < size ? at : size - 1] = 0;
  return (int)at;
}

// The va_list goes to a v-function that is unfolded too.
static int format(char *buf, size_t size, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vformat(buf, size, f, ap);
  va_end(ap);
  return n;
}

// CHECK-LABEL: define {{.*}} @format_point(
// CHECK-NOT: call
// CHECK: ret i32
RESPEC_SPECIALIZE int format_point(char *buf, size_t size, int x, int y) {
  return format(buf, size, "(%d, %d)", x, y);
}

RESPEC_SPECIALIZE int format_record(char *buf, size_t size, unsigned id, const char *name,
                                    char tag) {
  return format(buf, size, "%08x:%-6s|%c %5u/%u %s", id, name, tag, id % 1000, 7u, "end");
}

// A dynamic format: the formatter's loop stays, its va_arg code reads the
// va_list and the argument areas at run time.
// CHECK-LABEL: define {{.*}} @dynamic_format(
// CHECK: br
RESPEC_SPECIALIZE int dynamic_format(char *buf, size_t size, const char *f, int x,
                                     const char *s) {
  return format(buf, size, f, x, s, 'q', x, 7u);
}

// Only static control: straight-line code.
// CHECK-LABEL: define {{.*}} @chars(
// CHECK-NOT: {{call|br }}
// CHECK: ret i32 3
RESPEC_SPECIALIZE int chars(char *buf, char a, char b) {
  return format(buf, 8, "%c=%c", a, b);
}

// The va_list goes to a v-function that is not unfolded (the C library's): it
// gets a pointer to a va_list whose areas hold the real arguments.
static int via_libc(char *buf, size_t size, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(buf, size, f, ap);
  va_end(ap);
  return n;
}

// CHECK-LABEL: define {{.*}} @through_libc(
// CHECK: call {{.*}}@vsnprintf(
RESPEC_SPECIALIZE int through_libc(char *buf, size_t size, int x, const char *s) {
  return via_libc(buf, size, "%d %s %d %g|%d %d %d %d %d %g", x, s, 12, 0.5, x, x, x, x, x, 2.5);
}

// va_copy: two passes over the same arguments.
static long twice(int n, ...) {
  va_list ap, again;
  va_start(ap, n);
  va_copy(again, ap);
  long s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, int);
  for (int i = 0; i < n; i++)
    s = s * 10 + va_arg(again, int);
  va_end(again);
  va_end(ap);
  return s;
}

// CHECK-LABEL: define {{.*}} @copied(
// CHECK-NOT: {{call|alloca|br }}
// CHECK: ret i64
RESPEC_SPECIALIZE long copied(int a, int b) { return twice(3, a, 4, b); }

// A named char takes a register like an int: the variadic arguments come after.
static int after_char(char c, ...) {
  va_list ap;
  va_start(ap, c);
  int r = c + 100 * va_arg(ap, int);
  va_end(ap);
  return r;
}

// CHECK-LABEL: define {{.*}} @char_then_int(
// CHECK-NOT: {{call|alloca|br }}
// CHECK: ret i32
RESPEC_SPECIALIZE int char_then_int(char c, int x) { return after_char(c, x); }

// A pointer to a local, passed variadically, stays a known pointer.
static long deref_sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  while (n--)
    s += *va_arg(ap, long *);
  va_end(ap);
  return s;
}

// CHECK-LABEL: define {{.*}} @pointer_to_local(
// CHECK-NOT: {{call|alloca|br }}
// CHECK: ret i64
RESPEC_SPECIALIZE long pointer_to_local(int a) {
  long x = 40, y = a;
  return deref_sum(2, &x, &y);
}

// A struct passed by value in memory is not laid out: the call stays.
static long first_field(int n, ...) {
  va_list ap;
  va_start(ap, n);
  struct big b = va_arg(ap, struct big);
  va_end(ap);
  return b.a + n;
}

// NOTE: note: call to 'first_field' kept residual: variadic argument of a type whose place respec does not lay out (by value in memory)
// CHECK-LABEL: define {{.*}} @struct_by_value(
// CHECK: call {{.*}}@first_field(
RESPEC_SPECIALIZE long struct_by_value(long a) {
  struct big b = {a, 2, 3};
  return first_field(1, b);
}

// The spec function itself may be variadic: its va_start stays, in a residual
// function that is variadic too.
// CHECK-LABEL: define {{.*}} @variadic_spec(i32 {{.*}}, ...)
// CHECK: call void @llvm.va_start
RESPEC_SPECIALIZE long variadic_spec(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, long);
  va_end(ap);
  return s;
}

#else
#include <limits.h>
#include <string.h>

static unsigned long long seed = 88172645463325252ull;
static unsigned rnd(void) {
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return (unsigned)seed;
}
static int interesting(void) {
  static const int values[] = {0, 1, -1, 7, INT_MIN, INT_MAX, -1000000, 99999};
  return rnd() % 2 ? values[rnd() % 8] : (int)rnd();
}

static void show(const char *what, int n, const char *buf) {
  printf("%s %d \"%s\"\n", what, n, buf);
}

int main(void) {
  int ok = 1;
  for (int round = 0; round < 2000; round++) {
    int a = interesting(), b = interesting(), c = interesting();
    printf("%ld %ld %ld\n", sum3(a, b, c), sum_upto(rnd(), a, b, c), copied(a, b));
    int v = a;
    printf("%.17g %.17g %ld\n", mixed(a, (long)b << 20, c / 3.0, &v), many(b, a / 7.0),
           pointer_to_local(c));
    char buf[64];
    const char *names[] = {"", "x", "abcdef", "a long name that overflows widths"};
    // Buffer sizes 0..40 cover truncation at every position.
    size_t size = rnd() % 41;
    memset(buf, '#', sizeof buf);
    show("point", format_point(buf, size, a, b), size ? buf : "-");
    memset(buf, '#', sizeof buf);
    size = rnd() % 41;
    show("record", format_record(buf, size, (unsigned)c, names[rnd() % 4], 'A' + rnd() % 26),
         size ? buf : "-");
    // Formats that read a prefix of (int, char *, char, int, unsigned).
    const char *formats[] = {"%d %s %c %d %u", "[%5d] %-8s", "%x|%s|%c|%08x", "", "%d"};
    memset(buf, '#', sizeof buf);
    size = rnd() % 41;
    show("dynamic", dynamic_format(buf, size, formats[rnd() % 5], a, names[rnd() % 4]),
         size ? buf : "-");
    memset(buf, '#', sizeof buf);
    show("chars", chars(buf, 'a' + rnd() % 26, '0' + rnd() % 10), buf);
    memset(buf, '#', sizeof buf);
    size = rnd() % 64;
    show("libc", through_libc(buf, size, a, names[rnd() % 4]), size ? buf : "-");
    printf("%ld %ld %d\n", struct_by_value(a), variadic_spec(3, (long)a, (long)b, (long)c),
           char_then_int((char)b, c % 1000));
  }
  // The generic and the specialized build print the same: this line checks
  // that the program ran to the end, and one known value.
  char buf[32];
  format_record(buf, sizeof buf, 0xbeef, "ab", 'z');
  printf("done %s\n", buf);
  return !ok;
}
// OUT: done 0000beef:ab    |z   879/7 end
#endif
