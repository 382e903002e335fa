/*
 * loader_dirs.h — where the dynamic loader finds a needed library: first the
 * directories the needing file names itself (DT_RPATH unless it has a
 * DT_RUNPATH, LD_LIBRARY_PATH, DT_RUNPATH; $ORIGIN expanded), then
 * /etc/ld.so.conf's directories (its `include` lines followed), then the
 * system's. Shared by `respec link` (Client.h) and the audit module (audit.c),
 * so that both find a program's libraries alike. C11.
 */
#include <stddef.h>
#ifndef RESPEC_LINK_LOADER_DIRS_H
#define RESPEC_LINK_LOADER_DIRS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Calls visit(dir, context) for each directory, in the loader's order. */
void link_loader_dirs(void (*visit)(const char *dir, void *context), void *context);

/* The file the loader would load for the DT_NEEDED entry `name` of the file at
 * `needed_by`, whose DT_RPATH and DT_RUNPATH are `rpath` and `runpath` (NULL
 * when absent): looked for in those (and LD_LIBRARY_PATH), then in `dirs` (the
 * loader's directories, or respec link's: the link's own first). A name with a
 * slash is the path itself. Returns a malloc'ed path, or NULL if no readable
 * file is found, or if a directory the loader would search first cannot be
 * known here ($LIB, $PLATFORM): the caller counts the library as unread. */
char *link_find_needed(const char *name, const char *needed_by, const char *rpath,
		       const char *runpath, const char *const *dirs, size_t dir_count);

#ifdef __cplusplus
}
#endif

#endif /* RESPEC_LINK_LOADER_DIRS_H */
