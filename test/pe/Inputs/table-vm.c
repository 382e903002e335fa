/* A table-driven computation over a file-static, mutable table (the test
 * static-variable.c names it with respec_static_variable). */
struct step {
  int op, k;
};
static struct step table[] = {{1, 7}, {1, 5}, {0, 0}};

int run_table(int x) {
  for (const struct step *s = table;; s++)
    switch (s->op) {
    case 0:
      return x;
    case 1:
      x = x * s->k + 1;
      break;
    }
}

void set_table_factor(int i, int k) { table[i].k = k; }
