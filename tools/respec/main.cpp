//===- main.cpp - The respec command line ---------------------------------===//
//
//   respec specialize SPEC.c SOURCE.c... [clang flags] -o OUT.o [options]
//   respec explain    SPEC.c SOURCE.c... [clang flags] [--html OUT.html] [--json OUT.json] [options]
//   respec guard      --term TERM... [-p BUILD_DIR] [SOURCE.c...] [options]
//   respec layout     --binary PATH --train 'COMMAND' [options] -- BUILD...
//
// Both compile the spec and the generic sources with clang, specialize every
// RESPEC_SPECIALIZE function of the spec, and clean up with LLVM's -O2 pipeline.
// `specialize` writes an object (or IR, or a header); `explain` shows binding
// times line by line and what the specialization achieved. Options respec does
// not own go to clang. Any failure, LLVM's own included, leaves no output behind.
// `guard` (GuardCommand.cpp) lists the statements that may break a predicate;
// `layout` (LayoutCommand.cpp) lays a program's code out from a profile.
//
//===----------------------------------------------------------------------===//
#include "ClangOptions.h"
#include "CompileCommands.h"
#include "Diagnostics.h"
#include "Driver.h"
#include "GuardCommand.h"
#include "LayoutCommand.h"
#include "LinkCommand.h"
#include "ProfileCommand.h"
#include "Report.h"
#include "Usage.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <set>
#include <cstring>
#include <unistd.h>

using namespace llvm;
using namespace respec;

static const char *Usage = R"(respec — specialize unmodified C for the case at hand

usage:
  respec specialize SPEC.c SOURCE.c... [clang flags] -o OUT.o [options]
  respec explain    SPEC.c SOURCE.c... [clang flags] [--html OUT.html] [--json OUT.json] [options]
  respec embed      SPEC.c SOURCE.c... [clang flags] -o OUT.o --name NAME
  respec embed      SPEC.c SOURCE.c... [clang flags] --emit-llvm -o OUT.bc
  respec guard      --term TERM... | --spec SPEC.c [-p BUILD_DIR] [SOURCE.c...]
  respec layout     --binary PATH --train 'COMMAND' [options] -- BUILD COMMAND...
  respec link       [--rules FILE]... [options] -- CC OBJECTS... -o PROGRAM
  respec profile    --cflags | --ldflags | --preload | report PROFILE... [options]
  respec profile    --binary PATH --train 'COMMAND' [options] -- BUILD COMMAND...
  respec --version

A spec is a C file beside the generic code. Each function in it marked
RESPEC_SPECIALIZE (from <respec/respec.h>) calls the generic code; its
parameters are the dynamic inputs, what its body builds from constants is
static, and respec_assume()/respec_static_memory() state facts about memory;
RESPEC_PURE/RESPEC_STABLE declare facts about external functions.
respec evaluates the static part of the generic code away and emits the rest.

specialize writes OUT.o defining the spec functions with specialized bodies
(same names and signatures; every other definition is private to OUT.o, global
variables weak), ready to link in place of the generically compiled spec,
beside the generic sources' objects. When the specialized code uses a static
variable of a generic source that the generic code changes, OUT.o cannot share
it with that source's object: respec stops and says so; link OUT.o instead of
the generic sources and pass --replaces-sources.

explain prints each reached source line marked S (static: evaluated away),
D (residual) or M (mixed), then the statistics and any budget hits.

embed writes OUT.o holding the LLVM bitcode of the spec and the sources, as
respec_bitcode_NAME / respec_bitcode_NAME_size: link it into a program that
specializes at run time with <respec/jit.h> (librespec-jit). With
--replaces-sources OUT.o also holds the sources compiled from that bitcode
(link it instead of them) and the address of each of their functions and
variables, file-static ones included (respec_symbols_NAME): specialized code
then binds to exactly the program's copy, whatever its symbol table shows.
With --emit-llvm it writes the bitcode itself: a library's code, for the
`specialize` lines of its link-time rules (its spec may then have no
RESPEC_SPECIALIZE function).

guard lists every statement of the sources that may change a predicate's
terms (writes, frees, initializations of fresh objects, aliasing), as text or
SARIF, and with --fix guards the direct writes: 'respec guard --help'.

