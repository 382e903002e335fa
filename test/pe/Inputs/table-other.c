/* Another file-static `table`: the name alone does not say which one. */
static int table[2] = {3, 4};

int other_table(int i) { return table[i & 1]; }
