/*
 * symbols.c — the running program's variables by name, and the variable or
 * function at an address: the generic build of respec_variable("file.c:name"),
 * and the value profile's names for the pointers it observed.
 *
 * A file-static variable (Sun RPC's xdrmem_ops) has no dynamic symbol, so
 * dlsym() and dladdr() cannot see it; the static symbol table (.symtab) of the
 * image that holds it can, and its STT_FILE entries say which source each
 * local symbol after them came from. So the first use reads, once, the .symtab
 * of every image loaded then (dl_iterate_phdr: the program, "/proc/self/exe",
 * and its shared objects, each mapped read-only and kept), and keeps its
 * STT_OBJECT and STT_FUNC symbols with their run-time addresses (the image's
 * load bias added), sorted by address. Images loaded later (dlopen) are not seen. A
 * stripped image contributes nothing.
 *
 * Names are matched as the partial evaluator matches them (pe/HostMemory.cpp,
 * variableNamed): "name" is the one variable of that name, global or local;
 * "file.c:name" a local of the source whose STT_FILE name is file.c or ends in
 * "/file.c". None or several is an error.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dl_iterate_phdr */
#endif
#include "symbols.h"
#include <respec/respec.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct program_variable {
	uintptr_t address;
	size_t size;
	const char *name;
	const char *file; /* the STT_FILE before a local symbol; NULL for a global */
	bool function;
};

static struct program_variable *variables;
static size_t variable_count, variable_capacity;
static pthread_once_t variables_read = PTHREAD_ONCE_INIT;

static void add_variable(struct program_variable variable)
{
	if (variable_count == variable_capacity) {
		size_t capacity = variable_capacity ? 2 * variable_capacity : 1024;
		struct program_variable *grown = realloc(variables, capacity * sizeof *grown);
		if (!grown)
			return; /* the lookups then see fewer variables, as if stripped */
		variables = grown;
		variable_capacity = capacity;
	}
	variables[variable_count++] = variable;
}

/* The whole file at path, mapped read-only (never unmapped: the names point
 * into it), or NULL. Opened and closed by system call: this lookup is not the
 * program's I/O, which an interposer (respec profile's files observer) may be
 * recording. */
static const unsigned char *map_file(const char *path, size_t *size)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	void *map = MAP_FAILED;
	if (fstat(fd, &st) == 0 && st.st_size > 0)
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	syscall(SYS_close, fd);
	if (map == MAP_FAILED)
		return NULL;
	*size = (size_t)st.st_size;
	return map;
}

/* Adds the STT_OBJECT symbols of the ELF file image, loaded at bias. */
static void read_symbol_table(const unsigned char *image, size_t size, uintptr_t bias)
{
	const ElfW(Ehdr) *header = (const ElfW(Ehdr) *)image;
	if (size < sizeof *header || memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 ||
	    header->e_shentsize != sizeof(ElfW(Shdr)) ||
	    header->e_shoff + (size_t)header->e_shnum * sizeof(ElfW(Shdr)) > size)
		return;
	const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(image + header->e_shoff);
	for (unsigned s = 0; s < header->e_shnum; s++) {
		const ElfW(Shdr) *table = &sections[s];
		if (table->sh_type != SHT_SYMTAB || table->sh_link >= header->e_shnum ||
		    table->sh_offset + table->sh_size > size)
			continue;
		const ElfW(Shdr) *strings = &sections[table->sh_link];
		if (strings->sh_offset + strings->sh_size > size || strings->sh_size == 0)
			continue;
		const char *names = (const char *)image + strings->sh_offset;
		const ElfW(Sym) *symbols = (const ElfW(Sym) *)(image + table->sh_offset);
		size_t count = table->sh_size / sizeof(ElfW(Sym));
		const char *file = NULL;
		for (size_t i = 0; i < count; i++) {
			const ElfW(Sym) *symbol = &symbols[i];
			if (symbol->st_name >= strings->sh_size)
				continue;
			const char *name = names + symbol->st_name;
			if (ELF64_ST_TYPE(symbol->st_info) == STT_FILE) {
				file = name;
				continue;
			}
			/* Undefined, absolute and common symbols are not in the image. */
			unsigned type = ELF64_ST_TYPE(symbol->st_info);
			if ((type != STT_OBJECT && type != STT_FUNC) ||
			    symbol->st_shndx == SHN_UNDEF || symbol->st_shndx >= SHN_LORESERVE ||
			    !*name)
				continue;
			bool local = ELF64_ST_BIND(symbol->st_info) == STB_LOCAL;
			add_variable((struct program_variable){ bias + symbol->st_value,
								symbol->st_size, name,
								local ? file : NULL,
								type == STT_FUNC });
		}
	}
}