link links a program with libraries that adapt to it: each library's rules
decide facts from the symbols the program references and the properties it
discloses, and pick a prebuilt variant or have respec specialize the
library's code for them: 'respec link --help'.

profile prints the flags that build a program with value profiling, and
ranks the facts its runs saw (parameters and fields that kept one value,
memory an interpreter walks that never changed) by what specializing on them
would fold minus the guards and replugs they would cost, with draft specs:
'respec profile --help'.

layout builds a program for BOLT, profiles a training workload, lays the code
out (and with --pgo adds clang's PGO), measures every variant and keeps the
fastest; the generic fallbacks of specialized code go cold: 'respec layout
--help'.

clang flags: every option below is respec's; any other argument starting with
'-' goes to clang for every input file (-I, -D, -std=, -include FILE, -x c,
--target=..., -nostdinc, -pthread, -Xclang ARG, ...), with the value of the
options that take one as the next argument.

options:
  -o FILE              output file (specialize; "-" for stdout with --emit-llvm)
  --emit-llvm          write textual LLVM IR instead of an object; embed: write
                       the bitcode itself (a library's code for `respec link`
                       rules to specialize; no --name)
  --header FILE        also write a C header declaring the specialized functions
  --function NAME      specialize only NAME (repeatable)
  --replaces-sources   OUT.o replaces the generic sources in the link (link it
                       instead of them): their definitions keep their linkage,
                       so their static variables have one instance, OUT.o's;
                       embed: OUT.o holds them compiled (-O level), with the
                       address table run-time specialization binds to
  -p DIR, --compile-commands DIR
                       compile each input file with its own flags from
                       DIR/compile_commands.json (then the flags given here);
                       a file not listed there gets the flags given here only
  -O0 | -O1 | -O2 | -O3  cleanup pipeline after specialization (default -O2;
                       -O0 shows the raw residual code)
  --max-unroll N       iterations of one loop unrolled before it stays a loop
                       (default 4096)
  --max-unroll-dynamic-exit N
                       iterations unrolled of a loop that a static test (a
                       counter against a bound) and a run-time one may both
                       leave, before it counts as under run-time control and
                       stays a loop (default 0: at once)
  --max-growth N       residual instructions before the largest unrolled loop
                       stays a loop (default 400000)
  --max-inline-depth N nesting of unfolded calls (default 64)
  --max-copies N       copies of one callee unfolded, when each left mostly
                       residual code (16+ instructions), before its calls go
                       to one function specialized for their static arguments,
                       or to the generic one (default 8; 0: never)
  --reroll N           after clean-up, turn runs of at least N residual
                       instructions that repeat with constants moving by a
                       fixed step (an unrolled loop) back into a counted loop
                       LLVM can vectorize (default 256; 0: never)
  --max-work N         work (instructions evaluated plus abstract state copied)
                       of one attempt before the loop that unrolled most, else
                       the callee that cost most, stays residual; after 4x N in
                       all, every loop and call does (default 2000000, a few
                       seconds)
  --max-call-effects N instructions visited to find what one residual call to
                       visible code may write, from its call site (calls
                       through pointers the caller knows included); past it,
                       the callee's type-based write summary applies
                       (default 5000; 0: never analyze)
  --name NAME          embed: suffix of the symbols (a C identifier)
  --html FILE          explain: also write a self-contained HTML report
  --json FILE          explain: also write the statistics, the conditional
                       branches emitted and after cleanup, and each reached
                       line's counts (evaluated away, left residual; the same
                       for its conditional branches) as JSON
  --color=auto|always|never   explain: colors in the terminal (default auto)
  -q, --quiet          no progress output
  -h, --help           this text
  --version            respec's version and the LLVM it is built with

examples:
  respec specialize marshal_spec.c marshal.c -Iinclude -o marshal_spec.o
  respec specialize counter_spec.c counter.c --replaces-sources -o counter.o
  respec specialize vm_spec.c src/vm.c -p build -o vm_spec.o
  respec explain interp_spec.c vm.c --html interp.html
)";

namespace {

struct CommandLine {
  std::string command;
  Inputs inputs;
  std::string output, header, html, json, name, compileCommands;
  bool emitLLVM = false, quiet = false;
  LinkMode linkMode = LinkMode::BesideSources;
  unsigned optLevel = 2;
  unsigned minReroll = 256; ///< --reroll: see Reroll.h
  std::string color = "auto";
  SpecializeOptions options;

