/*
 * rules.c — parsing and evaluating link-time rules (the format: rules.h).
 *
 * The parser reads a line at a time, splits it into words, and checks each
 * directive completely before storing it, so that every mistake is reported
 * at its own line: an unknown directive, a missing argument, a variant line
 * outside a variant, a `check` of a fact no `fact` line defined before it.
 * (`when` may name any fact: one the rules do not define is a property the
 * client may disclose.) Paths in `link` and `specialize` are made absolute
 * against the rules file's directory.
 */
#define _GNU_SOURCE
#include "rules.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const char *path;
	char *directory; /* of the rules file, with a trailing '/' */
	unsigned line;
	char *error;
	size_t error_size;
	bool failed;
};

static void fail(struct parser *p, const char *format, ...)
{
	if (p->failed)
		return;
	p->failed = true;
	int n = p->line ? snprintf(p->error, p->error_size, "%s:%u: ", p->path, p->line)
			: snprintf(p->error, p->error_size, "%s: ", p->path);
	if (n < 0 || (size_t)n >= p->error_size)
		return;
	va_list args;
	va_start(args, format);
	vsnprintf(p->error + n, p->error_size - n, format, args);
	va_end(args);
}

/* Grows *array (of *count elements of size bytes) by one zeroed element. */
static void *append(struct parser *p, void *array_pointer, size_t *count, size_t size)
{
	void **array = array_pointer;
	char *grown = realloc(*array, (*count + 1) * size);
	if (!grown) {
		fail(p, "out of memory");
		return NULL;
	}
	memset(grown + *count * size, 0, size);
	*array = grown;
	return grown + (*count)++ * size;
}

static char *copy(struct parser *p, const char *text)
{
	char *c = strdup(text);
	if (!c)
		fail(p, "out of memory");
	return c;
}

static char *absolute(struct parser *p, const char *file)
{
	if (file[0] == '/')
		return copy(p, file);
	char *joined;
	if (asprintf(&joined, "%s%s", p->directory, file) < 0) {
		fail(p, "out of memory");
		return NULL;
	}
	return joined;
}

bool link_valid_name(const char *name)
{
	if (!*name)
		return false;
	for (const char *c = name; *c; c++)
		if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') &&
		    !(*c >= '0' && *c <= '9') && !strchr("-_.", *c))
			return false;
	return true;
}

static bool check_name(struct parser *p, const char *what, const char *name)
{
	if (!link_valid_name(name))
		fail(p, "'%s' is not a valid %s name (letters, digits, '-', '_', '.')", name,
		     what);
	return !p->failed;
}

enum { MAX_WORDS = 256 };

/* Splits line in place at blanks; a '#' starts a comment. */
static size_t split(char *line, char **words)
{
	size_t n = 0;
	line[strcspn(line, "#")] = '\0'; /* a comment may follow a word directly */
	for (char *c = line; *c;) {
		while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n')
			*c++ = '\0';
		if (!*c)
			break;
		if (n == MAX_WORDS)
			return MAX_WORDS + 1;
		words[n++] = c;
		while (*c && *c != ' ' && *c != '\t' && *c != '\r' && *c != '\n')
			c++;
	}
	return n;
}

