/*
 * reclaim.c — the back half of respec_replug_async(): the replaced
 * implementation's reclaim callback runs once no caller can still be inside it.
 *
 * Callbacks queue here. A reclaimer thread, started on the first async replug,
 * takes the whole queue as a batch, waits once for callers (one grace period
 * covers every EPOCH slot of the batch), and runs the callbacks.
 * respec_barrier() waits for everything queued before it, processing the batch
 * itself when the reclaimer is idle, which also keeps fork children (who have
 * no reclaimer until the next async replug) and programs that exit early tidy.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>

struct reclaim_item {
	struct reclaim_item *next;
	respec_slot *slot;
	respec_fn old;
	respec_reclaim_fn fn;
	void *arg;
};

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_changed = PTHREAD_COND_INITIALIZER;
static struct reclaim_item *queue_head, **queue_tail = &queue_head;
static uint64_t queued_total, reclaimed_total; /* items ever queued / run */
static bool batch_running, reclaimer_started;

/* Called and returns with queue_lock held; drops it while waiting. */
static void run_batch(void)
{
	struct reclaim_item *batch = queue_head;
	queue_head = NULL;
	queue_tail = &queue_head;
	batch_running = true;
	pthread_mutex_unlock(&queue_lock);

	uint64_t count = 0;
	bool epoch_wait = false;
	for (struct reclaim_item *item = batch; item; item = item->next) {
		count++;
		if (item->slot->protocol == RESPEC_PROTOCOL_EPOCH)
			epoch_wait = true;
		else
			respec__wait_for_callers(item->slot);
	}
	if (epoch_wait)
		respec__synchronize();
	while (batch) {
		struct reclaim_item *next = batch->next;
		batch->fn(batch->old, batch->arg);
		free(batch);
		batch = next;
	}

	pthread_mutex_lock(&queue_lock);
	batch_running = false;
	reclaimed_total += count;
	pthread_cond_broadcast(&queue_changed);
}

static void *reclaimer(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&queue_lock);
	for (;;) {
		while (!queue_head || batch_running)
			pthread_cond_wait(&queue_changed, &queue_lock);
		run_batch();
	}
	return NULL;
}

int respec__reclaim_enqueue(respec_slot *slot, respec_fn old, respec_reclaim_fn fn, void *arg)
{
	struct reclaim_item *item = malloc(sizeof *item);
	if (!item)
		return respec__fail(ENOMEM, "respec_replug_async: out of memory for the reclaim");
	*item = (struct reclaim_item){NULL, slot, old, fn, arg};
	pthread_mutex_lock(&queue_lock);
	*queue_tail = item;
	queue_tail = &item->next;
	queued_total++;
	/* Without a reclaimer, callbacks still run at respec_barrier(). */
	if (!reclaimer_started)
		reclaimer_started = respec__start_detached_thread(reclaimer);
	pthread_cond_broadcast(&queue_changed);
	pthread_mutex_unlock(&queue_lock);
	return 0;
}

void respec__reclaim_flush(void)
{
	pthread_mutex_lock(&queue_lock);
	uint64_t target = queued_total;
	while (reclaimed_total < target) {
		if (queue_head && !batch_running)
			run_batch();
		else
			pthread_cond_wait(&queue_changed, &queue_lock);
	}
	pthread_mutex_unlock(&queue_lock);
}

int respec_barrier(void)
{
	int err = respec__check_can_wait("respec_barrier");
	if (err)
		return err;
	respec__reclaim_flush();
	return 0;
}

void respec__reclaim_fork_prepare(void)
{
	pthread_mutex_lock(&queue_lock);
}

void respec__reclaim_fork_parent(void)
{
	pthread_mutex_unlock(&queue_lock);
}

/* The child has no reclaimer; a batch the parent's reclaimer was running stays
 * the parent's business (its callbacks do not run in the child). */
void respec__reclaim_fork_child(void)
{
	pthread_mutex_init(&queue_lock, NULL);
	pthread_cond_init(&queue_changed, NULL);
	uint64_t still_queued = 0;
	for (struct reclaim_item *item = queue_head; item; item = item->next)
		still_queued++;
	reclaimed_total = queued_total - still_queued;
	batch_running = false;
	reclaimer_started = false;
}
