/* Generic code with state of its own (static-variables.c, errors/copied-static.c). */
static unsigned next;
unsigned new_id(void) { return ++next; }
unsigned new_ticket(void) { static unsigned counter = 100; return counter += 10; }
static unsigned scale = 3; /* never written: a copy holds the same value */
unsigned scaled(unsigned x) { return x * scale; }
