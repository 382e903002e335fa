/*
 * gen_pattern_spec.c — compiles the case study's patterns with PCRE2's own
 * pcre2_compile() (the interpreter library built from the fetched sources) and
 * writes them as a spec for respec:
 *
 *   gen_pattern_spec SPEC.c SPEC.h PATTERNS.txt
 *
 * PATTERNS.txt has lines `name<TAB>pattern` (# comments). For each pattern,
 * SPEC.c holds the compiled pattern exactly as pcre2_compile() left it in memory
 * — the pcre2_real_code header with each field by name, then the name table and
 * the compiled opcodes as bytes — as a `const` object, and a spec function
 *
 *   RESPEC_SPECIALIZE int match_<name>(const unsigned char *subject, size_t length,
 *                                      pcre2_match_data *match_data)
 *   { return pcre2_match(&pattern_<name>.code, subject, length, 0, 0, match_data, NULL); }
 *
 * so that the pattern is static (const data) and the subject and match data are
 * dynamic. Two pointers of the header are relocated rather than copied: `tables`,
 * which pcre2_compile() set to PCRE2's default character tables, becomes the
 * address of PRIV(default_tables) (pcre2_chartables.c, linked into every
 * variant); `memctl` (the allocator pcre2_code_free() would use; pcre2_match()
 * never calls it) becomes null, since the object is never freed. The generator
 * refuses a pattern whose tables are not the default ones or which has JIT code.
 *
 * SPEC.h defines PATTERN_LIST(X): X(name, "pattern", options) per pattern, for the
 * programs that compile the same patterns at run time (tests, benchmark, JIT peer).
 *
 * With --local-frames (the pcre2-frames variants of README.md), SPEC.c has
 * instead, per pattern,
 *
 *   RESPEC_SPECIALIZE int match_<name>_frames(const unsigned char *subject,
 *                                             size_t length, size_t *ovector)
 *
 * which calls pcre2_match() with a match data block of its own whose frames
 * vector (PCRE2's backtracking frames, START_FRAMES_SIZE bytes) is a local
 * array of the function, so that the frames are private memory respec tracks,
 * and copies the 2 * (top_bracket + 1) ovector entries out. A larger vector, if
 * a match needs one, comes from malloc through the block's own allocator and is
 * freed before returning.
 */
#include "config.h" /* PCRE2's, as its own sources include it */
#include "pcre2_internal.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pattern {
	char *name, *text;
};

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "gen_pattern_spec: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	exit(1);
}

static size_t read_patterns(const char *path, struct pattern *patterns, size_t max)
{
	FILE *in = fopen(path, "r");
	if (in == NULL)
		die(path, strerror(errno));
	char line[4096];
	size_t n = 0, lineno = 0;
	while (fgets(line, sizeof line, in)) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#' || line[0] == 0)
			continue;
		char *tab = strchr(line, '\t');
		if (tab == NULL || tab == line || tab[1] == 0) {
			fprintf(stderr, "%s:%zu: expected name<TAB>pattern\n", path, lineno);
			exit(1);
		}
		*tab = 0;
		for (char *c = line; *c; c++)
			if (!(isalnum((unsigned char)*c) || *c == '_'))
				die("a pattern name is not a C identifier", line);
		if (n == max)
			die("too many patterns", path);
		patterns[n].name = strdup(line);
		patterns[n].text = strdup(tab + 1);
		n++;
	}
	fclose(in);
	if (n == 0)
		die("no patterns in", path);
	return n;
}

/* The pattern as a C string literal. */
static void put_string(FILE *out, const char *text)
{
	fputc('"', out);
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c == '\\' || *c == '"')
			fprintf(out, "\\%c", *c);
		else if (*c == '?' && c[1] == '?')
			fputs("\\?", out); /* no trigraphs */
		else if (isprint(*c))
			fputc(*c, out);
		else
			fprintf(out, "\\%03o", *c);
	}
	fputc('"', out);
}

