/*
 * audit.c — librespec-link-audit.so: link-time rules applied when an already
 * linked program starts.
 *
 *   LD_AUDIT=librespec-link-audit.so RESPEC_LINK_RULES=libfoo.rules program
 *
 * Why LD_AUDIT and not ifunc resolvers: the choice is between whole shared
 * objects, made from facts about the program (the symbols it and its
 * libraries reference, the properties it discloses), before the library is
 * loaded. The dynamic loader asks an audit module where to find each library
 * (la_objsearch) and takes the path it returns; nothing of the program or of
 * the library changes, and a variant is an ordinary shared object built the
 * way the library's rules say. An ifunc resolver chooses one function at a
 * time, from inside a library already loaded, and sees the CPU, not the
 * program.
 *
 * When the loader first asks for a library that has rules (its DT_NEEDED
 * name, LA_SER_ORIG), the module evaluates the rules (rules.c) for the
 * program: /proc/self/exe's undefined dynamic symbols and property notes, and
 * the undefined dynamic symbols of the libraries it needs, found as the loader
 * would (DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH, /etc/ld.so.conf, the system
 * directories; $ORIGIN expanded), followed transitively. A library it cannot
 * find or read references every symbol, as in `respec link` (Client.h). If the
 * chosen variant lists a shared object among its `link` files, the loader gets
 * that path; a variant that needs link-time specialization has no prebuilt
 * file here, and the library loads as it is. The rules of an `implicit`
 * library (the C library) are link-time only: their variants go beside it. RESPEC_LINK_EXPLAIN=1 prints each
 * decision on standard error.
 *
 * Everything here runs inside the dynamic loader's audit namespace before the
 * program's constructors: it allocates with the namespace's own malloc, opens
 * files with plain system calls, and never fails the program's start: a rules
 * file that does not parse is reported and ignored.
 */
#define _GNU_SOURCE
#include "loader_dirs.h"
#include "rules.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* One file of the client: its undefined dynamic symbols. */
struct client_file {
	char *path;
	char **symbols;
	size_t symbol_count;
	const struct link_rules *decided_by; /* a library with rules: not its own client */
};

struct client {
	struct client_file *files;
	size_t file_count;
	char **properties; /* the program's */
	size_t property_count;
	char *unread;      /* the first file that could not be read, or NULL */
	char *unread_why;
	char **dirs;       /* the loader's search directories, after per-file ones */
	size_t dir_count;
};

struct decision {
	struct link_rules *rules;
	const struct link_variant *chosen;
	bool decided;
};

static struct client program;
static struct decision *decisions;
static size_t decision_count;
static bool client_read;
static bool explain;

static void note_unread(const char *path, const char *why)
{
	if (program.unread)
		return;
	program.unread = strdup(path);
	program.unread_why = strdup(why);
}

static void push_string(char ***array, size_t *count, const char *text)
{
	char **grown = realloc(*array, (*count + 1) * sizeof **array);
	char *copy = strdup(text);
	if (!grown || !copy) {
		free(copy);
		if (grown)
			*array = grown;
		return;
	}
	*array = grown;
	grown[(*count)++] = copy;
}

/* A file mapped read-only, with bounds to check every read against. */
struct mapped {
	const unsigned char *data;
	size_t size;
};

static bool map_file(const char *path, struct mapped *m)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	bool ok = fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(Elf64_Ehdr);
	void *data = ok ? mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	close(fd);
	if (data == MAP_FAILED)
		return false;
	m->data = data;
	m->size = st.st_size;
	return true;
}

static bool within(const struct mapped *m, uint64_t offset, uint64_t size)
{
	return offset <= m->size && size <= m->size - offset;
}

static const Elf64_Shdr *section(const struct mapped *m, size_t index)
{
	const Elf64_Ehdr *h = (const Elf64_Ehdr *)m->data;
	if (index >= h->e_shnum || !within(m, h->e_shoff + index * sizeof(Elf64_Shdr),
					   sizeof(Elf64_Shdr)))
		return NULL;
	return (const Elf64_Shdr *)(m->data + h->e_shoff) + index;
}

/* A NUL-terminated string at offset in the string table section strtab. */
static const char *string_at(const struct mapped *m, const Elf64_Shdr *strtab, uint64_t offset)
{
	if (!strtab || offset >= strtab->sh_size || !within(m, strtab->sh_offset, strtab->sh_size))
		return NULL;
	const char *s = (const char *)m->data + strtab->sh_offset + offset;
	return memchr(s, '\0', strtab->sh_size - offset) ? s : NULL;
}

static bool is_elf64(const struct mapped *m)
{
	const Elf64_Ehdr *h = (const Elf64_Ehdr *)m->data;
	return memcmp(h->e_ident, ELFMAG, SELFMAG) == 0 && h->e_ident[EI_CLASS] == ELFCLASS64 &&
	       h->e_shentsize == sizeof(Elf64_Shdr);
}

