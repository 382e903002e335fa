/*
 * layout_record.c — what a training run tells `respec layout` (layout/
 * SpecializedCode.h): which generic functions were the fallbacks of slots that
 * ran specialized code, and which implementations were plugged in.
 *
 * On only when RESPEC_LAYOUT_RECORD names a directory (respec layout sets it
 * for the training command). Each replug (respec_replug, its batched form and
 * respec_replug_async) to an implementation other than the slot's generic one
 * notes the pair; at exit the process writes
 * DIR/respec-slots.PID, a line per function:
 *
 *   fallback OFFSET MODULE       a slot's generic function
 *   specialized OFFSET MODULE    an implementation plugged into a slot
 *   specialized-outside          one in no loaded file (JIT code)
 *
 * OFFSET (hex) is from the module's load base (dladdr), so that the layout can
 * name the function from MODULE's symbol table whatever address it loaded at.
 * Off, it costs one load of a flag per replug. A forked child writes its own
 * record, of what the parent had noted and what it notes itself.
 */
#include "internal.h"

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct plugged {
	respec_fn generic, implementation;
};

static bool recording;
static char record_directory[PATH_MAX];
static pthread_mutex_t record_lock = PTHREAD_MUTEX_INITIALIZER;
static struct plugged *plugs;
static size_t plug_count, plug_capacity;

/* dl_iterate_phdr lists the main program first: its base, as dladdr gives it. */
static int note_main_program_base(struct dl_phdr_info *info, size_t size, void *base)
{
	(void)size;
	uintptr_t lowest = UINTPTR_MAX;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD && info->dlpi_phdr[i].p_vaddr < lowest)
			lowest = info->dlpi_phdr[i].p_vaddr;
	*(uintptr_t *)base = info->dlpi_addr + lowest;
	return 1; /* the first one only */
}

static void write_function(FILE *out, const char *kind, respec_fn fn, uintptr_t main_base)
{
	Dl_info info;
	if (!dladdr((void *)fn, &info) || !info.dli_fname) {
		fprintf(out, "%s-outside\n", kind);
		return;
	}
	/* dladdr names the main program as it was started (argv[0], relative to a
	 * directory the program may have left): name its file instead. */
	char module[PATH_MAX];
	bool named;
	if ((uintptr_t)info.dli_fbase == main_base) {
		ssize_t n = readlink("/proc/self/exe", module, sizeof module - 1);
		named = n > 0;
		if (named)
			module[n] = '\0';
	} else {
		named = realpath(info.dli_fname, module) != NULL;
	}
	if (!named) {
		fprintf(out, "%s-outside\n", kind);
		return;
	}
	fprintf(out, "%s %" PRIxPTR " %s\n", kind, (uintptr_t)fn - (uintptr_t)info.dli_fbase,
		module);
}

static void write_record(void)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof path, "%s/respec-slots.%ld", record_directory, (long)getpid());
	pthread_mutex_lock(&record_lock);
	if (plug_count == 0) {
		pthread_mutex_unlock(&record_lock);
		return;
	}
	FILE *out = fopen(path, "w");
	if (!out) {
		pthread_mutex_unlock(&record_lock);
		fprintf(stderr, "respec: cannot write the layout record %s\n", path);
		return;
	}
	fprintf(out, "# librespec slots of process %ld (RESPEC_LAYOUT_RECORD)\n", (long)getpid());
	uintptr_t main_base = 0;
	dl_iterate_phdr(note_main_program_base, &main_base);
	for (size_t i = 0; i < plug_count; i++) {
		write_function(out, "fallback", plugs[i].generic, main_base);
		write_function(out, "specialized", plugs[i].implementation, main_base);
	}
	pthread_mutex_unlock(&record_lock);
	fclose(out);
}

/* A child forked while another thread notes a plug must not inherit the lock held. */
static void lock_record(void)
{
	pthread_mutex_lock(&record_lock);
}

static void unlock_record(void)
{
	pthread_mutex_unlock(&record_lock);
}

void respec__layout_record_init(void)
{
	const char *directory = getenv("RESPEC_LAYOUT_RECORD");
	if (!directory || !directory[0] || strlen(directory) >= sizeof record_directory)
		return;
	strcpy(record_directory, directory);
	recording = true;
	pthread_atfork(lock_record, unlock_record, unlock_record);
	atexit(write_record);
}

void respec__layout_note_plug(respec_fn generic, respec_fn implementation)
{
	if (!recording || implementation == generic)
		return;
	pthread_mutex_lock(&record_lock);
	for (size_t i = 0; i < plug_count; i++) {
		if (plugs[i].generic == generic && plugs[i].implementation == implementation) {
			pthread_mutex_unlock(&record_lock);
			return;
		}
	}
	if (plug_count == plug_capacity) {
		size_t capacity = plug_capacity ? 2 * plug_capacity : 16;
		struct plugged *grown = realloc(plugs, capacity * sizeof *grown);
		if (!grown) { /* the record is a hint for the layout: drop it, never fail */
			pthread_mutex_unlock(&record_lock);
			return;
		}
		plugs = grown;
		plug_capacity = capacity;
	}
	plugs[plug_count++] = (struct plugged){generic, implementation};
	pthread_mutex_unlock(&record_lock);
}
