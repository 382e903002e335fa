/* Found through the build's relative -Iinclude (compile-commands.c). */
#define SCALE 40