/* The rules of the library at path, if it has any. */
static const struct link_rules *deciding_rules(const char *path)
{
	for (size_t i = 0; i < decision_count; i++)
		if (link_rules_names_library(decisions[i].rules, path))
			return decisions[i].rules;
	return NULL;
}

static void add_file(const char *path, bool is_program);

/* Finds and adds a DT_NEEDED library of the file at needed_by. */
static void add_needed(const char *name, const char *needed_by, const char *rpath,
		       const char *runpath)
{
	char *found = link_find_needed(name, needed_by, rpath, runpath,
				       (const char *const *)program.dirs, program.dir_count);
	if (found) {
		add_file(found, false);
		free(found);
		return;
	}
	char why[4200];
	snprintf(why, sizeof why, "needed by %s, found in no library directory", needed_by);
	note_unread(name, why);
}

/* Reads the properties in a program's .note.respec.property notes. */
static void read_properties(const struct mapped *m, const Elf64_Shdr *note)
{
	if (!within(m, note->sh_offset, note->sh_size))
		return;
	const unsigned char *p = m->data + note->sh_offset, *end = p + note->sh_size;
	while (end - p >= (long)sizeof(Elf64_Nhdr)) {
		const Elf64_Nhdr *n = (const Elf64_Nhdr *)p;
		/* Rounded in size_t: a size near 2^32 must not wrap to a small one. */
		size_t name_size = ((size_t)n->n_namesz + 3) & ~(size_t)3;
		size_t desc_size = ((size_t)n->n_descsz + 3) & ~(size_t)3;
		const unsigned char *name = p + sizeof *n;
		if (name_size > (size_t)(end - name))
			return;
		const unsigned char *desc = name + name_size;
		if (desc_size > (size_t)(end - desc))
			return;
		if (n->n_namesz == 7 && memcmp(name, "respec", 7) == 0 &&
		    n->n_type == 0x52504c31u /* RESPEC_PROPERTY_NOTE_TYPE */ && n->n_descsz &&
		    memchr(desc, '\0', n->n_descsz))
			push_string(&program.properties, &program.property_count, (const char *)desc);
		p = desc + desc_size;
	}
}

static void add_file(const char *path, bool is_program)
{
	char *real = realpath(path, NULL);
	if (!real) {
		note_unread(path, "cannot open it");
		return;
	}
	for (size_t i = 0; i < program.file_count; i++)
		if (strcmp(program.files[i].path, real) == 0) {
			free(real);
			return;
		}
	struct mapped m = {0};
	if (!map_file(real, &m) || !is_elf64(&m)) {
		if (m.data)
			munmap((void *)m.data, m.size);
		note_unread(real, "not a 64-bit ELF file");
		free(real);
		return;
	}
	struct client_file *grown =
		realloc(program.files, (program.file_count + 1) * sizeof *program.files);
	if (!grown) {
		munmap((void *)m.data, m.size);
		free(real);
		return;
	}
	program.files = grown;
	struct client_file *f = &program.files[program.file_count++];
	*f = (struct client_file){.path = real, .decided_by = deciding_rules(path)};

	const Elf64_Ehdr *h = (const Elf64_Ehdr *)m.data;
	const Elf64_Shdr *names = section(&m, h->e_shstrndx);
	const char *rpath = NULL, *runpath = NULL;
	const char **needed = NULL;
	size_t needed_count = 0;
	for (size_t i = 0; i < h->e_shnum; i++) {
		const Elf64_Shdr *s = section(&m, i);
		if (!s || !within(&m, s->sh_offset, s->sh_size))
			continue;
		if (s->sh_type == SHT_DYNSYM && s->sh_entsize == sizeof(Elf64_Sym)) {
			const Elf64_Shdr *strings = section(&m, s->sh_link);
			const Elf64_Sym *syms = (const Elf64_Sym *)(m.data + s->sh_offset);
			for (size_t k = 1; k < s->sh_size / sizeof *syms; k++) {
				const char *name = string_at(&m, strings, syms[k].st_name);
				if (syms[k].st_shndx == SHN_UNDEF && name && *name)
					push_string(&f->symbols, &f->symbol_count, name);
			}
		} else if (s->sh_type == SHT_DYNAMIC && s->sh_entsize == sizeof(Elf64_Dyn)) {
			const Elf64_Shdr *strings = section(&m, s->sh_link);
			const Elf64_Dyn *dyn = (const Elf64_Dyn *)(m.data + s->sh_offset);
			for (size_t k = 0; k < s->sh_size / sizeof *dyn; k++) {
				const char *value = string_at(&m, strings, dyn[k].d_un.d_val);
				if (dyn[k].d_tag == DT_RPATH)
					rpath = value;
				else if (dyn[k].d_tag == DT_RUNPATH)
					runpath = value;
				else if (dyn[k].d_tag == DT_NEEDED && value) {
					const char **more = realloc(needed, (needed_count + 1) *
										     sizeof *needed);
					if (more)
						(needed = more)[needed_count++] = value;
				}
			}
		} else if (is_program && s->sh_type == SHT_NOTE) {
			const char *name = string_at(&m, names, s->sh_name);
			if (name && strcmp(name, ".note.respec.property") == 0)
				read_properties(&m, s);
		}
	}
	char *own_path = strdup(real); /* program.files may move while recursing */
	for (size_t i = 0; own_path && i < needed_count; i++)
		add_needed(needed[i], own_path, rpath, runpath);
	free(own_path);
	free(needed);
	munmap((void *)m.data, m.size);
}