static char **copy_words(struct parser *p, char **words, size_t count)
{
	char **copies = calloc(count ? count : 1, sizeof *copies);
	if (!copies) {
		fail(p, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < count && !p->failed; i++)
		copies[i] = copy(p, words[i]);
	return copies;
}

static void free_words(char **words, size_t count)
{
	for (size_t i = 0; words && i < count; i++)
		free(words[i]);
	free(words);
}

static const struct {
	const char *keyword;
	enum link_condition_kind kind;
} condition_keywords[] = {
	{"unless-referenced", LINK_UNLESS_REFERENCED},
	{"if-referenced", LINK_IF_REFERENCED},
	{"if-property", LINK_IF_PROPERTY},
	{"unless-property", LINK_UNLESS_PROPERTY},
};

static void parse_fact(struct parser *p, struct link_rules *r, char **words, size_t n)
{
	if (n < 4) {
		fail(p, "'fact' needs a name, a condition (unless-referenced, if-referenced, "
			"if-property, unless-property) and at least one symbol or property");
		return;
	}
	if (!check_name(p, "fact", words[1]))
		return;
	size_t k = 0;
	while (k < sizeof condition_keywords / sizeof *condition_keywords &&
	       strcmp(words[2], condition_keywords[k].keyword) != 0)
		k++;
	if (k == sizeof condition_keywords / sizeof *condition_keywords) {
		fail(p, "unknown condition '%s' (unless-referenced, if-referenced, if-property, "
			"unless-property)", words[2]);
		return;
	}
	bool properties = condition_keywords[k].kind == LINK_IF_PROPERTY ||
			  condition_keywords[k].kind == LINK_UNLESS_PROPERTY;
	for (size_t i = 3; properties && i < n; i++)
		if (!check_name(p, "property", words[i]))
			return;
	struct link_condition *c = append(p, &r->conditions, &r->condition_count, sizeof *c);
	if (!c)
		return;
	c->line = p->line;
	c->kind = condition_keywords[k].kind;
	c->fact = copy(p, words[1]);
	c->names = copy_words(p, words + 3, n - 3);
	c->name_count = c->names ? n - 3 : 0;
}

static bool defines_fact(const struct link_rules *r, const char *fact)
{
	for (size_t i = 0; i < r->condition_count; i++)
		if (strcmp(r->conditions[i].fact, fact) == 0)
			return true;
	return false;
}

static void parse_check(struct parser *p, struct link_rules *r, char **words, size_t n)
{
	if (n != 3) {
		fail(p, "'check' needs a fact and a symbol: check FACT SYMBOL");
		return;
	}
	if (!defines_fact(r, words[1])) {
		fail(p, "'check %s': no 'fact %s' line comes before it", words[1], words[1]);
		return;
	}
	for (size_t i = 0; i < r->check_count; i++)
		if (strcmp(r->checks[i].fact, words[1]) == 0) {
			fail(p, "fact '%s' already has a check (line %u)", words[1],
			     r->checks[i].line);
			return;
		}
	struct link_check *c = append(p, &r->checks, &r->check_count, sizeof *c);
	if (!c)
		return;
	c->line = p->line;
	c->fact = copy(p, words[1]);
	c->symbol = copy(p, words[2]);
}

static void parse_variant_line(struct parser *p, struct link_variant *v, char **words, size_t n)
{
	if (strcmp(words[0], "when") == 0) {
		if (v->when) {
			fail(p, "variant '%s' already has a 'when' line", v->name);
			return;
		}
		if (n < 2) {
			fail(p, "'when' needs at least one fact");
			return;
		}
		v->when = calloc(n - 1, sizeof *v->when);
		if (!v->when) {
			fail(p, "out of memory");
			return;
		}
		for (size_t i = 1; i < n && !p->failed; i++) {
			bool negated = words[i][0] == '!';
			if (!check_name(p, "fact", words[i] + negated))
				return;
			v->when[v->when_count].negated = negated;
			v->when[v->when_count++].fact = copy(p, words[i] + negated);
		}
	} else if (strcmp(words[0], "link") == 0) {
		if (v->link || v->bitcode) {
			fail(p, "variant '%s' already says what replaces the library", v->name);
			return;
		}
		if (n < 2) {
			fail(p, "'link' needs at least one file");
			return;
		}
		v->link = calloc(n - 1, sizeof *v->link);
		if (!v->link) {
			fail(p, "out of memory");
			return;
		}
		for (size_t i = 1; i < n && !p->failed; i++)
			v->link[v->link_count++] =
				words[i][0] == '-' ? copy(p, words[i]) : absolute(p, words[i]);
	} else if (strcmp(words[0], "specialize") == 0) {
		if (v->link || v->bitcode) {
			fail(p, "variant '%s' already says what replaces the library", v->name);
			return;
		}
		if (n < 2) {
			fail(p, "'specialize' needs the bitcode (and FUNCTION=SPEC pairs, if any)");
			return;
		}
		v->bitcode = absolute(p, words[1]);
		v->replacements = calloc(n - 1, sizeof *v->replacements);
		if (!v->replacements) {
			fail(p, "out of memory");
			return;
		}
		for (size_t i = 2; i < n && !p->failed; i++) {
			char *equals = strchr(words[i], '=');
			if (!equals || equals == words[i] || !equals[1]) {
				fail(p, "'%s' is not FUNCTION=SPEC (the library's function, the spec "
					"function whose specialized body it gets)", words[i]);
				return;
			}
			*equals = '\0';
			for (size_t j = 0; j < v->replacement_count; j++)
				if (strcmp(v->replacements[j].function, words[i]) == 0 ||
				    strcmp(v->replacements[j].spec, equals + 1) == 0) {
					fail(p, "'%s=%s': each function and each spec once per "
						"'specialize' line", words[i], equals + 1);
					return;
				}
			struct link_replacement *r = &v->replacements[v->replacement_count++];
			r->function = copy(p, words[i]);
			r->spec = copy(p, equals + 1);
		}
	} else {
		fail(p, "unknown variant line '%s' (when, link, specialize)", words[0]);
	}
}

static void parse_line(struct parser *p, struct link_rules *r, char *line)
{
	bool indented = line[0] == ' ' || line[0] == '\t';
	char *words[MAX_WORDS];
	size_t n = split(line, words);
	if (n == 0)
		return;
	if (n > MAX_WORDS) {
		fail(p, "more than %d words on one line", MAX_WORDS);
		return;
	}
	if (indented) {
		if (!r->variant_count) {
			fail(p, "an indented line belongs to a variant, and no 'variant' line "
				"comes before it");
			return;
		}
		parse_variant_line(p, &r->variants[r->variant_count - 1], words, n);
		return;
	}
	if (strcmp(words[0], "library") == 0) {
		if (r->library)
			fail(p, "a second 'library' line (a rules file is for one library)");
		else if (n != 2 || !link_valid_name(words[1]))
			fail(p, "'library' needs one name: library NAME (for -lNAME, libNAME.a, "
				"libNAME.so)");
		else
			r->library = copy(p, words[1]);
		return;
	}
	if (!r->library) {
		fail(p, "the first directive must be 'library NAME'");
		return;
	}
	if (strcmp(words[0], "implicit") == 0) {
		if (n != 1)
			fail(p, "'implicit' takes nothing after it");
		r->implicit = true;
	} else if (strcmp(words[0], "fact") == 0) {
		parse_fact(p, r, words, n);
	} else if (strcmp(words[0], "check") == 0) {
		parse_check(p, r, words, n);
	} else if (strcmp(words[0], "variant") == 0) {
		if (n != 2 || !link_valid_name(words[1])) {
			fail(p, "'variant' needs one name: variant NAME");
			return;
		}
		for (size_t i = 0; i < r->variant_count; i++)
			if (strcmp(r->variants[i].name, words[1]) == 0) {
				fail(p, "a second variant '%s' (line %u)", words[1],
				     r->variants[i].line);
				return;
			}
		struct link_variant *v = append(p, &r->variants, &r->variant_count, sizeof *v);
		if (!v)
			return;
		v->line = p->line;
		v->name = copy(p, words[1]);
	} else if (strcmp(words[0], "when") == 0 || strcmp(words[0], "link") == 0 ||
		   strcmp(words[0], "specialize") == 0) {
		fail(p, "'%s' belongs to a variant: indent it under a 'variant' line", words[0]);
	} else {
		fail(p, "unknown directive '%s' (library, implicit, fact, check, variant)",
		     words[0]);
	}
}

/* What the whole file must satisfy, checked at the line of each variant. */
static void check_variants(struct parser *p, struct link_rules *r)
{
	for (size_t i = 0; i < r->variant_count && !p->failed; i++) {
		struct link_variant *v = &r->variants[i];
		p->line = v->line;
		if (!v->when)
			fail(p, "variant '%s' has no 'when' line", v->name);
		else if (!v->link && !v->bitcode)
			fail(p, "variant '%s' has neither a 'link' nor a 'specialize' line",
			     v->name);
		else if (v->bitcode && r->implicit)
			fail(p, "variant '%s': an implicit library's variants can only 'link' "
				"files (its code is not on the link line to specialize)", v->name);
	}
}

struct link_rules *link_rules_parse(const char *path, char *error, size_t error_size)
{
	struct parser p = {.path = path, .error = error, .error_size = error_size};
	struct link_rules *r = calloc(1, sizeof *r);
	FILE *in = fopen(path, "r");
	if (!r || !in) {
		fail(&p, "cannot read: %s", strerror(errno));
		free(r);
		if (in)
			fclose(in);
		return NULL;
	}
	r->path = copy(&p, path);
	/* Files the rules name are found beside them, wherever the link runs. */
	char *real = realpath(path, NULL);
	const char *slash = real ? strrchr(real, '/') : NULL;
	if (!slash || asprintf(&p.directory, "%.*s", (int)(slash - real + 1), real) < 0)
		p.directory = NULL, fail(&p, "cannot resolve the file's directory: %s",
					 strerror(errno));
	free(real);
	char *line = NULL;
	size_t capacity = 0;
	while (!p.failed && getline(&line, &capacity, in) >= 0) {
		p.line++;
		parse_line(&p, r, line);
	}
	free(line);
	fclose(in);
	if (!p.failed && !r->library) {
		p.line = 0;
		fail(&p, "no 'library NAME' line");
	}
	check_variants(&p, r);
	free(p.directory);
	if (p.failed) {
		link_rules_free(r);
		return NULL;
	}
	return r;
}

void link_rules_free(struct link_rules *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->condition_count; i++) {
		free(r->conditions[i].fact);
		free_words(r->conditions[i].names, r->conditions[i].name_count);
	}
	for (size_t i = 0; i < r->check_count; i++) {
		free(r->checks[i].fact);
		free(r->checks[i].symbol);
	}
	for (size_t i = 0; i < r->variant_count; i++) {
		struct link_variant *v = &r->variants[i];
		free(v->name);
		for (size_t j = 0; j < v->when_count; j++)
			free(v->when[j].fact);
		free(v->when);
		free_words(v->link, v->link_count);
		free(v->bitcode);
		for (size_t j = 0; j < v->replacement_count; j++) {
			free(v->replacements[j].function);
			free(v->replacements[j].spec);
		}
		free(v->replacements);
	}
	free(r->conditions);
	free(r->checks);
	free(r->variants);
	free(r->library);
	free(r->path);
	free(r);
}

