//===- Guard.h - respec guard: every statement that may break a predicate -*- C++ -*-===//
//
// What it does. A predicate of librespec (include/respec/runtime.h) holds while
// its *terms* keep the values the specialized code was built for: fields of a
// handle (`struct cu_data::cu_total`, `CLIENT::cl_auth`) or global variables.
// Synthetix's TypeGuard found, in the kernel's sources, every statement that may
// change a term, so that each gets a guard (RESPEC_GUARDED_STORE: replug to
// generic code before the store). `respec guard` does the same for today's C: it
// parses a project's sources with clang (each with its own flags from
// compile_commands.json) and lists, with file:line, in text or SARIF 2.1:
//
//   write   a statement that may change a live term, so it needs a guard:
//             store        `p->term = v`, also of a part of it (`p->term.tv_sec = v`)
//             compound     `p->term += v`, `|=`, ...
//             increment    `p->term++`, `--p->term`
//             object       an assignment of a whole object that holds terms
//                          (`*p = *q`, `outer.handle = h`)
//             memory       memcpy/memmove/memset/bzero/bcopy over a term or over
//                          an object that holds terms
//   free    free() or realloc() of an object that holds terms: the terms die with
//           it, so a live predicate on it must be broken first
//   fresh   writes that cannot break a live predicate, reported apart because
//           they are the main source of false positives of a purely type-based
//           search (the TypeGuard paper's): the allocation of an object that
//           holds terms, and every write or free through a pointer to an object
//           allocated in the same function (malloc, calloc, ... or --allocator)
//           before that pointer escapes, or to a local object whose address has
//           not been taken. Nobody else can reach such an object, so no predicate
//           can cover it yet (Freshness.h says what "escapes" means).
//   alias   operations after which a write the search cannot see may change a
//           term: taking a term's address (`&p->term`, an array term decaying to a
//           pointer), a cast to or from a pointer to an object that holds terms
//           (the `void *` / `char *` / caddr_t round trips of C handles), a union
//           that overlays such an object, and passing such an object to code
//           outside the analyzed sources (a function defined in none of them, or
//           an indirect call). A person reviews these.
//
// `--fix` rewrites each write of kind store, compound or increment that is a
// statement of its own into RESPEC_GUARDED_STORE(obj->spid, obj->term, value),
// adds the SPID field to the struct (or a SPID variable beside a global) and the
// include of <respec/runtime.h>, checks that every rewritten source still
// compiles, and only then replaces the files (Fix.h).
//
// Known limits (each one a place where a write can be missed; the alias warnings
// point at most of them):
//   - Writes through a pointer that is not of the containing type: after a cast
//     (warned), through a `char *` into the object, through the address of a
//     term (warned), and by code outside the analyzed sources (warned when the
//     object is passed to it; not when that code reaches it some other way).
//   - A callee given a pointer to a member that is not a term (`&p->xdrs`) is
//     assumed not to reach the rest of the object (container_of).
//   - Terms are matched by name in each translation unit: two different structs
//     with one tag in two files are one term; a global term matches every file's
//     variable of that name, static ones included.
//   - Writes spelled inside a macro are found (at the macro's use) but not
//     rewritten by --fix, nor are stores whose value is used (`return p->f = v`).
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_GUARD_GUARD_H
#define RESPEC_GUARD_GUARD_H

#include <string>
#include <vector>

namespace respec::guard {

/// One translation unit and the clang flags its build compiles it with.
struct SourceFile {
  std::string path;               ///< absolute
  std::string directory;          ///< the build ran here: relative paths in flags resolve here
  std::vector<std::string> flags; ///< clang flags only (no compiler, -c, -o, file)
};

/// A term as the user names it (Terms.h has the syntax).
struct TermRequest {
  std::string text;   ///< "struct cu_data::cu_total", "CLIENT::cl_auth", "rpc_createerr"
  std::string origin; ///< where it was named: "--term", or spec.c:12 for a respec_assume
};

struct GuardOptions {
  std::vector<TermRequest> terms;
  std::vector<SourceFile> sources;
  std::vector<std::string> allocators;   ///< beyond malloc, calloc, ... (CallRoles.h)
  std::vector<std::string> deallocators; ///< beyond free
  std::string spidField = "spid";        ///< --fix: the SPID member (or suffix of a global's)
  std::string runtimeIncludeDir;         ///< --fix: where <respec/runtime.h> is
  bool fix = false;
};

enum class Category { Write, Free, Fresh, Alias };

enum class Kind {
  Store,
  CompoundAssign,
  Increment,
  ObjectAssign,
  MemoryWrite,
  Free,
  Allocation,
  FreshWrite,
  FreshFree,
  AliasAddress,
  AliasCast,
  AliasUnion,
  AliasExternal,
};

Category categoryOf(Kind K);
/// A short stable name ("store", "alias-cast", ...): the text output's and SARIF's rule.
const char *kindName(Kind K);

struct Finding {
  Kind kind;
  std::string file; ///< absolute
  unsigned line = 0, column = 0;
  std::string subject; ///< a term ("struct cu_data::cu_total") or a record ("struct cu_data")
  std::string message;
  std::string fixStatus; ///< with --fix, for writes: "rewritten" or "not rewritten: why"

  bool operator<(const Finding &O) const;
  bool operator==(const Finding &O) const;
};

struct GuardResult {
  std::vector<std::string> terms; ///< as named, in the order given
  std::vector<Finding> findings;  ///< sorted by file, line, column
  std::vector<std::string> rewrittenFiles;
};

/// Runs the search (and with options.fix the rewrite). Throws SpecError, with
/// file:line where there is one, for input it cannot use: an unknown struct,
/// field or global, a term of bad syntax, a source clang rejects, a rewrite that
/// does not compile (then no file is written).
GuardResult runGuard(const GuardOptions &Options);

/// The terms a spec states facts about: every field and global read by the
/// lvalue of each respec_assume (`a->b->c == K` names b and c). Each with the
/// spec's file:line as origin.
std::vector<TermRequest> termsOfSpec(const SourceFile &Spec);

} // namespace respec::guard

#endif
