//===- LinkCommand.cpp - `respec link`: the command line of link/ ---------===//
//
// A thin front end: reads the options and runs link/'s pipeline.
//
//===----------------------------------------------------------------------===//
#include "LinkCommand.h"
#include "Diagnostics.h"
#include "Link.h"
#include "rules.h"
#include "Usage.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace respec;
using namespace respec::link;

namespace {

const char *LinkUsage = R"(respec link — link a program with libraries that adapt to it (OMOS)

usage:
  respec link [--rules FILE]... [options] -- CC OBJECTS... [-lLIB...] -o PROGRAM
  respec link [--rules FILE]... --program PROGRAM

Use it in place of the link command (CMake: respec_link(TARGET), from
respec's package). A library that takes part ships rules: which facts about
its client matter (no fork, no threads, no lseek, a property the program
discloses), and which implementation fits a client for which they hold. For
each such library the command links, respec link reads the rest of the
program (objects, archives, shared objects and the shared objects they need),
decides the facts, and links the chosen variant in the library's place: its
prebuilt files, or the library's code specialized by respec's partial
evaluator for this program's facts. Then it runs the command.

Rules come from --rules, from $RESPEC_LINK_RULES (colon-separated files), and
from libNAME.rules beside any libNAME.a or libNAME.so the command links. The
format is in link/README.md; in short:

  library counter
  fact single-threaded unless-referenced pthread_create thrd_create
  check single-threaded __libc_single_threaded
  fact no-spawn unless-referenced fork vfork posix_spawn* system popen exec*
  variant unlocked
      when single-threaded
      specialize libcounter.bc counter_add=counter_add_spec

A program discloses a property with RESPEC_PROPERTY("big-io") at file scope
in any of its sources (<respec/link.h>), or its build does with --property;
a property is also a fact by that name. Rules for the C library (`library c`
with `implicit`: the driver links it unnamed) add their variant's files after
the command's inputs: a different malloc, say.

With --program, the rules are evaluated for an already linked program (its
dynamic symbols, its notes, the libraries it needs), as the audit module
librespec-link-audit.so does when the program starts
(LD_AUDIT=librespec-link-audit.so): nothing is linked.

options:
  --rules FILE     a library's rules (repeatable)
  --property NAME  disclose NAME for the program, as RESPEC_PROPERTY in one of
                   its sources would (for programs whose sources you do not
                   change; repeatable)
  --explain        print every fact and why it holds or not, every variant
                   and why it was or was not chosen, and what the chosen one
                   changed (files, specialized functions, code bytes)
  -n, --dry-run    decide and explain what would change, print the command,
                   link nothing
  -v, --verbose    print the command that runs
  --program PROG   evaluate the rules for a linked program (implies --explain)
  -h, --help       this text

Exit status: the link command's; 1 when respec link itself fails (bad rules,
a library it cannot specialize: nothing is linked then), 2 on a bad command
line.
)";

LinkOptions parse(int Argc, char **Argv) {
  LinkOptions O;
  int I = 0;
  for (; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "-h" || A == "--help") {
      outs() << LinkUsage;
      exit(0);
    } else if (A == "--") {
      ++I;
      break;
    } else if (A == "--rules") {
      O.rulesFiles.push_back(optionValue("respec link", Argc, Argv, I));
    } else if (A == "--property") {
      std::string P = optionValue("respec link", Argc, Argv, I);
      if (!link_valid_name(P.c_str()))
        usageError("respec link", "--property takes a name (letters, digits, '-', '_', '.'), not '" +
                                      P + "'");
      O.properties.push_back(P);
    } else if (A == "--program") {
      O.program = optionValue("respec link", Argc, Argv, I);
    } else if (A == "--explain") {
      O.explain = true;
    } else if (A == "-n" || A == "--dry-run") {
      O.dryRun = true;
    } else if (A == "-v" || A == "--verbose") {
      O.verbose = true;
    } else {
      usageError("respec link", "unknown option '" + A + "' (the link command goes after --)");
    }
  }
  for (; I < Argc; ++I)
    O.command.push_back(Argv[I]);
  if (O.program.empty() && O.command.empty())
    usageError("respec link", "missing the link command (respec link [options] -- cc ... -o prog)");
  if (!O.program.empty() && !O.command.empty())
    usageError("respec link", "--program evaluates a linked program: give no link command");
  return O;
}

} // namespace

int runLinkCommand(int Argc, char **Argv) {
  LinkOptions Options = parse(Argc, Argv);
  try {
    return runLink(Options, outs());
  } catch (const SpecError &E) {
    outs().flush();
    errs() << (E.where.empty() ? "respec link" : E.where) << ": error: " << E.what() << "\n";
  }
  return 1;
}