static int read_image(struct dl_phdr_info *info, size_t info_size, void *unused)
{
	(void)info_size;
	(void)unused;
	const char *path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : NULL;
	if (!path) {
		/* The program itself comes first, unnamed. */
		static bool program_read;
		if (program_read)
			return 0;
		program_read = true;
		path = "/proc/self/exe";
	} else if (!strchr(path, '/')) {
		return 0; /* the vDSO: a name, not a file */
	}
	size_t size;
	const unsigned char *image = map_file(path, &size);
	if (image)
		read_symbol_table(image, size, info->dlpi_addr);
	return 0;
}

/* By address, the largest first among those at one address, so that the one
 * found for an address inside it is the one that spans it. */
static int by_address(const void *a, const void *b)
{
	const struct program_variable *x = a, *y = b;
	if (x->address != y->address)
		return (x->address > y->address) - (x->address < y->address);
	return (x->size < y->size) - (x->size > y->size);
}

static void read_variables(void)
{
	dl_iterate_phdr(read_image, NULL);
	qsort(variables, variable_count, sizeof *variables, by_address);
}

static bool file_matches(const char *origin, const char *file, size_t file_length)
{
	size_t length = strlen(origin);
	if (length < file_length || memcmp(origin + length - file_length, file, file_length) != 0)
		return false;
	return length == file_length || origin[length - file_length - 1] == '/';
}

#ifndef RESPEC_SYMBOLS_LOOKUP_ONLY
void *respec_variable_address(const char *spelled)
{
	pthread_once(&variables_read, read_variables);
	const char *colon = strrchr(spelled, ':');
	const char *name = colon ? colon + 1 : spelled;
	size_t file_length = colon ? (size_t)(colon - spelled) : 0;
	const struct program_variable *found = NULL;
	size_t matches = 0;
	for (size_t i = 0; i < variable_count; i++) {
		const struct program_variable *v = &variables[i];
		/* One variable may have several symbols (an alias): count it once. */
		if (!v->function && strcmp(v->name, name) == 0 &&
		    (!colon || (v->file && file_matches(v->file, spelled, file_length))) &&
		    (!found || found->address != v->address)) {
			found = v;
			matches++;
		}
	}
	if (matches == 1)
		return (void *)found->address;
	fprintf(stderr, "respec_variable(\"%s\"): %s\n", spelled,
		matches ? "several variables of the program have that name; say whose file "
			  "(\"file.c:name\")"
			: "the program's symbol tables hold no such variable (is it stripped?)");
	abort();
}
#endif

bool respec_symbol_at(uintptr_t address, struct respec_symbol_name *out)
{
	pthread_once(&variables_read, read_variables);
	size_t low = 0, high = variable_count;
	while (low < high) { /* the first variable above address */
		size_t middle = low + (high - low) / 2;
		if (variables[middle].address <= address)
			low = middle + 1;
		else
			high = middle;
	}
	if (low == 0)
		return false;
	const struct program_variable *v = &variables[low - 1];
	if (address - v->address >= (v->size ? v->size : 1))
		return false;
	const char *slash = v->file ? strrchr(v->file, '/') : NULL;
	*out = (struct respec_symbol_name){ v->name, slash ? slash + 1 : v->file,
					    address - v->address, v->function };
	return true;
}
