//===- GuardCommand.cpp - `respec guard`: the command line of guard/ -------===//
//
// A thin front end: reads the options, gathers each source's flags (from the
// project's compile_commands.json and the command line, as `specialize` does),
// runs guard/ and prints or writes its report. The report file, like every
// output of respec, is written whole or not at all.
//
//===----------------------------------------------------------------------===//
#include "GuardCommand.h"
#include "ClangOptions.h"
#include "CompileCommands.h"
#include "Diagnostics.h"
#include "Usage.h"
#include "Driver.h"
#include "Guard.h"
#include "GuardReport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace respec;
using namespace respec::guard;

namespace {

const char *GuardUsage = R"(respec guard — find every statement that may break a specialization predicate

usage:
  respec guard --term TERM... [-p BUILD_DIR] [SOURCE.c...] [clang flags] [options]
  respec guard --spec SPEC.c  [-p BUILD_DIR] [SOURCE.c...] [clang flags] [options]

A predicate (librespec, <respec/runtime.h>) holds while its terms keep their
values. guard lists, with file:line, every statement of the sources that may
change a term, so that each can become a RESPEC_GUARDED_STORE:

  write   store, compound (+=), increment (++/--), object (assignment of a
          whole struct holding terms), memory (memcpy/memset/... over a term
          or such a struct): each needs a guard
  free    free/realloc of a struct holding terms: its predicates die with it
  fresh   allocation of such a struct, and writes and frees through a pointer
          to one allocated in the same function before the pointer escapes
          (or a local struct whose address is not taken): no predicate can
          cover it yet, so no guard is needed
  alias   the address of a term taken, a cast to or from a pointer to such a
          struct (void * / char * handles), a union holding one, the struct
          passed to code outside the sources: writes guard cannot see; review

terms:
  --term 'struct TAG::FIELD'   a field, by struct (or union) tag
  --term 'TYPEDEF::FIELD'      a field of the struct a typedef names
  --term NAME                  a global variable
  --spec SPEC.c                every field and global that the lvalues of the
                               spec's respec_assume() facts read
                               (respec_assume(xdrs->x_ops->x_putlong == f):
                               XDR::x_ops and struct xdr_ops::x_putlong)

sources:
  -p DIR, --compile-commands DIR
                       DIR/compile_commands.json gives each source's flags;
                       with no SOURCE.c, every file it lists is searched
  SOURCE.c...          search these (all when no -p); with -p, a file the
                       database does not list gets the command line's flags
  clang flags          any other argument starting with '-' (-I, -D, -include
                       FILE, ...) goes to clang for every source, after the
                       database's flags

options:
  --format text|sarif  text (default): one line per finding, then counts;
                       sarif: SARIF 2.1.0 for editors and CI
  -o FILE              write the report to FILE (default: standard output)
  --fix                rewrite each direct store, compound assignment and
                       increment that is a statement of its own into
                       RESPEC_GUARDED_STORE(obj->spid, obj->term, value), add
                       a `respec_spid spid;` member to each struct that has
                       none (a NAME_spid variable beside a global term) and
                       #include <respec/runtime.h>; files are replaced only if
                       every source still compiles; the rest is reported
  --spid-field NAME    the SPID member's name (default spid)
  --allocator NAME     also an allocator, like malloc (repeatable)
  --deallocator NAME   also a deallocator, like free (repeatable)
  -h, --help           this text

examples:
  respec guard -p build --term 'struct cu_data::cu_total' --term 'CLIENT::cl_auth'
  respec guard -p build --spec rpc_spec.c --format sarif -o guard.sarif
  respec guard --term counter --fix src/counter.c -Iinclude
  respec guard -p build --term 'struct conn::state' src/conn.c src/server.c

Exit status: 0 when the search ran (whatever it found), 1 on bad input (an
unknown struct, field or global; a source clang rejects; a missing
compile_commands.json; a --fix whose result would not compile), 2 on a bad
command line.
)";