/* The pattern as a comment: no comment terminator inside. */
static void put_comment_text(FILE *out, const char *text)
{
	for (const char *c = text; *c; c++) {
		fputc(*c, out);
		if (*c == '*' && c[1] == '/')
			fputc(' ', out);
	}
}

static void put_bytes(FILE *out, const uint8_t *bytes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s0x%02x,", i % 12 == 0 ? "\n\t\t" : " ", bytes[i]);
}

static void emit_local_frames(FILE *out, const char *name, unsigned pairs)
{
	fprintf(out, "RESPEC_SPECIALIZE int match_%s_frames(const unsigned char *subject, "
		     "size_t length,\n\t\t\t\t\tsize_t *ovector)\n{\n"
		     "\tenum { PAIRS = %u };\n"
		     "\tPCRE2_SIZE local_frames[START_FRAMES_SIZE / sizeof(PCRE2_SIZE)];\n"
		     "\t_Alignas(pcre2_real_match_data) unsigned char storage[offsetof("
		     "pcre2_real_match_data, ovector) +\n\t\t\t\t\t\t\t       2 * PAIRS * "
		     "sizeof(PCRE2_SIZE)];\n"
		     "\tpcre2_real_match_data *md = (pcre2_real_match_data *)storage;\n"
		     "\tmd->memctl = (pcre2_memctl){ frames_malloc, frames_free, local_frames };\n"
		     "\tmd->heapframes = (heapframe *)local_frames;\n"
		     "\tmd->heapframes_size = sizeof local_frames;\n"
		     "\tmd->oveccount = PAIRS;\n\tmd->flags = 0;\n"
		     "\tint rc = pcre2_match(&pattern_%s.code, subject, length, 0, 0, "
		     "(pcre2_match_data *)md, NULL);\n"
		     "\tfor (unsigned i = 0; i < 2 * PAIRS; i++)\n\t\tovector[i] = md->ovector[i];\n"
		     "\tif (md->heapframes != (heapframe *)local_frames)\n"
		     "\t\tfree(md->heapframes);\n\treturn rc;\n}\n\n",
		name, pairs, name);
}

static bool local_frames;

