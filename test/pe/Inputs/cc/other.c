/* Built with its flags in a response file (compile-commands.c). */
int other_value(void) { return OTHER_VALUE + FROM_COMMAND_LINE; }
