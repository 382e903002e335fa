/*
 * readme_example.c — the complete example of runtime/README.md, compiled and
 * run as a test so the documentation cannot rot. A file's read is specialized
 * on "the file is not shared" (predicate `file.private`); sharing the file
 * (a guarded store) replugs read back to generic before the field changes;
 * seeking (another guarded store) re-specializes read for the new offset.
 */
#include <respec/runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct file {
	respec_spid spid;   /* armed while a predicate covers this file */
	int shared;         /* predicate term: another descriptor refers to it */
	long offset;        /* predicate term: where the next read starts */
	const char *data;
};

static struct file the_file = {.data = "hello, specialized world"};
static respec_slot file_read;   /* long read(char *buf, long n) */
typedef long (*read_fn)(char *buf, long n);

/* Generic: correct whatever the state; must lock, look things up, ... */
static long read_generic(char *buf, long n)
{
	long left = (long)strlen(the_file.data) - the_file.offset;
	if (n > left)
		n = left;
	memcpy(buf, the_file.data + the_file.offset, (size_t)n);
	the_file.offset += n;
	return n;
}

/* Specialized on "not shared, reading from the current offset": a run-time
 * specializer would bake the cursor in; here it is one pointer, kept up to date
 * by the respecialize callback. Single-reader, so no locking. */
static const char *cursor;
static long read_private(char *buf, long n)
{
	long i = 0;
	while (i < n && cursor[i])
		buf[i] = cursor[i], i++;
	cursor += i;
	the_file.offset += i;
	return i;
}

/* Incremental specialization (Synthetix's lseek): after a guarded store the
 * offset has its new value; keep read specialized unless the file is shared. */
static respec_fn respecialize_read(respec_predicate *pred, respec_slot *slot, void *arg)
{
	(void)pred, (void)slot;
	struct file *f = arg;
	if (f->shared)
		return NULL;                 /* stay generic */
	cursor = f->data + f->offset;
	return RESPEC_FN(read_private);
}

static void file_seek(struct file *f, long offset)
{
	RESPEC_GUARDED_STORE(f->spid, f->offset, offset);
}

static void file_share(struct file *f)
{
	RESPEC_GUARDED_STORE(f->spid, f->shared, 1);
}

int main(void)
{
	char buf[8] = {0};
	if (respec_slot_init(&file_read, "file.read", RESPEC_PROTOCOL_DEFAULT,
			     RESPEC_FN(read_generic)) != 0) {
		fprintf(stderr, "%s\n", respec_last_error());
		return 1;
	}
	respec_predicate *private_file = respec_predicate_create("file.private");
	respec_predicate_add_slot(private_file, &file_read, RESPEC_FN(read_private));
	respec_predicate_watch(private_file, &the_file.spid);
	respec_predicate_set_respecialize(private_file, respecialize_read, &the_file);

	/* Binding phase ("open"): check the terms, then establish. */
	cursor = the_file.data + the_file.offset;
	respec_predicate_establish(private_file);

	long n = RESPEC_CALL(&file_read, read_fn, buf, 5);        /* read_private */
	printf("read %ld: %.5s\n", n, buf);
	file_seek(&the_file, 7);                                   /* re-specialized */
	n = RESPEC_CALL(&file_read, read_fn, buf, 6);             /* read_private */
	printf("read %ld: %.6s\n", n, buf);
	file_share(&the_file);                                     /* back to generic */
	n = RESPEC_CALL(&file_read, read_fn, buf, 6);             /* read_generic */
	printf("read %ld: %.6s (offset %ld, specialized: %s)\n", n, buf, the_file.offset,
	       respec_predicate_holds(private_file) ? "yes" : "no");

	respec_slot_stats stats;
	respec_slot_get_stats(&file_read, &stats);
	printf("%llu replugs, %llu by invalidation\n", (unsigned long long)stats.replugs,
	       (unsigned long long)stats.invalidations);
	if (strncmp(buf, "lized ", 6) != 0 || the_file.offset != 19 ||
	    respec_predicate_holds(private_file) || stats.invalidations != 2)
		return 1;
	return 0;
}
