//===- LibrarySpecialization.h - A library's code, for one client -*- C++ -*-===//
//
// A variant's `specialize BITCODE [FUNCTION=SPEC...]` line (link/rules.h).
// The library ships its code as bitcode (`respec embed SPEC.c SOURCES...
// --emit-llvm -o lib.bc`), specs included; at link time each SPEC is
// specialized with the facts that hold for this client (respec_fact() is 1
// for them) and becomes the body the client's calls of FUNCTION reach:
//
//   FUNCTION          the entry the client links to; with no run-time check
//                     it is SPEC's specialized body itself, otherwise
//                         if (every checked byte != 0) return SPEC(args...);
//                         else return FUNCTION.generic(args...);
//   FUNCTION.generic  the library's own FUNCTION, renamed and made internal:
//                     the library's internal calls keep reaching it, and the
//                     specialized code may still call it
//
// The checks: for each fact the specialized code relies on (a respec_fact()
// it read as 1, or a `when` fact of the variant) that has a `check FACT
// SYMBOL` line, the byte at SYMBOL. A fact inferred from symbols holds for
// the program as linked; code loaded later (dlopen) or reached through dlsym
// can break it, and a check is how the library notices, at one load and
// branch per call. Facts without a check are the client's promise: rules
// should give one to every fact with a cheap run-time witness.
//
// The object replaces the library on the link line. It exports what the rest
// of the link references (the client's objects, archives and shared objects,
// and the other libraries the rules decide) and nothing else: every other
// definition becomes internal, and the clean-up deletes what no exported code
// reaches: the library is debloated for its client (as whole-program
// specializers such as OCCAM do). A symbol the program would only find with
// dlsym is gone: that is the contract of a specialized variant (link/README.md).
// When some file of the link could not be read, what it references is not
// known, and every definition keeps its linkage. What is left of the library's
// dispatch through tables of functions then often has one target, and calls
// through those slots become guarded direct calls (SingleTargetCalls.h): the
// implementations the client never creates are gone, and so is the dispatch
// among them. A line without FUNCTION=SPEC pairs asks for that alone.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_LINK_LIBRARYSPECIALIZATION_H
#define RESPEC_LINK_LIBRARYSPECIALIZATION_H

#include "SingleTargetCalls.h"
#include "Specializer.h"
#include "rules.h"
#include <set>
#include <string>
#include <vector>

namespace respec::link {

struct SpecializedFunction {
  std::string function, spec;
  SpecializeStats stats;
  unsigned instructionsAfter = 0; ///< of the specialized body, after clean-up
  std::vector<std::string> checks; ///< "fact (symbol)", tested on entry
};

struct SpecializedLibrary {
  std::vector<SpecializedFunction> functions;
  std::set<std::string> factsRelied;
  IndirectCallCounts dispatch; ///< calls through tables' slots, and those made direct
};

/// Specializes Variant's bitcode for a client with Facts, exporting only the
/// symbols in Exports (all when null), and writes the object to ObjectPath
/// (atomically). Throws SpecError at the rules' line.
SpecializedLibrary specializeLibrary(const link_rules &Rules, const link_variant &Variant,
                                     const std::set<std::string> &Facts,
                                     const std::set<std::string> *Exports,
                                     const std::string &ObjectPath);

} // namespace respec::link

#endif