  /// The files this run writes: none of them is left behind when it fails.
  std::vector<std::string> outputFiles() const {
    std::vector<std::string> Files;
    for (const std::string &F : {output, header, html, json})
      if (!F.empty() && F != "-")
        Files.push_back(F);
    return Files;
  }
};

unsigned parseCount(const std::string &Flag, const char *Text, bool ZeroAllowed = false) {
  char *End = nullptr;
  unsigned long V = Text ? strtoul(Text, &End, 10) : 0;
  if (!Text || !*Text || *End || (V == 0 && !ZeroAllowed) || V > 100000000)
    usageError("respec", Flag + (ZeroAllowed ? " takes a whole number" : " takes a positive whole number"));
  return unsigned(V);
}

void printVersion() {
  outs() << "respec " RESPEC_VERSION "\n"
         << "LLVM " LLVM_VERSION_STRING "\n"
         << "clang: " << clangPath() << "\n"
         << "include: " << includeDir() << "\n";
}

CommandLine parse(int Argc, char **Argv) {
  CommandLine CL;
  if (Argc < 2)
    usageError("respec", "missing command");
  CL.command = Argv[1];
  if (CL.command == "-h" || CL.command == "--help" || CL.command == "help") {
    outs() << Usage;
    exit(0);
  }
  if (CL.command == "--version") {
    printVersion();
    exit(0);
  }
  if (CL.command != "specialize" && CL.command != "explain" && CL.command != "embed")
    usageError("respec", "unknown command '" + CL.command + "'");
  std::vector<std::string> Files, ClangFlags;
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&]() -> const char * { return I + 1 < Argc ? Argv[++I] : nullptr; };
    auto NeedValue = [&](const char *V) {
      if (!V)
        usageError("respec", A + " needs a value");
      return std::string(V);
    };
    if (A == "-h" || A == "--help") {
      outs() << Usage;
      exit(0);
    } else if (A == "--version") {
      printVersion();
      exit(0);
    } else if (A == "-o") {
      CL.output = NeedValue(Next());
    } else if (A == "--emit-llvm") {
      CL.emitLLVM = true;
    } else if (A == "--header") {
      CL.header = NeedValue(Next());
    } else if (A == "--html") {
      CL.html = NeedValue(Next());
    } else if (A == "--json") {
      CL.json = NeedValue(Next());
    } else if (A == "--name") {
      CL.name = NeedValue(Next());
    } else if (A == "--function") {
      CL.inputs.onlyFunctions.push_back(NeedValue(Next()));
    } else if (A == "--replaces-sources") {
      CL.linkMode = LinkMode::ReplacesSources;
    } else if (A == "-p" || A == "--compile-commands") {
      CL.compileCommands = NeedValue(Next());
    } else if (A.size() == 3 && A.rfind("-O", 0) == 0 && A[2] >= '0' && A[2] <= '3') {
      CL.optLevel = A[2] - '0';
    } else if (A == "--max-unroll") {
      CL.options.maxUnroll = parseCount(A, Next());
    } else if (A == "--max-unroll-dynamic-exit") {
      CL.options.maxUnrollWithDynamicExit = parseCount(A, Next(), /*ZeroAllowed=*/true);
    } else if (A == "--max-work") {
      CL.options.maxWork = parseCount(A, Next());
    } else if (A == "--max-call-effects") {
      CL.options.maxCallEffectsWork = parseCount(A, Next(), /*ZeroAllowed=*/true);
    } else if (A == "--max-growth") {
      CL.options.maxGrowth = parseCount(A, Next());
    } else if (A == "--reroll") {
      CL.minReroll = parseCount(A, Next(), /*ZeroAllowed=*/true);
    } else if (A == "--max-copies") {
      CL.options.maxCopies = parseCount(A, Next(), /*ZeroAllowed=*/true);
    } else if (A == "--max-inline-depth") {
      CL.options.maxInlineDepth = parseCount(A, Next());
    } else if (A.rfind("--color=", 0) == 0) {
      CL.color = A.substr(8);
      if (CL.color != "auto" && CL.color != "always" && CL.color != "never")
        usageError("respec", "--color takes auto, always or never");
    } else if (A == "-q" || A == "--quiet") {
      CL.quiet = true;
    } else if (A.size() > 1 && A[0] == '-') {
      ClangFlags.push_back(A);
      if (takesSeparateValue(A))
        ClangFlags.push_back(NeedValue(Next()));
    } else {
      Files.push_back(A);
    }
  }
  if (Files.empty())
    usageError("respec", "missing the spec file");
  CL.inputs.spec = Files[0];
  CL.inputs.sources.assign(Files.begin() + 1, Files.end());
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  CL.inputs.clangFlags = withAbsolutePaths(ClangFlags, Cwd);
  if ((CL.command == "specialize" || CL.command == "embed") && CL.output.empty())
    usageError("respec", CL.command + " needs -o OUT");
  if (CL.command == "embed" && !CL.emitLLVM &&
      (CL.name.empty() || !std::all_of(CL.name.begin(), CL.name.end(), [](char C) {
        return isalnum((unsigned char)C) || C == '_';
      })))
    usageError("respec", "embed needs --name NAME (letters, digits, _)");
  if (CL.output == "-" && !CL.emitLLVM)
    usageError("respec", "-o - needs --emit-llvm");
  return CL;
}

