/* A library that gives its definitions other names, as C libraries do with
 * weak_alias (aliases.c). */
int twice(int x) { return 2 * x; }
extern int twice_r(int) __attribute__((weak, alias("twice")));
static int quadruple(int x) { return twice(twice(x)); }
extern int quadruple_alias(int) __attribute__((alias("quadruple")));
int total;
extern int total_alias __attribute__((alias("total")));
int add(int x) { return total += x; }
