/*
 * lifecycle.c — one-time setup and fork().
 *
 * Setup (at load time through a constructor, or at the first slot or predicate
 * if that comes first): choose the process barrier, read RESPEC_STATS, install
 * the fork handlers.
 *
 * fork(): the prepare handler takes only locks that are never held while
 * waiting for callers (the reclaim queue, the registry), so forking from inside
 * a repluggable call, or while another thread replugs, cannot deadlock. The
 * child, where only the forking thread exists, then drops the other threads'
 * records, resets locks that dead threads may hold, and leaves any replug that
 * was cut short on the generic implementation. Both sides keep working: calls,
 * replugs and predicates behave as if the other threads had exited.
 */
#include "internal.h"

#include <stdlib.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void fork_prepare(void)
{
	respec__reclaim_fork_prepare();
	pthread_mutex_lock(&respec__registry_lock);
	respec__memguard_fork_prepare();
}

static void fork_parent(void)
{
	respec__memguard_fork_parent();
	pthread_mutex_unlock(&respec__registry_lock);
	respec__reclaim_fork_parent();
}

static void fork_child(void)
{
	respec__registry_fork_child();
	respec__slots_fork_child();
	respec__predicates_fork_child();
	respec__barrier_fork_child();
	respec__memguard_fork_child();
	respec__feedback_fork_child();
	pthread_mutex_unlock(&respec__registry_lock);
	respec__reclaim_fork_child();
}

static void init(void)
{
	respec__barrier_init();
	respec__stats_init();
	respec__layout_record_init();
	if (pthread_atfork(fork_prepare, fork_parent, fork_child) != 0)
		abort();
}

void respec__init(void)
{
	pthread_once(&init_once, init);
}

__attribute__((constructor)) static void init_at_load(void)
{
	respec__init();
}

bool respec__start_detached_thread(void *(*run)(void *))
{
	pthread_t thread;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	bool started = pthread_create(&thread, &attr, run, NULL) == 0;
	pthread_attr_destroy(&attr);
	return started;
}