/// What `specialize` refuses and `explain` warns about: the output would use a
/// private copy of a static variable that the program's generic code changes.
std::string copiedStaticMessage(const CopiedStatic &C, const CommandLine &CL) {
  std::string Problem = "the specialized code uses " + C.variable + ", a static variable of " +
                        C.file + " that the generic code may change";
  if (CL.command != "specialize")
    return Problem + "; 'respec specialize' asks to link its output instead of " + C.file +
           ", with --replaces-sources";
  return Problem + ", and " + CL.output + " would have a copy of its own: link " + CL.output +
         " instead of " + C.file + " and pass --replaces-sources";
}

/// A problem found in the input, at a place in the user's sources.
struct Finding {
  std::string where, message;
};

/// Each finding as a warning, or when Fatal as an error: all printed, the last
/// one thrown, so that no output is written.
void reportFindings(const std::vector<Finding> &Findings, bool Fatal) {
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    if (Fatal && I + 1 == Findings.size())
      throw SpecError(F.where, F.message);
    errs() << (F.where.empty() ? "respec" : F.where) << (Fatal ? ": error: " : ": warning: ")
           << F.message << "\n";
  }
}

/// specialize: an error for each copied static; explain: a warning for each.
void reportCopiedStatics(const std::vector<CopiedStatic> &Copied, const CommandLine &CL) {
  std::vector<Finding> Findings;
  for (const CopiedStatic &C : Copied)
    Findings.push_back({C.where, copiedStaticMessage(C, CL)});
  reportFindings(Findings, CL.command == "specialize");
}

/// Assumptions that decided nothing: warnings, or with -Werror errors.
void reportIneffectiveAssumptions(const std::vector<Specialized> &Done, const CommandLine &CL) {
  std::vector<Finding> Findings;
  for (const Specialized &S : Done)
    for (const Assumption &A : S.result.assumptions)
      if (A.usedAt.empty())
        Findings.push_back({formatLocation(A.loc),
                            "assumption had no effect: nothing the specialized code computes "
                            "depends on it (what it states is not read after it, or is "
                            "written before it is read)"});
  reportFindings(Findings, llvm::is_contained(CL.inputs.clangFlags, "-Werror"));
}

