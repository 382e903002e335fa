/* Forced into clang-flags.c with -include: proves the option's value reached clang. */
#define FROM_FORCED_INCLUDE 5
