/*
 * invariants.c — what is checked, cheaply, before a descriptor is specialized:
 * the facts every strategy relies on that the guard then keeps true.
 *
 *   FS_CONSTANT   a regular file on a local file system whose reads are page
 *                 cache reads (allow-list of f_type from fstatfs): never a pipe,
 *                 socket, tty, /proc or /sys file, FUSE, NFS, CIFS or 9p file,
 *                 whose data or size need not be what a mapping shows.
 *   READ_ONLY     opened O_RDONLY, without O_DIRECT (whose alignment errors
 *                 read(2) must report), O_PATH (read fails) or O_ASYNC.
 *   hard          statx attributes: STATX_ATTR_VERITY (fs-verity: the file can
 *   invariants    never be opened for writing again) and STATX_ATTR_IMMUTABLE
 *                 (undone only by CAP_LINUX_IMMUTABLE); F_GET_SEALS on tmpfs
 *                 (a memfd sealed against write, grow and shrink). A read-only
 *                 mount is deliberately not one: a read-only bind mount can show
 *                 a file that is written through another mount (a lease sees
 *                 those writers; the mount flag does not).
 *
 * Each check is one system call, made once per descriptor at the decision,
 * not at open: statx first (the cost model needs the size, and most declined
 * descriptors stop there), the rest only for a descriptor about to be
 * specialized.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#ifndef F2FS_SUPER_MAGIC
#define F2FS_SUPER_MAGIC 0xF2F52010
#endif
#ifndef EROFS_SUPER_MAGIC_V1
#define EROFS_SUPER_MAGIC_V1 0xE0F5E1E2
#endif
#ifndef STATX_ATTR_VERITY
#define STATX_ATTR_VERITY 0x00100000
#endif

/* Local file systems whose regular files are read through the page cache, so
 * that a shared mapping shows exactly what read(2) returns. */
static bool page_cache_file_system(long type)
{
	switch ((unsigned long)type) {
	case EXT4_SUPER_MAGIC: /* also ext2 and ext3 */
	case XFS_SUPER_MAGIC:
	case BTRFS_SUPER_MAGIC:
	case TMPFS_MAGIC:
	case F2FS_SUPER_MAGIC:
	case SQUASHFS_MAGIC:
	case EROFS_SUPER_MAGIC_V1:
	case OVERLAYFS_SUPER_MAGIC:
		return true;
	default:
		return false;
	}
}

static bool attribute(const struct statx *sx, uint64_t attr)
{
	return (sx->stx_attributes_mask & attr) && (sx->stx_attributes & attr);
}

const char *io_check_file(struct io_file *f, struct io_facts *facts)
{
	struct statx sx;
	if (statx(f->fd, "", AT_EMPTY_PATH, STATX_TYPE | STATX_SIZE | STATX_INO, &sx) != 0)
		return "statx failed";
	if (!S_ISREG(sx.stx_mode))
		return "not a regular file";
	*facts = (struct io_facts){
		.size = sx.stx_size,
		.dev = makedev(sx.stx_dev_major, sx.stx_dev_minor),
		.ino = sx.stx_ino,
		.immutable = attribute(&sx, STATX_ATTR_IMMUTABLE),
		.verity = attribute(&sx, STATX_ATTR_VERITY),
	};
	return NULL;
}

const char *io_check_placement(struct io_file *f, struct io_facts *facts)
{
	int flags = f->open_flags;
	if (flags < 0 && (flags = io_real.fcntl(f->fd, F_GETFL)) < 0)
		return "fcntl(F_GETFL) failed";
	if ((flags & O_ACCMODE) != O_RDONLY)
		return "not opened read-only";
	if (flags & (O_DIRECT | O_PATH | O_ASYNC))
		return "opened with O_DIRECT, O_PATH or O_ASYNC";
	struct statfs fs;
	if (fstatfs(f->fd, &fs) != 0)
		return "fstatfs failed";
	if (!page_cache_file_system(fs.f_type))
		return "not a local page-cache file system";
	if ((unsigned long)fs.f_type == TMPFS_MAGIC) {
		int seals = io_real.fcntl(f->fd, F_GET_SEALS);
		int all = F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW;
		facts->sealed = seals > 0 && (seals & all) == all;
	}
	return NULL;
}

const char *io_recheck_size(struct io_file *f, struct io_facts *facts)
{
	struct stat st;
	if (fstat(f->fd, &st) != 0)
		return "fstat failed";
	facts->size = (uint64_t)st.st_size;
	return NULL;
}