/// Declared facts that decided nothing in any spec function: warnings, or with
/// -Werror errors. The facts of one bundle (RESPEC_C_LOCALE_CTYPE()) are one
/// declaration: it had an effect if any of them had.
void reportIneffectiveFacts(const std::vector<Specialized> &Done, const CommandLine &CL) {
  if (Done.empty())
    return;
  std::vector<ExternalFactReport> All = Done.front().result.externalFacts;
  for (const Specialized &S : llvm::drop_begin(Done))
    for (auto [Sum, F] : llvm::zip(All, S.result.externalFacts)) {
      Sum.decided.insert(Sum.decided.end(), F.decided.begin(), F.decided.end());
      Sum.kept.insert(Sum.kept.end(), F.kept.begin(), F.kept.end());
      Sum.callsReached += F.callsReached;
      Sum.callsUnfolded += F.callsUnfolded;
      if (Sum.unusable.empty())
        Sum.unusable = F.unusable;
    }
  std::vector<Finding> Findings;
  std::set<std::string> BundlesWithEffect;
  for (const ExternalFactReport &F : All)
    if (!F.bundle.empty() && F.hadEffect())
      BundlesWithEffect.insert(F.bundle + F.where);
  std::set<std::string> BundlesReported;
  for (const ExternalFactReport &F : All) {
    if (F.hadEffect())
      continue;
    if (!F.bundle.empty()) {
      if (BundlesWithEffect.count(F.bundle + F.where) ||
          !BundlesReported.insert(F.bundle + F.where).second)
        continue;
      auto InBundle = [&](const ExternalFactReport &O) {
        return O.bundle == F.bundle && O.where == F.where;
      };
      bool Unusable = llvm::all_of(All, [&](const ExternalFactReport &O) {
        return !InBundle(O) || !O.unusable.empty();
      });
      Findings.push_back({F.where, F.bundle + " had no effect: " +
                                       (Unusable ? F.unusable
                                                 : std::string("the specialized code reads "
                                                               "none of the memory it declares"))});
      continue;
    }
    bool Pure = StringRef(F.declaration).startswith("RESPEC_PURE");
    std::string Why;
    if (!F.unusable.empty())
      Why = F.unusable;
    else if (!F.callsReached)
      Why = "no call of the function was reached";
    else if (F.callsUnfolded == F.callsReached)
      Why = "respec has the function's definition and unfolds it";
    else if (Pure)
      Why = "no call reached had static arguments and memory, and without the declaration "
            "none would have forgotten memory";
    else
      Why = "nothing was read from its memory";
    Findings.push_back({F.where, F.declaration + " had no effect: " + Why});
  }
  reportFindings(Findings, llvm::is_contained(CL.inputs.clangFlags, "-Werror"));
}

void printSummary(const std::vector<Specialized> &Done, const std::vector<unsigned> &Sizes,
                  double Seconds) {
  for (auto [S, Size] : llvm::zip(Done, Sizes)) {
    const SpecializeStats &St = S.result.stats;
    errs() << "respec: " << S.spec->getName() << ": " << St.instructionsBefore
           << " generic instructions -> " << Size << " specialized; " << St.branchesFolded
           << " branches folded, " << St.callsUnfolded << " calls unfolded, "
           << St.indirectCallsDevirtualized << " devirtualized, " << St.loopIterationsUnrolled
           << " loop iterations unrolled";
    if (St.budgetHits)
      errs() << ", " << St.budgetHits << " budget hits";
    errs() << "\n";
    for (const Note &N : S.result.notes)
      errs() << (N.loc ? formatLocation(N.loc) + ": " : "respec: ") << "note: " << N.message
             << "\n";
  }
  errs() << format("respec: done in %.2f s\n", Seconds);
}

