// Functions whose IR arguments are not their C parameters, functions the
// instrumentation must not enter, pointers of another address space, and a
// fork: the program runs correctly, and the profile names only C parameters.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c '%clang -O2 $(%respec profile --cflags) $(%respec profile --ldflags) %s -o %t/program'
// RUN: env RESPEC_PROFILE_OUT=%t/profile.%%p.txt %t/program
// RUN: sh -c 'cat %t/profile.*.txt' | FileCheck %s
// RUN: sh -c 'cat %t/profile.*.txt' | FileCheck %s --check-prefix=ABSENT
//
// A struct returned through memory (a hidden first argument): its function gets
// a call count and no site for the hidden argument (whose index would be the
// ABI's, not C's). A struct passed in one register is no parameter site either; the
// integer beside it is.
// ABSENT-NOT: param{{.}}use_pair{{.}}{{[^[:space:]]+}}{{.}}{{[a-z0-9]+}}{{.}}0{{.}}
// ABSENT-NOT: {{.}}identity{{.}}
// ABSENT-NOT: region{{.}}read_gs{{.}}
// CHECK-DAG: param{{.}}use_pair{{.}}{{.*}}{{.}}op{{.}}1{{.}}int{{.}}100
// Its parameters keep their C indices and names: x is the first (0 to 99 over
// the calls; the hidden argument would have been one stack address), and a
// field read through the second is a site:
// CHECK-DAG: param{{.}}make_big{{.}}{{.*}}{{.}}x{{.}}0{{.}}int{{.}}100{{.}}99{{.}}
// CHECK-DAG: param{{.}}make_big{{.}}{{.*}}{{.}}config{{.}}1{{.}}const struct config *{{.}}100
// CHECK-DAG: field{{.}}make_big{{.}}{{.*}}{{.}}config->scale{{.}}config+0{{.}}int{{.}}100{{.}}0{{.}}2:100:0
// The parent and the forked child each count their own calls of work().
// CHECK-DAG: call{{.}}work{{.*}}{{.}}1000{{$}}
// CHECK-DAG: call{{.}}work{{.*}}{{.}}10{{$}}
// CHECK-DAG: param{{.}}work{{.}}{{.*}}{{.}}kind{{.}}0{{.}}int{{.}}1000{{.}}0{{.}}3:1000:0
// CHECK-DAG: param{{.}}work{{.}}{{.*}}{{.}}kind{{.}}0{{.}}int{{.}}10{{.}}0{{.}}3:10:0
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

struct big { long a, b, c, d; };
struct config { int scale; };
struct pair { int x, y; };

__attribute__((noinline)) struct big make_big(int x, const struct config *config) {
  struct big b = {x, config->scale, x + config->scale, x - config->scale};
  return b;
}

__attribute__((noinline)) long use_pair(struct pair p, int op) {
  return op ? p.x + p.y : p.x - p.y;
}

// No frame to call the runtime from: left alone.
__attribute__((naked, noinline)) int identity(int x) {
  __asm__("movl %edi, %eax\n\tret");
}

// A pointer of another address space: no site the runtime's hooks could take.
__attribute__((noinline)) int read_gs(int __attribute__((address_space(256))) *p, int i) {
  return i < 0 ? p[i] : i;
}

__attribute__((noinline)) int work(int kind, int value) { return kind * value; }

int main(void) {
  long sum = 0;
  static const struct config config = {2};
  for (int i = 0; i < 100; i++) {
    struct big b = make_big(i, &config);
    struct pair p = {i, 3};
    sum += b.c + use_pair(p, i & 1) + read_gs(0, i);
    if (identity(i) != i) {
      fprintf(stderr, "naked function broken\n");
      return 1;
    }
  }
  pid_t child = fork();
  int calls = child == 0 ? 10 : 1000;
  for (int i = 0; i < calls; i++)
    sum += work(3, i);
  if (child == 0)
    exit(0);
  int status;
  waitpid(child, &status, 0);
  printf("%ld\n", sum);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
