/*
 * symbols.h — the running program's variables and functions from its ELF
 * symbol tables (symbols.c), for respec's own tools: the value profile names
 * the pointers it observed with it. respec_variable_address() is public
 * (respec/respec.h).
 */
#ifndef RESPEC_RUNTIME_SYMBOLS_H
#define RESPEC_RUNTIME_SYMBOLS_H

#include <stdbool.h>
#include <stdint.h>

struct respec_symbol_name {
	const char *name;
	const char *file; /* the defining source's file name, for a local; else NULL */
	uintptr_t offset; /* of the address into the variable or function */
	bool function;
};

/* The value profile compiles symbols.c into its own library, which a program
 * may link beside librespec: its copy has a name of its own and no
 * respec_variable_address. */
#ifdef RESPEC_SYMBOLS_LOOKUP_ONLY
#define respec_symbol_at respec_profile_symbol_at
#endif

/* The variable or function of the program that holds address, if its symbol
 * table says. */
bool respec_symbol_at(uintptr_t address, struct respec_symbol_name *out);

#endif