static void emit_pattern(FILE *out, const struct pattern *p)
{
	int error;
	PCRE2_SIZE offset;
	pcre2_code *compiled = pcre2_compile((PCRE2_SPTR)p->text, PCRE2_ZERO_TERMINATED, 0,
					     &error, &offset, NULL);
	if (compiled == NULL) {
		PCRE2_UCHAR message[256];
		pcre2_get_error_message(error, message, sizeof message);
		fprintf(stderr, "gen_pattern_spec: %s: %s at offset %zu\n", p->name,
			(char *)message, (size_t)offset);
		exit(1);
	}
	const pcre2_real_code *re = (const pcre2_real_code *)compiled;
	if (re->tables != PRIV(default_tables))
		die("the pattern does not use PCRE2's default tables", p->name);
	if (re->executable_jit != NULL)
		die("the pattern has JIT code", p->name);
	if (re->blocksize <= sizeof(pcre2_real_code))
		die("the compiled pattern is smaller than its header", p->name);
	size_t tail = re->blocksize - sizeof(pcre2_real_code);

	fprintf(out, "/* ");
	put_comment_text(out, p->text);
	fprintf(out, "\n   %zu bytes compiled: the header, then %u name table entries of %u "
		     "code units and the opcodes. */\n",
		(size_t)re->blocksize, re->name_count, re->name_entry_size);
	fprintf(out, "static const struct {\n\tpcre2_real_code code;\n\tuint8_t tail[%zu];\n"
		     "} pattern_%s = {\n", tail, p->name);
	fprintf(out, "\t{\n\t\t.memctl = { NULL, NULL, NULL },\n");
	fprintf(out, "\t\t.tables = PRIV(default_tables),\n\t\t.executable_jit = NULL,\n");
	fprintf(out, "\t\t.start_bitmap = {");
	put_bytes(out, re->start_bitmap, sizeof re->start_bitmap);
	fprintf(out, " },\n");
	fprintf(out, "\t\t.blocksize = %zu,\n", (size_t)re->blocksize);
#define FIELD(f) fprintf(out, "\t\t." #f " = %#llx,\n", (unsigned long long)re->f)
	FIELD(magic_number);
	FIELD(compile_options);
	FIELD(overall_options);
	FIELD(extra_options);
	FIELD(flags);
	FIELD(limit_heap);
	FIELD(limit_match);
	FIELD(limit_depth);
	FIELD(first_codeunit);
	FIELD(last_codeunit);
	FIELD(bsr_convention);
	FIELD(newline_convention);
	FIELD(max_lookbehind);
	FIELD(minlength);
	FIELD(top_bracket);
	FIELD(top_backref);
	FIELD(name_entry_size);
	FIELD(name_count);
#undef FIELD
	fprintf(out, "\t},\n\t{");
	put_bytes(out, (const uint8_t *)re + sizeof(pcre2_real_code), tail);
	fprintf(out, "\n\t},\n};\n\n");
	if (local_frames)
		emit_local_frames(out, p->name, re->top_bracket + 1u);
	else
		fprintf(out, "RESPEC_SPECIALIZE int match_%s(const unsigned char *subject, "
			     "size_t length,\n\t\t\t\t pcre2_match_data *match_data)\n{\n"
			     "\treturn pcre2_match(&pattern_%s.code, subject, length, 0, 0, "
			     "match_data, NULL);\n}\n\n",
			p->name, p->name);
	pcre2_code_free(compiled);
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "--local-frames") == 0) {
		local_frames = true;
		argv++;
		argc--;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: gen_pattern_spec [--local-frames] SPEC.c SPEC.h PATTERNS.txt\n");
		return 2;
	}
	struct pattern patterns[256];
	size_t n = read_patterns(argv[3], patterns, 256);
	const char *header_name = strrchr(argv[2], '/') ? strrchr(argv[2], '/') + 1 : argv[2];

	FILE *spec = fopen(argv[1], "w");
	if (spec == NULL)
		die(argv[1], strerror(errno));
	fprintf(spec, "/* Generated by gen_pattern_spec from %s: do not edit.\n"
		      "   Compiled by PCRE2 %d.%d; sizeof(pcre2_real_code) = %zu. */\n"
		      "#include <respec/respec.h>\n#include \"config.h\"\n#include \"pcre2_internal.h\"\n#include \"%s\"\n\n"
		      "_Static_assert(sizeof(pcre2_real_code) == %zu, \"pcre2_real_code changed "
		      "since the patterns were compiled\");\n\n",
		argv[3], PCRE2_MAJOR, PCRE2_MINOR, sizeof(pcre2_real_code), header_name,
		sizeof(pcre2_real_code));
	if (local_frames)
		fprintf(spec, "/* --local-frames: a larger frames vector for match_*_frames */\n"
			      "static void *frames_malloc(size_t size, void *data)\n"
			      "{\n\t(void)data;\n\treturn malloc(size);\n}\n"
			      "static void frames_free(void *block, void *data)\n"
			      "{\n\tif (block != data)\n\t\tfree(block);\n}\n\n");
	for (size_t i = 0; i < n; i++)
		emit_pattern(spec, &patterns[i]);
	if (fclose(spec) != 0)
		die(argv[1], strerror(errno));

	FILE *header = fopen(argv[2], "w");
	if (header == NULL)
		die(argv[2], strerror(errno));
	fprintf(header, "/* Generated by gen_pattern_spec from %s: do not edit. */\n"
			"#ifndef RESPEC_PCRE2_PATTERNS_H\n#define RESPEC_PCRE2_PATTERNS_H\n\n"
			"/* X(name, pattern, pcre2_compile options) */\n#define PATTERN_LIST(X)",
		argv[3]);
	for (size_t i = 0; i < n; i++) {
		fprintf(header, " \\\n\tX(%s, ", patterns[i].name);
		put_string(header, patterns[i].text);
		fprintf(header, ", 0)");
	}
	fprintf(header, "\n\n#endif\n");
	if (fclose(header) != 0)
		die(argv[2], strerror(errno));
	return 0;
}
