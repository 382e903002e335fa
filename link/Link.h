//===- Link.h - `respec link`: libraries that adapt to their client -*- C++ -*-===//
//
// What it does. OMOS (seeds, file 004) replaced "dead, lifeless archive
// files" with libraries that look at the program they are linked into and
// build the implementation that fits it. `respec link` is that step on
// today's toolchain: used in place of the link command, it
//
//   1. takes the link command apart (LinkLine.h): its objects, archives,
//      shared objects and -l libraries, resolved as the linker resolves them;
//   2. finds the rules of the libraries that take part (rules.h): those
//      given with --rules or in $RESPEC_LINK_RULES (colon-separated), and a
//      libNAME.rules file beside any library the command links;
//   3. reads the client (Client.h): every other file of the link and the
//      shared objects they need, for the symbols they reference and the
//      properties they disclose (RESPEC_PROPERTY, <respec/link.h>);
//   4. evaluates each library's facts and picks its variant: the first whose
//      facts all hold, or none (the library as it is);
//   5. puts the variant in the library's place on the command line: the
//      files of its `link` line, or an object respec's partial evaluator
//      specializes from the library's bitcode with the client's facts
//      (LibrarySpecialization.h), in a temporary directory; an implicit
//      library (the C library, which the driver links unnamed) gets its
//      variant's files after the command's inputs;
//   6. runs the command, and removes what it made.
//
// --explain prints every fact with the symbol, file or property that decided
// it, every variant with why it was or was not chosen, and what the chosen one
// changed (files replaced, functions specialized, code bytes before and
// after). --dry-run does all but the link (and prints the command it would
// run). --program PROG evaluates the rules for an already linked program, as
// the audit module does when the program starts (link/audit.c).
//
// The contract (docs: link/README.md): a fact inferred from symbols holds for
// the program as linked. dlopen and dlsym can bring a fork, a thread or an
// lseek in later; a `check` line turns such a fact into a test at each entry
// of the code specialized under it, and a library's prebuilt variant must
// test what it relies on itself.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_LINK_LINK_H
#define RESPEC_LINK_LINK_H

#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace respec::link {

struct LinkOptions {
  std::vector<std::string> rulesFiles; ///< --rules, in order
  std::vector<std::string> properties; ///< --property: disclosed for the program
  std::vector<std::string> command;    ///< the link command (after --)
  std::string program;                 ///< --program: a linked program instead
  bool explain = false;
  bool dryRun = false;
  bool verbose = false; ///< print the command that runs
};

/// Runs `respec link`; the link's exit status (0 for --dry-run and --program).
/// Throws SpecError for bad rules or a command it cannot take apart.
int runLink(const LinkOptions &Options, llvm::raw_ostream &Out);

} // namespace respec::link

#endif
