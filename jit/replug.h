/* replug.h — librespec calls the C++ side of the JIT needs (see replug.c). */
#ifndef RESPEC_JIT_REPLUG_H
#define RESPEC_JIT_REPLUG_H

#ifdef __cplusplus
extern "C" {
#endif

struct respec_slot;
/* respec_replug(slot, code): installs code once no caller can run the old one. */
int respec_jit_replug_slot(struct respec_slot *slot, void *code);
/* respec_last_error() */
const char *respec_jit_runtime_error(void);

#ifdef __cplusplus
}
#endif

#endif