size_t link_rules_fact_count(const struct link_rules *r)
{
	size_t count = 0;
	for (size_t i = 0; i < r->condition_count; i++) {
		size_t j = 0;
		while (j < i && strcmp(r->conditions[j].fact, r->conditions[i].fact) != 0)
			j++;
		count += j == i;
	}
	return count;
}

/* Whether one condition holds; why, in because. */
static bool condition_holds(const struct link_condition *c, const struct link_client *client,
			    char *because, size_t because_size)
{
	bool referenced = c->kind == LINK_UNLESS_REFERENCED || c->kind == LINK_IF_REFERENCED;
	for (size_t i = 0; i < c->name_count; i++) {
		const char *symbol = NULL;
		const char *where = referenced
					    ? client->references(client->context, c->names[i], &symbol)
					    : client->discloses(client->context, c->names[i]);
		if (!where)
			continue;
		if (referenced)
			snprintf(because, because_size, "%s references %s", where, symbol);
		else
			snprintf(because, because_size, "%s discloses %s", where, c->names[i]);
		return c->kind == LINK_IF_REFERENCED || c->kind == LINK_IF_PROPERTY;
	}
	const char *what = referenced ? "no client file references" : "no client file discloses";
	int n = snprintf(because, because_size, "%s", what);
	for (size_t i = 0; i < c->name_count && n > 0 && (size_t)n < because_size; i++)
		n += snprintf(because + n, because_size - n, " %s", c->names[i]);
	return c->kind == LINK_UNLESS_REFERENCED || c->kind == LINK_UNLESS_PROPERTY;
}

