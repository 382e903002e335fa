// A residual call of a function declared RESPEC_PURE forgets nothing and lets
// nothing escape (unless it returns a pointer): a static field of an escaped
// local stays static after it, a local buffer passed to it stays private. The
// same code calling an undeclared twin loses both. Each spec also runs, against
// its generic build.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %respec specialize %s -O0 --emit-llvm -o %t/spec.ll -q
// RUN: %FileCheck %s < %t/spec.ll
// RUN: %respec specialize %s -o %t/spec.o -q
// RUN: %clang -O2 -I%inc -c %s -o %t/generic.o
// RUN: %clang -O2 -I%inc -DMAIN %s %t/spec.o -o %t/specialized
// RUN: %clang -O2 -I%inc -DMAIN %s %t/generic.o -o %t/generic
// RUN: %t/specialized > %t/specialized.out
// RUN: %t/generic > %t/generic.out
// RUN: diff %t/specialized.out %t/generic.out
// RUN: %FileCheck --check-prefix=OUT %s < %t/specialized.out
#include <respec/respec.h>
#include <stddef.h>

/* Elsewhere (not given to respec), without attributes. */
unsigned long ext_hash(const char *s, size_t n);
unsigned long ext_hash_undeclared(const char *s, size_t n);
char *ext_find(char *s, int c);
void ext_observe(void *p);
void ext_touch(void);

RESPEC_PURE(ext_hash);
RESPEC_PURE(ext_find);

struct state {
	int mode;
	int count;
};

unsigned long escaped_field_kept(const char *in, size_t n);
unsigned long escaped_field_lost(const char *in, size_t n);
int buffer_stays_private(size_t n);
int pointer_result_escapes(int c);

#ifdef MAIN
#include <stdio.h>
static void *observed;
void ext_observe(void *p) { observed = p; }
/* Writes through what it was shown before: the generic code may not assume
 * that a local it showed ext_observe is unchanged after ext_touch. */
void ext_touch(void)
{
	if (observed)
		((struct state *)observed)->count += 1;
}
unsigned long ext_hash(const char *s, size_t n)
{
	unsigned long h = 5381;
	for (size_t i = 0; i < n && s[i]; i++)
		h = h * 33 + (unsigned char)s[i];
	return h;
}
unsigned long ext_hash_undeclared(const char *s, size_t n)
{
	if (observed)
		((struct state *)observed)->mode = 7;
	return ext_hash(s, n);
}
char *ext_find(char *s, int c)
{
	for (; *s; s++)
		if (*s == (char)c)
			return s;
	return 0;
}
int main(void)
{
	// OUT: kept 5863208 lost 0 private 193485963 escapes 120 98
	observed = 0;
	unsigned long kept = escaped_field_kept("ab", 2);
	observed = 0;
	unsigned long lost = escaped_field_lost("ab", 2);
	observed = 0;
	printf("kept %lu lost %lu private %d escapes %d %d\n", kept, lost,
	       buffer_stays_private(3), pointer_result_escapes('b'), pointer_result_escapes('z'));
	return 0;
}
#else

// CHECK-LABEL: define {{.*}} @escaped_field_kept(
// CHECK: call void @ext_observe(
// CHECK: call i64 @ext_hash({{.*}}) #[[PURE:[0-9]+]]
// CHECK-NOT: load
// CHECK: ret i64
RESPEC_SPECIALIZE unsigned long escaped_field_kept(const char *in, size_t n)
{
	struct state s = {1, 2};
	ext_observe(&s);
	s.mode = 3;
	unsigned long h = ext_hash(in, n);
	return s.mode == 3 ? h : 0;
}

// The same with a function of unknown effects: the field is read at run time.
// CHECK-LABEL: define {{.*}} @escaped_field_lost(
// CHECK: call i64 @ext_hash_undeclared(
// CHECK: load i32
// CHECK: ret i64
RESPEC_SPECIALIZE unsigned long escaped_field_lost(const char *in, size_t n)
{
	struct state s = {1, 2};
	ext_observe(&s);
	s.mode = 3;
	unsigned long h = ext_hash_undeclared(in, n);
	return s.mode == 3 ? h : 0;
}

// The buffer does not escape into ext_hash: ext_touch cannot reach it.
// CHECK-LABEL: define {{.*}} @buffer_stays_private(
// CHECK: call i64 @ext_hash(
// CHECK: call void @ext_touch(
// CHECK-NOT: load
// CHECK: ret i32
RESPEC_SPECIALIZE int buffer_stays_private(size_t n)
{
	char buf[4] = {'a', 'b', 'c', 0};
	unsigned long h = ext_hash(buf, n);
	ext_touch();
	return buf[1] == 'b' ? (int)(h & 0x7fffffff) : -1;
}

// A pointer result may point into the buffer: a write through it is seen.
// CHECK-LABEL: define {{.*}} @pointer_result_escapes(
// CHECK: call ptr @ext_find(
// CHECK: load i8
// CHECK: ret i32
RESPEC_SPECIALIZE int pointer_result_escapes(int c)
{
	char buf[4] = {'a', 'b', 'c', 0};
	char *p = ext_find(buf, c);
	if (p)
		*p = 'x';
	return buf[1];
}

// CHECK: attributes #[[PURE]] = { nounwind willreturn memory(read) }
#endif