struct GuardCommandLine {
  GuardOptions options;
  std::vector<std::string> files, clangFlags;
  std::string compileCommands, spec, output, format = "text";
};

GuardCommandLine parse(int Argc, char **Argv) {
  GuardCommandLine CL;
  for (int I = 0; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&] { return optionValue("respec guard", Argc, Argv, I); };
    if (A == "-h" || A == "--help") {
      outs() << GuardUsage;
      exit(0);
    } else if (A == "--term") {
      CL.options.terms.push_back({Value(), "--term"});
    } else if (A == "--spec") {
      CL.spec = Value();
    } else if (A == "-p" || A == "--compile-commands") {
      CL.compileCommands = Value();
    } else if (A == "--format") {
      CL.format = Value();
      if (CL.format != "text" && CL.format != "sarif")
        usageError("respec guard", "--format takes text or sarif");
    } else if (A == "-o") {
      CL.output = Value();
    } else if (A == "--fix") {
      CL.options.fix = true;
    } else if (A == "--spid-field") {
      CL.options.spidField = Value();
    } else if (A == "--allocator") {
      CL.options.allocators.push_back(Value());
    } else if (A == "--deallocator") {
      CL.options.deallocators.push_back(Value());
    } else if (A.size() > 1 && A[0] == '-') {
      CL.clangFlags.push_back(A);
      if (takesSeparateValue(A))
        CL.clangFlags.push_back(Value());
    } else {
      CL.files.push_back(A);
    }
  }
  if (CL.options.terms.empty() && CL.spec.empty())
    usageError("respec guard", "no term: name one with --term, or a spec with --spec");
  if (CL.files.empty() && CL.compileCommands.empty())
    usageError("respec guard", "no source: give SOURCE.c files or -p BUILD_DIR");
  return CL;
}

/// Each file with its build's flags (when the database lists it), then the
/// command line's, all paths absolute.
std::vector<SourceFile> sourcesOf(const GuardCommandLine &CL, std::vector<std::string> Files) {
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  std::vector<std::string> Flags = withAbsolutePaths(CL.clangFlags, Cwd);
  std::map<std::string, CompileCommand> Own;
  if (!CL.compileCommands.empty())
    Own = Files.empty() ? allCompileCommands(CL.compileCommands)
                        : loadCompileCommands(CL.compileCommands, Files);
  if (Files.empty())
    for (const auto &[File, Command] : Own)
      Files.push_back(File);
  std::vector<SourceFile> Sources;
  for (const std::string &File : Files) {
    SmallString<256> Path(File);
    sys::fs::make_absolute(Cwd, Path);
    if (!sys::fs::exists(Path))
      throw SpecError(File, "no such source file");
    SourceFile S{Path.str().str(), Cwd.str().str(), {}};
    if (auto It = Own.find(File); It != Own.end()) {
      S.directory = It->second.directory;
      S.flags = It->second.flags;
    }
    S.flags.insert(S.flags.end(), Flags.begin(), Flags.end());
    Sources.push_back(std::move(S));
  }
  return Sources;
}

} // namespace

int runGuardCommand(int Argc, char **Argv) {
  GuardCommandLine CL = parse(Argc, Argv);
  try {
    CL.options.sources = sourcesOf(CL, CL.files);
    if (!CL.spec.empty())
      for (TermRequest &T : termsOfSpec(sourcesOf(CL, {CL.spec}).front()))
        CL.options.terms.push_back(std::move(T));
    CL.options.runtimeIncludeDir = includeDir();
    GuardResult Result = runGuard(CL.options);
    std::string Report =
        CL.format == "sarif" ? renderSarif(Result, RESPEC_VERSION) : renderText(Result);
    if (CL.output.empty() || CL.output == "-")
      outs() << Report;
    else
      writeFileAtomically(CL.output, Report);
    return 0;
  } catch (const SpecError &E) {
    errs() << (E.where.empty() ? "respec guard" : E.where) << ": error: " << E.what() << "\n";
  }
  return 1;
}
