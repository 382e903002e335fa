#include "vm.h"
#include <stdio.h>
#include <stdlib.h>

static const struct insn program[] = {{1, 3}, {2, 0}, {3, 7}, {2, 0}, {1, 1}, {0, 0}};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int64_t total = 0;
  for (int i = 0; i < n; i++)
    total += run(program, i);
  printf("%lld\n", (long long)total);
  return 0;
}