/* context: the rules being evaluated, whose library's own files do not count. */
static const char *references(void *context, const char *pattern, const char **symbol)
{
	for (size_t i = 0; i < program.file_count; i++)
		if (program.files[i].decided_by != context)
			for (size_t k = 0; k < program.files[i].symbol_count; k++)
				if (link_symbol_matches(pattern, program.files[i].symbols[k])) {
					*symbol = program.files[i].symbols[k];
					return program.files[i].path;
				}
	if (program.unread) {
		*symbol = "any symbol (unread)";
		return program.unread;
	}
	return NULL;
}

static const char *discloses(void *context, const char *property)
{
	(void)context;
	for (size_t i = 0; i < program.property_count; i++)
		if (strcmp(program.properties[i], property) == 0)
			return program.files ? program.files[0].path : "program";
	return NULL;
}

static void add_loader_dir(const char *dir, void *context)
{
	(void)context;
	push_string(&program.dirs, &program.dir_count, dir);
}

static void read_client(void)
{
	client_read = true;
	link_loader_dirs(add_loader_dir, NULL);
	add_file("/proc/self/exe", true);
}

static void load_rules(void)
{
	const char *list = getenv("RESPEC_LINK_RULES");
	explain = getenv("RESPEC_LINK_EXPLAIN") && strcmp(getenv("RESPEC_LINK_EXPLAIN"), "0");
	char *copy = list ? strdup(list) : NULL;
	for (char *save = NULL, *path = copy ? strtok_r(copy, ":", &save) : NULL; path;
	     path = strtok_r(NULL, ":", &save)) {
		char error[1024];
		struct link_rules *rules = link_rules_parse(path, error, sizeof error);
		if (!rules) {
			fprintf(stderr, "respec link audit: %s (rules ignored)\n", error);
			continue;
		}
		struct decision *grown =
			realloc(decisions, (decision_count + 1) * sizeof *decisions);
		if (!grown) {
			link_rules_free(rules);
			break;
		}
		decisions = grown;
		decisions[decision_count++] = (struct decision){.rules = rules};
	}
	free(copy);
}

static const char *shared_object_of(const struct link_variant *v)
{
	for (size_t i = 0; i < v->link_count; i++) {
		const char *base = strrchr(v->link[i], '/');
		const char *so = strstr(base ? base + 1 : v->link[i], ".so");
		if (so && (so[3] == '\0' || so[3] == '.'))
			return v->link[i];
	}
	return NULL;
}

static void decide(struct decision *d, const char *name)
{
	d->decided = true;
	if (!client_read)
		read_client();
	struct link_client client = {
		.references = references, .discloses = discloses, .context = d->rules};
	size_t count = link_rules_fact_count(d->rules);
	struct link_fact_outcome *facts = calloc(count ? count : 1, sizeof *facts);
	if (!facts)
		return;
	count = link_rules_evaluate(d->rules, &client, facts);
	d->chosen = link_rules_choose(d->rules, facts, count, &client, NULL);
	if (explain) {
		fprintf(stderr, "respec link audit: %s (rules %s)\n", name, d->rules->path);
		for (size_t i = 0; i < count; i++)
			fprintf(stderr, "  fact %s: %s (%s)\n", facts[i].fact,
				facts[i].holds ? "holds" : "does not hold", facts[i].because);
		if (!d->chosen)
			fprintf(stderr, "  result: the library as it is\n");
		else if (!shared_object_of(d->chosen))
			fprintf(stderr, "  variant %s: chosen, but it has no shared object to load "
					"(link-time only): the library as it is\n", d->chosen->name);
		else
			fprintf(stderr, "  variant %s: chosen, loads %s\n", d->chosen->name,
				shared_object_of(d->chosen));
	}
	free(facts);
}

/* The loader's entry points: the only symbols the module exports. */
__attribute__((visibility("default"))) unsigned int la_version(unsigned int version)
{
	load_rules();
	return version < LAV_CURRENT ? version : LAV_CURRENT;
}

__attribute__((visibility("default"))) char *la_objsearch(const char *name, uintptr_t *cookie,
						    unsigned int flag)
{
	(void)cookie;
	if (flag != LA_SER_ORIG)
		return (char *)name;
	for (size_t i = 0; i < decision_count; i++) {
		struct decision *d = &decisions[i];
		/* An implicit library's variants are added to the link beside it (a
		 * malloc ahead of the C library's): nothing loads in its place. */
		if (d->rules->implicit || !link_rules_names_library(d->rules, name))
			continue;
		if (!d->decided)
			decide(d, name);
		const char *so = d->chosen ? shared_object_of(d->chosen) : NULL;
		return (char *)(so ? so : name);
	}
	return (char *)name;
}