int run(CommandLine &CL) {
  LLVMContext Ctx;
  SpecializeOptions Options = CL.options;
  bool ShowProgress = !CL.quiet && isatty(STDERR_FILENO);
  if (ShowProgress)
    Options.progress = [](unsigned Blocks, unsigned Restarts) {
      errs() << "\rrespec: " << Blocks << " blocks specialized, " << Restarts
             << " generalizations...";
    };
  auto Start = std::chrono::steady_clock::now();
  if (!CL.compileCommands.empty()) {
    std::vector<std::string> Files = CL.inputs.sources;
    Files.push_back(CL.inputs.spec);
    CL.inputs.ownCommands = loadCompileCommands(CL.compileCommands, Files);
  }
  std::unique_ptr<Module> M = compileAndLink(Ctx, CL.inputs);
  std::vector<Function *> Specs = findSpecFunctions(*M, CL.inputs.onlyFunctions);
  // A library's bitcode for its link-time rules may have no spec function:
  // `specialize BITCODE` alone compiles the library for each client.
  bool LibraryBitcode = CL.command == "embed" && CL.emitLLVM;
  if (Specs.empty() && !LibraryBitcode)
    throw SpecError(CL.inputs.spec, "no RESPEC_SPECIALIZE function in the spec");
  if (CL.command == "embed") {
    ExternalFacts Facts(*M); // the declarations are checked here, not at run time
    if (CL.emitLLVM) {
      writeBitcode(*M, CL.output);
      return 0;
    }
    writeEmbeddedBitcode(*M, CL.name, CL.output, CL.linkMode == LinkMode::ReplacesSources,
                         CL.optLevel);
    return 0;
  }
  std::vector<Specialized> Done = specializeModule(*M, Specs, Options);
  if (ShowProgress)
    errs() << "\r\x1b[K";
  std::vector<ReportEntry> Entries;
  if (CL.command == "explain")
    for (Specialized &S : Done)
      Entries.push_back(makeReportEntry(S.spec->getName().str(), S.result));
  reportIneffectiveAssumptions(Done, CL);
  reportIneffectiveFacts(Done, CL);
  installSpecializedBodies(Done);
  if (CL.linkMode == LinkMode::BesideSources)
    reportCopiedStatics(findCopiedMutableStatics(*M, Done, CL.inputs), CL);
  internalizeForLinking(*M, Done, CL.linkMode);
  optimize(*M, CL.optLevel, Done, CL.minReroll);
  // Counted here, for both commands: code generation rewrites the IR it compiles.
  // Recursive variants count with their spec.
  std::vector<unsigned> Sizes, ConditionalBranches;
  for (const Specialized &S : Done) {
    unsigned Size = 0, Branches = 0;
    for (const Function *F : specializedCode(*M, S)) {
      Size += F->getInstructionCount();
      for (const BasicBlock &BB : *F)
        Branches += conditionalBranches(*BB.getTerminator());
    }
    Sizes.push_back(Size);
    ConditionalBranches.push_back(Branches);
  }

  if (CL.command == "explain") {
    for (auto [Entry, Size, Branches] : llvm::zip(Entries, Sizes, ConditionalBranches)) {
      Entry.instructionsAfter = Size;
      Entry.conditionalBranchesAfter = Branches;
    }
    bool Color = CL.color == "always" || (CL.color == "auto" && isatty(STDOUT_FILENO));
    printTextReport(outs(), Entries, Color);
    if (!CL.html.empty())
      writeFileAtomically(CL.html, renderHtmlReport(Entries, "respec explain " + CL.inputs.spec));
    if (!CL.json.empty())
      writeFileAtomically(CL.json, renderJsonReport(Entries));
    return 0;
  }
  writeOutput(*M, CL.output, CL.emitLLVM);
  if (!CL.header.empty())
    writeHeader(Done, CL.inputs.spec, CL.header);
  if (!CL.quiet)
    printSummary(Done, Sizes,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count());
  return 0;
}

/// The outputs of the failing run (set once the command line is parsed).
std::vector<std::string> OutputFiles;

/// Removes the outputs: an error leaves no stale or partial output behind.
void removeOutputs() {
  for (const std::string &File : OutputFiles)
    sys::fs::remove(File);
}

/// LLVM's report_fatal_error (a bug in respec or LLVM, or input LLVM cannot
/// compile): LLVM would print and abort, leaving the outputs behind.
void onFatalError(void *, const char *Reason, bool) {
  removeOutputs();
  errs() << "respec: error: internal error: " << Reason << "\n";
  exit(1);
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc >= 2 && strcmp(Argv[1], "guard") == 0)
    return runGuardCommand(Argc - 2, Argv + 2);
  if (Argc >= 2 && strcmp(Argv[1], "layout") == 0)
    return runLayoutCommand(Argc - 2, Argv + 2);
  if (Argc >= 2 && strcmp(Argv[1], "link") == 0)
    return runLinkCommand(Argc - 2, Argv + 2);
  if (Argc >= 2 && strcmp(Argv[1], "profile") == 0)
    return runProfileCommand(Argc - 2, Argv + 2);
  CommandLine CL = parse(Argc, Argv);
  OutputFiles = CL.outputFiles();
  install_fatal_error_handler(onFatalError);
  for (const std::string &File : OutputFiles)
    sys::RemoveFileOnSignal(File); // a crash
  int Status = 1;
  try {
    Status = run(CL);
  } catch (const SpecError &E) {
    errs() << (E.where.empty() ? "respec" : E.where) << ": error: " << E.what() << "\n";
  } catch (const std::exception &E) {
    errs() << "respec: error: internal error: " << E.what() << "\n";
  }
  if (Status != 0)
    removeOutputs();
  for (const std::string &File : OutputFiles)
    sys::DontRemoveFileOnSignal(File);
  return Status;
}