size_t link_rules_evaluate(const struct link_rules *r, const struct link_client *client,
			   struct link_fact_outcome *outcomes)
{
	size_t count = 0;
	for (size_t i = 0; i < r->condition_count; i++) {
		const struct link_condition *c = &r->conditions[i];
		size_t k = 0;
		while (k < count && strcmp(outcomes[k].fact, c->fact) != 0)
			k++;
		if (k == count) {
			outcomes[count++] = (struct link_fact_outcome){.fact = c->fact, .holds = true};
		} else if (!outcomes[k].holds) {
			continue; /* the first failing line says why */
		}
		char because[sizeof outcomes[k].because];
		outcomes[k].holds = condition_holds(c, client, because, sizeof because);
		/* A fact that holds is explained by all its lines; one that does not
		 * by the line that failed. */
		if (!outcomes[k].holds || !outcomes[k].because[0]) {
			snprintf(outcomes[k].because, sizeof outcomes[k].because, "%s", because);
		} else {
			size_t used = strlen(outcomes[k].because);
			snprintf(outcomes[k].because + used, sizeof outcomes[k].because - used,
				 "; %s", because);
		}
	}
	return count;
}

bool link_fact_holds(const char *fact, const struct link_fact_outcome *outcomes,
		     size_t outcome_count, const struct link_client *client)
{
	for (size_t i = 0; i < outcome_count; i++)
		if (strcmp(outcomes[i].fact, fact) == 0)
			return outcomes[i].holds;
	return client->discloses(client->context, fact) != NULL;
}

