/*
 * watchpoint.c — MemGuard's hardware-watchpoint backend: perf_event_open(2)
 * breakpoints (PERF_TYPE_BREAKPOINT, HW_BREAKPOINT_W) that send a synchronous
 * SIGTRAP to the writing thread (perf_event_attr.sigtrap, Linux >= 5.13; the
 * older F_SETSIG/O_ASYNC route delivers through the event's fd and is not
 * synchronous with the store, so it is not used).
 *
 * A breakpoint covers an aligned 1, 2, 4 or 8 bytes, so a term is cut into
 * such pieces, and a perf event watches one thread: each piece gets an event
 * on every thread of the process, with inherit + inherit_thread so that the
 * threads a watched thread creates later get a copy (fork children do not).
 * Enabling or disabling the event we opened also switches its inherited
 * copies. The debug registers are per thread (4 on x86-64); when they run out
 * the kernel says ENOSPC and the watch falls back to pages.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int open_breakpoint(uintptr_t addr, unsigned len, pid_t tid)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof attr);
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof attr;
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = addr;
	attr.bp_len = len;
	attr.sample_period = 1;
	attr.disabled = 1; /* armed with the predicate */
	attr.inherit = 1;
	attr.inherit_thread = 1;
	attr.remove_on_exec = 1; /* required with sigtrap */
	attr.sigtrap = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static char probe_result[160];
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

static void probe(void)
{
	/* Leaves the debug registers to a debugger, and lets tests run the
	 * fallback as on a machine without watchpoints. */
	const char *setting = getenv("RESPEC_MEMGUARD_WATCHPOINTS");
	if (setting && strcmp(setting, "off") == 0) {
		snprintf(probe_result, sizeof probe_result, "disabled by RESPEC_MEMGUARD_WATCHPOINTS=off");
		return;
	}
	static long probe_target;
	int fd = open_breakpoint((uintptr_t)&probe_target, HW_BREAKPOINT_LEN_8, 0);
	if (fd >= 0) {
		close(fd);
		return;
	}
	snprintf(probe_result, sizeof probe_result,
		 "perf_event_open(PERF_TYPE_BREAKPOINT, HW_BREAKPOINT_W, sigtrap) failed: %s",
		 strerror(errno));
}

const char *respec_memguard_watchpoints_unavailable(void)
{
	pthread_once(&probe_once, probe);
	return probe_result[0] ? probe_result : NULL;
}

/* The aligned pieces of [start, start + len), largest first at each offset. */
static size_t pieces(uintptr_t start, size_t len, uintptr_t *addrs, unsigned *lens, size_t max)
{
	size_t n = 0;
	for (uintptr_t a = start, end = start + len; a < end; n++) {
		unsigned l = 8;
		while (l > 1 && (a % l != 0 || a + l > end))
			l /= 2;
		if (n == max)
			return max + 1;
		addrs[n] = a;
		lens[n] = l;
		a += l;
	}
	return n;
}

struct int_list { /* descriptors, or thread ids */
	int *values;
	size_t count, capacity;
};

static bool push_int(struct int_list *list, int value)
{
	if (list->count == list->capacity) {
		size_t capacity = list->capacity ? 2 * list->capacity : 16;
		int *bigger = realloc(list->values, capacity * sizeof *bigger);
		if (!bigger)
			return false;
		list->values = bigger;
		list->capacity = capacity;
	}
	list->values[list->count++] = value;
	return true;
}

static bool seen(const struct int_list *tids, pid_t tid)
{
	for (size_t i = 0; i < tids->count; i++)
		if (tids->values[i] == tid)
			return true;
	return false;
}

/*
 * Opens the pieces' events on every thread. A thread created while we walk is
 * either listed by a later pass or created by a thread already watched (then it
 * inherited the events), so passes repeat until one finds no new thread.
 */
int respec__watchpoints_open(uintptr_t start, size_t len, int **fds_out, size_t *count_out)
{
	const char *unavailable = respec_memguard_watchpoints_unavailable();
	if (unavailable)
		return respec__fail(ENOTSUP, "respec_memguard_watch: no hardware watchpoints: %s",
				    unavailable);
	enum { MAX_PIECES = 4 }; /* x86-64 debug registers */
	uintptr_t addrs[MAX_PIECES];
	unsigned lens[MAX_PIECES];
	size_t npieces = pieces(start, len, addrs, lens, MAX_PIECES);
	if (npieces > MAX_PIECES)
		return respec__fail(ENOSPC, "respec_memguard_watch: %zu bytes need more than %d "
					    "watchpoints", len, MAX_PIECES);
	struct int_list list = {0}, tids = {0};
	int err = 0;
	for (bool found_new = true; found_new && !err;) {
		found_new = false;
		DIR *dir = opendir("/proc/self/task");
		if (!dir) {
			err = respec__fail(errno, "respec_memguard_watch: /proc/self/task: %s", strerror(errno));
			break;
		}
		for (struct dirent *e; !err && (e = readdir(dir));) {
			pid_t tid = (pid_t)atoi(e->d_name);
			if (tid <= 0 || seen(&tids, tid))
				continue;
			if (!push_int(&tids, tid)) {
				err = respec__fail(ENOMEM, "respec_memguard_watch: out of memory");
				break;
			}
			found_new = true;
			for (size_t i = 0; i < npieces && !err; i++) {
				int fd = open_breakpoint(addrs[i], lens[i], tid);
				if (fd < 0 && errno == ESRCH) /* the thread has exited */
					break;
				if (fd < 0)
					err = respec__fail(errno, "respec_memguard_watch: breakpoint on thread "
								  "%d: %s", (int)tid, strerror(errno));
				else if (!push_int(&list, fd)) {
					close(fd);
					err = respec__fail(ENOMEM, "respec_memguard_watch: out of memory");
				}
			}
		}
		closedir(dir);
	}
	free(tids.values);
	if (err) {
		respec__watchpoints_close(list.values, list.count);
		free(list.values);
		return err;
	}
	*fds_out = list.values;
	*count_out = list.count;
	return 0;
}

void respec__watchpoints_enable(const int *fds, size_t count, bool on)
{
	for (size_t i = 0; i < count; i++)
		ioctl(fds[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

void respec__watchpoints_close(const int *fds, size_t count)
{
	for (size_t i = 0; i < count; i++)
		close(fds[i]);
}
