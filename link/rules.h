/*
 * rules.h — a library's link-time rules: parsing and evaluation (C11).
 *
 * OMOS (seeds, file 004) made libraries programs that look at their client.
 * A library that takes part ships a rules file beside its archive or shared
 * object. The rules say which facts about a client matter to the library (the
 * client never spawns a process, never creates a thread, never seeks, or
 * discloses a property such as "big-io"), how each fact follows from the
 * symbols the client references and the properties it discloses, and which
 * implementation of the library fits a client for which those facts hold.
 * `respec link` evaluates them when it links a program (link/Link.h);
 * librespec-link-audit.so evaluates them when an already linked program
 * starts (link/audit.c). This file is the part both share, so it is C.
 *
 * The format (one directive per line; '#' starts a comment; an indented line
 * belongs to the variant above it):
 *
 *   library NAME
 *       The library the rules are for: the link line's -lNAME, libNAME.a,
 *       libNAME.so or libNAME.so.N. Once, before anything else.
 *   implicit
 *       The compiler driver links the library without the command naming it
 *       (the C library: library c): a chosen variant's `link` files are
 *       added after the command's own inputs instead of replacing one. Only
 *       `link` variants, and only at link time.
 *   fact FACT unless-referenced PATTERN...
 *   fact FACT if-referenced PATTERN...
 *   fact FACT if-property PROPERTY...
 *   fact FACT unless-property PROPERTY...
 *       FACT holds for a client when every line that names it holds: no
 *       (some) symbol the client references matches one of the patterns
 *       (shell patterns, as fork, exec* or posix_spawn*); the client
 *       discloses one (none) of the properties.
 *   check FACT SYMBOL
 *       At run time FACT holds only while the byte at SYMBOL (a variable of
 *       the program or of a library it uses) is not zero: code specialized
 *       under FACT tests it on entry and runs the generic function when it is
 *       zero (glibc's __libc_single_threaded turns zero when a thread is
 *       created, however the program reached pthread_create).
 *   variant NAME
 *       An implementation of the library, chosen for a client when each of
 *       the facts after `when` holds; the first such variant in the file
 *       wins, and a client for which none does gets the library as it is.
 *       Its lines (indented):
 *     when FACT...        each FACT must hold (!FACT: must not); a disclosed
 *                         property is a fact of the same name
 *     link FILE...        these files replace the library on the link line
 *                         (relative to the rules file's directory; an
 *                         argument starting with '-', such as -ljemalloc,
 *                         goes to the command as it is); a shared object
 *                         among them is also what the audit module loads
 *                         instead of the library
 *     specialize BITCODE [FUNCTION=SPEC...]
 *                         the library's code in BITCODE (`respec embed
 *                         --emit-llvm`), compiled for this client: what it
 *                         does not reach is deleted, and dispatch through a
 *                         table slot left with one function becomes a guarded
 *                         direct call; respec's partial evaluator specializes
 *                         each SPEC with the client's facts (respec_fact("NAME")
 *                         in a spec is 1 when NAME holds, 0 otherwise) and
 *                         FUNCTION's callers get its specialized body; the
 *                         object replaces the library on the link line
 *
 * Errors carry the file:line of the offending directive.
 */
#ifndef RESPEC_LINK_RULES_H
#define RESPEC_LINK_RULES_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum link_condition_kind {
	LINK_UNLESS_REFERENCED,
	LINK_IF_REFERENCED,
	LINK_IF_PROPERTY,
	LINK_UNLESS_PROPERTY,
};

/* One `fact` line. */
struct link_condition {
	char *fact;
	enum link_condition_kind kind;
	char **names; /* symbol patterns or property names */
	size_t name_count;
	unsigned line;
};

/* One `check` line. */
struct link_check {
	char *fact;
	char *symbol;
	unsigned line;
};

struct link_requirement {
	char *fact;
	bool negated;
};

struct link_replacement {
	char *function; /* the library's function the client calls */
	char *spec;     /* the spec function whose specialized body it gets */
};

struct link_variant {
	char *name;
	unsigned line;
	struct link_requirement *when;
	size_t when_count;
	char **link; /* absolute paths */
	size_t link_count;
	char *bitcode; /* absolute path, or NULL */
	struct link_replacement *replacements;
	size_t replacement_count;
};

struct link_rules {
	char *path;
	char *library;
	bool implicit;
	struct link_condition *conditions;
	size_t condition_count;
	struct link_check *checks;
	size_t check_count;
	struct link_variant *variants;
	size_t variant_count;
};

/* Parses the rules file at path. NULL on failure, with "path:line: message"
 * (or "path: message") in error. */
struct link_rules *link_rules_parse(const char *path, char *error, size_t error_size);
void link_rules_free(struct link_rules *rules);

/* What the evaluation needs to know about the client. */
struct link_client {
	/* The first client file referencing a symbol that matches pattern (a
	 * shell pattern), with the symbol in *symbol; NULL if none does. */
	const char *(*references)(void *context, const char *pattern, const char **symbol);
	/* The first client file disclosing property; NULL if none does. */
	const char *(*discloses)(void *context, const char *property);
	void *context;
};

/* Why a fact holds or not, for --explain. */
struct link_fact_outcome {
	const char *fact;
	bool holds;
	char because[256];
};

/* Evaluates every fact the rules define, in the order they first appear
 * (outcomes must have room for link_rules_fact_count); returns their number. */
size_t link_rules_fact_count(const struct link_rules *rules);
size_t link_rules_evaluate(const struct link_rules *rules, const struct link_client *client,
			   struct link_fact_outcome *outcomes);

/* Whether fact holds: a fact of the rules (from outcomes), else a property
 * the client discloses. */
bool link_fact_holds(const char *fact, const struct link_fact_outcome *outcomes,
		     size_t outcome_count, const struct link_client *client);

/* The variant the rules choose (NULL: the library as it is). For each variant
 * not chosen before it, unmet[i] (if not NULL) gets the first requirement
 * that failed. */
const struct link_variant *link_rules_choose(const struct link_rules *rules,
					     const struct link_fact_outcome *outcomes,
					     size_t outcome_count,
					     const struct link_client *client,
					     const struct link_requirement **unmet);

/* Whether file names the library: libNAME.a, libNAME.so, libNAME.so.N... or
 * -lNAME (base name compared). */
bool link_rules_names_library(const struct link_rules *rules, const char *file);

/* Whether name is a valid fact or property name: letters, digits, '-', '_',
 * '.'. */
bool link_valid_name(const char *name);

/* Whether symbol (its version, as in fork@GLIBC_2.2.5, ignored) matches the
 * shell pattern. */
bool link_symbol_matches(const char *pattern, const char *symbol);

#ifdef __cplusplus
}
#endif

#endif /* RESPEC_LINK_RULES_H */
