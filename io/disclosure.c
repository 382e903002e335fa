/*
 * disclosure.c — what a program says about its own I/O (OMOS's annotations,
 * "does-big-io" and the like), read once at startup: an ELF note in the main
 * executable (RESPEC_IO_DISCLOSE in respec/io.h), overridden by the
 * environment variable RESPEC_IO_HINTS. Both use the words "sequential",
 * "random" and "big-io", separated by commas or spaces. The hints only steer
 * the cost model (strategy.c); they never make anything incorrect.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <elf.h>
#include <link.h>
#include <stdlib.h>

_Atomic unsigned io_hints;

unsigned io_parse_hints(const char *text)
{
	static const struct {
		const char *word;
		unsigned hint;
	} words[] = {
		{"sequential", RESPEC_IO_HINT_SEQUENTIAL},
		{"random", RESPEC_IO_HINT_RANDOM},
		{"big-io", RESPEC_IO_HINT_BIG_IO},
	};
	unsigned hints = 0;
	while (*text) {
		size_t len = strcspn(text, ", ");
		for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
			if (len == strlen(words[i].word) && strncmp(text, words[i].word, len) == 0)
				hints |= words[i].hint;
		text += len;
		text += strspn(text, ", ");
	}
	return hints;
}

/* dl_iterate_phdr visits the main executable first; its notes are mapped. */
static int read_main_program_notes(struct dl_phdr_info *info, size_t size, void *out)
{
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const char *at = (const char *)(info->dlpi_addr + ph->p_vaddr);
		const char *end = at + ph->p_memsz;
		while (at + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)at;
			const char *name = at + sizeof *note;
			const char *desc = name + ((note->n_namesz + 3) & ~3u);
			if (note->n_type == RESPEC_IO_NOTE_TYPE && note->n_namesz == 7 &&
			    memcmp(name, "respec", 7) == 0 && desc + note->n_descsz <= end &&
			    note->n_descsz > 0 && desc[note->n_descsz - 1] == '\0')
				*(unsigned *)out |= io_parse_hints(desc);
			at = desc + ((note->n_descsz + 3) & ~3u);
		}
	}
	return 1; /* only the main executable */
}

void io_disclosure_init(void)
{
	unsigned hints = 0;
	dl_iterate_phdr(read_main_program_notes, &hints);
	const char *env = getenv("RESPEC_IO_HINTS");
	if (env)
		hints = io_parse_hints(env);
	atomic_store(&io_hints, hints);
}

void respec_io_set_hints(unsigned hints)
{
	atomic_store(&io_hints, hints);
}