const struct link_variant *link_rules_choose(const struct link_rules *r,
					     const struct link_fact_outcome *outcomes,
					     size_t outcome_count,
					     const struct link_client *client,
					     const struct link_requirement **unmet)
{
	for (size_t i = 0; i < r->variant_count; i++) {
		const struct link_variant *v = &r->variants[i];
		const struct link_requirement *failed = NULL;
		for (size_t j = 0; j < v->when_count && !failed; j++)
			if (link_fact_holds(v->when[j].fact, outcomes, outcome_count, client) ==
			    v->when[j].negated)
				failed = &v->when[j];
		if (!failed)
			return v;
		if (unmet)
			unmet[i] = failed;
	}
	return NULL;
}

bool link_rules_names_library(const struct link_rules *r, const char *file)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	size_t length = strlen(r->library);
	if (strncmp(base, "-l", 2) == 0)
		return strcmp(base + 2, r->library) == 0;
	if (strncmp(base, "lib", 3) != 0 || strncmp(base + 3, r->library, length) != 0)
		return false;
	const char *suffix = base + 3 + length;
	if (strcmp(suffix, ".a") == 0)
		return true;
	if (strncmp(suffix, ".so", 3) != 0)
		return false;
	for (const char *c = suffix + 3; *c; c++)
		if (!(*c == '.' || (*c >= '0' && *c <= '9')))
			return false;
	return true;
}

bool link_symbol_matches(const char *pattern, const char *symbol)
{
	const char *at = strchr(symbol, '@');
	if (!at)
		return fnmatch(pattern, symbol, 0) == 0;
	char name[512];
	snprintf(name, sizeof name, "%.*s", (int)(at - symbol), symbol);
	return fnmatch(pattern, name, 0) == 0;
}
