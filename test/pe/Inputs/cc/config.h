/* Forced in by the build's relative -include config.h (compile-commands.c). */
#define CONFIG_VALUE 2
