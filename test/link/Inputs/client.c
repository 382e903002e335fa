/* A client of tally: adds 1..N and prints the total, the locks the library
 * took and its build. -DTHREADS: then starts a second thread, created with
 * pthread_create (a reference) or, with -DHIDDEN, through dlsym (none), and
 * both add 1..N again. */
#include "tally.h"
#include <stdio.h>
#ifdef HIDDEN
#include <dlfcn.h>
#endif
#ifdef QUIET
#include <respec/link.h>
RESPEC_PROPERTY("quiet");
#endif

enum { N = 1000 };
static struct tally shared;

static void *add_all(void *unused)
{
	(void)unused;
	for (long i = 1; i <= N; i++)
		tally_add(&shared, i);
	return NULL;
}

int main(void)
{
	tally_init(&shared);
	add_all(NULL);
#ifdef THREADS
	typedef int create_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
#ifdef HIDDEN
	create_fn *create = (create_fn *)dlsym(RTLD_DEFAULT, "pthread_create");
#else
	create_fn *create = pthread_create;
#endif
	pthread_t other;
	if (create(&other, NULL, add_all, NULL) != 0)
		return 1;
	add_all(NULL);
	pthread_join(other, NULL);
#endif
	printf("total %ld locks %ld build %s\n", shared.total, tally_locks_taken(), tally_build());
	return 0;
}
