/* A file of a project built with flags respec must take from its compilation
 * database (compile-commands.c): a relative -I, a -D, a forced include. */
#include "scale.h"
int lib_value(void) { return SCALE + LIB_OFFSET + CONFIG_VALUE; }
