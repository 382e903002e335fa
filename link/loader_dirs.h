/*
 * loader_dirs.h — where the dynamic loader looks for a library after the
 * directories a file names itself (DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH):
 * /etc/ld.so.conf's directories (its `include` lines followed), then the
 * system's. Shared by `respec link` (Client.h) and the audit module (audit.c),
 * so that both find a program's libraries alike. C11.
 */
#ifndef RESPEC_LINK_LOADER_DIRS_H
#define RESPEC_LINK_LOADER_DIRS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Calls visit(dir, context) for each directory, in the loader's order. */
void link_loader_dirs(void (*visit)(const char *dir, void *context), void *context);

#ifdef __cplusplus
}
#endif

#endif /* RESPEC_LINK_LOADER_DIRS_H */
