/* A second source for alias-external.c: it defines lib_init. */
struct client { void *auth; };
void lib_init(struct client *c) { c->auth = 0; }
