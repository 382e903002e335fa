//===- main.cpp - The respec command line ---------------------------------===//
//
//   respec specialize SPEC.c SOURCE.c... [clang flags] -o OUT.o [options]
//   respec explain    SPEC.c SOURCE.c... [clang flags] [--html OUT.html] [options]
//
// Both compile the spec and the generic sources with clang, specialize every
// RESPEC_SPECIALIZE function of the spec, and clean up with LLVM's -O2 pipeline.
// `specialize` writes an object (or IR, or a header); `explain` shows binding
// times line by line and what the specialization achieved.
//
//===----------------------------------------------------------------------===//
#include "Diagnostics.h"
#include "Driver.h"
#include "Report.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cstring>
#include <unistd.h>

using namespace llvm;
using namespace respec;

static const char *Usage = R"(respec — specialize unmodified C for the case at hand

usage:
  respec specialize SPEC.c SOURCE.c... [clang flags] -o OUT.o [options]
  respec explain    SPEC.c SOURCE.c... [clang flags] [--html OUT.html] [options]
  respec embed      SPEC.c SOURCE.c... [clang flags] -o OUT.o --name NAME

A spec is a C file beside the generic code. Each function in it marked
RESPEC_SPECIALIZE (from <respec/respec.h>) calls the generic code; its
parameters are the dynamic inputs, what its body builds from constants is
static, and respec_assume()/respec_static_memory() state facts about memory.
respec evaluates the static part of the generic code away and emits the rest.

specialize writes OUT.o defining the spec functions with specialized bodies
(same names and signatures; every other definition is private to OUT.o, global
variables weak), ready to link in place of the generically compiled spec.

explain prints each reached source line marked S (static: evaluated away),
D (residual) or M (mixed), then the statistics and any budget hits.

embed writes OUT.o holding the LLVM bitcode of the spec and the sources, as
respec_bitcode_NAME / respec_bitcode_NAME_size: link it into a program that
specializes at run time with <respec/jit.h> (librespec-jit).

clang flags (-I, -D, -U, -std=, -include, -f..., -m..., -W...) are passed to clang
for every input file.

options:
  -o FILE              output file (specialize; "-" for stdout with --emit-llvm)
  --emit-llvm          write textual LLVM IR instead of an object
  --header FILE        also write a C header declaring the specialized functions
  --function NAME      specialize only NAME (repeatable)
  -O0 | -O1 | -O2 | -O3  cleanup pipeline after specialization (default -O2;
                       -O0 shows the raw residual code)
  --max-unroll N       iterations of one loop unrolled before it stays a loop
                       (default 4096)
  --max-growth N       residual instructions before the largest unrolled loop
                       stays a loop (default 400000)
  --max-inline-depth N nesting of unfolded calls (default 64)
  --name NAME          embed: suffix of the symbols (a C identifier)
  --html FILE          explain: also write a self-contained HTML report
  --color=auto|always|never   explain: colors in the terminal (default auto)
  -q, --quiet          no progress output
  -h, --help           this text

examples:
  respec specialize marshal_spec.c marshal.c -Iinclude -o marshal_spec.o
  respec explain interp_spec.c vm.c --html interp.html
)";

namespace {

struct CommandLine {
  std::string command;
  Inputs inputs;
  std::string output, header, html, name;
  bool emitLLVM = false, quiet = false;
  unsigned optLevel = 2;
  std::string color = "auto";
  SpecializeOptions options;
};

[[noreturn]] void usageError(const std::string &Message) {
  errs() << "respec: error: " << Message << "\nTry 'respec --help'.\n";
  exit(2);
}

unsigned parseCount(const std::string &Flag, const char *Text) {
  char *End = nullptr;
  unsigned long V = Text ? strtoul(Text, &End, 10) : 0;
  if (!Text || *End || V == 0 || V > 100000000)
    usageError(Flag + " takes a positive whole number");
  return unsigned(V);
}

bool isClangFlag(const std::string &A) {
  static const char *Prefixes[] = {"-I", "-D", "-U", "-std=", "-include", "-f", "-m", "-W",
                                   "-isystem", "-iquote", "-g", "-w"};
  for (const char *P : Prefixes)
    if (A.rfind(P, 0) == 0)
      return true;
  return false;
}

CommandLine parse(int Argc, char **Argv) {
  CommandLine CL;
  if (Argc < 2)
    usageError("missing command");
  CL.command = Argv[1];
  if (CL.command == "-h" || CL.command == "--help" || CL.command == "help") {
    outs() << Usage;
    exit(0);
  }
  if (CL.command != "specialize" && CL.command != "explain" && CL.command != "embed")
    usageError("unknown command '" + CL.command + "'");
  std::vector<std::string> Files;
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&]() -> const char * { return I + 1 < Argc ? Argv[++I] : nullptr; };
    auto NeedValue = [&](const char *V) {
      if (!V)
        usageError(A + " needs a value");
      return std::string(V);
    };
    if (A == "-h" || A == "--help") {
      outs() << Usage;
      exit(0);
    } else if (A == "-o") {
      CL.output = NeedValue(Next());
    } else if (A == "--emit-llvm") {
      CL.emitLLVM = true;
    } else if (A == "--header") {
      CL.header = NeedValue(Next());
    } else if (A == "--html") {
      CL.html = NeedValue(Next());
    } else if (A == "--name") {
      CL.name = NeedValue(Next());
    } else if (A == "--function") {
      CL.inputs.onlyFunctions.push_back(NeedValue(Next()));
    } else if (A.size() == 3 && A.rfind("-O", 0) == 0 && A[2] >= '0' && A[2] <= '3') {
      CL.optLevel = A[2] - '0';
    } else if (A == "--max-unroll") {
      CL.options.maxUnroll = parseCount(A, Next());
    } else if (A == "--max-growth") {
      CL.options.maxGrowth = parseCount(A, Next());
    } else if (A == "--max-inline-depth") {
      CL.options.maxInlineDepth = parseCount(A, Next());
    } else if (A.rfind("--color=", 0) == 0) {
      CL.color = A.substr(8);
      if (CL.color != "auto" && CL.color != "always" && CL.color != "never")
        usageError("--color takes auto, always or never");
    } else if (A == "-q" || A == "--quiet") {
      CL.quiet = true;
    } else if (A == "-include" || A == "-isystem" || A == "-iquote") {
      CL.inputs.clangFlags.push_back(A);
      CL.inputs.clangFlags.push_back(NeedValue(Next()));
    } else if (isClangFlag(A)) {
      CL.inputs.clangFlags.push_back(A);
    } else if (!A.empty() && A[0] == '-') {
      usageError("unknown option '" + A + "'");
    } else {
      Files.push_back(A);
    }
  }
  if (Files.empty())
    usageError("missing the spec file");
  CL.inputs.spec = Files[0];
  CL.inputs.sources.assign(Files.begin() + 1, Files.end());
  if ((CL.command == "specialize" || CL.command == "embed") && CL.output.empty())
    usageError(CL.command + " needs -o OUT");
  if (CL.command == "embed" &&
      (CL.name.empty() || !std::all_of(CL.name.begin(), CL.name.end(), [](char C) {
        return isalnum((unsigned char)C) || C == '_';
      })))
    usageError("embed needs --name NAME (letters, digits, _)");
  if (CL.output == "-" && !CL.emitLLVM)
    usageError("-o - needs --emit-llvm");
  return CL;
}

int run(const CommandLine &CL) {
  LLVMContext Ctx;
  SpecializeOptions Options = CL.options;
  bool ShowProgress = !CL.quiet && isatty(STDERR_FILENO);
  if (ShowProgress)
    Options.progress = [](unsigned Blocks, unsigned Restarts) {
      errs() << "\rrespec: " << Blocks << " blocks specialized, " << Restarts
             << " generalizations...";
    };
  auto Start = std::chrono::steady_clock::now();
  std::unique_ptr<Module> M = compileAndLink(Ctx, CL.inputs);
  std::vector<Function *> Specs = findSpecFunctions(*M, CL.inputs.onlyFunctions);
  if (Specs.empty())
    throw SpecError(CL.inputs.spec, "no RESPEC_SPECIALIZE function in the spec");
  if (CL.command == "embed") {
    writeEmbeddedBitcode(*M, CL.name, CL.output);
    return 0;
  }
  std::vector<Specialized> Done = specializeModule(*M, Specs, Options);
  if (ShowProgress)
    errs() << "\r\x1b[K";
  std::vector<ReportEntry> Entries;
  if (CL.command == "explain")
    for (Specialized &S : Done)
      Entries.push_back(makeReportEntry(S.spec->getName().str(), S.result));
  installSpecializedBodies(Done);
  internalizeForLinking(*M, Done);
  optimize(*M, CL.optLevel);

  if (CL.command == "explain") {
    for (auto [Entry, S] : llvm::zip(Entries, Done))
      Entry.instructionsAfter = S.spec->getInstructionCount();
    bool Color = CL.color == "always" || (CL.color == "auto" && isatty(STDOUT_FILENO));
    printTextReport(outs(), Entries, Color);
    if (!CL.html.empty())
      writeFileAtomically(CL.html, renderHtmlReport(Entries, "respec explain " + CL.inputs.spec));
    return 0;
  }
  writeOutput(*M, CL.output, CL.emitLLVM);
  if (!CL.header.empty())
    writeHeader(Done, CL.inputs.spec, CL.header);
  if (!CL.quiet) {
    double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    for (Specialized &S : Done) {
      const SpecializeStats &St = S.result.stats;
      errs() << "respec: " << S.spec->getName() << ": " << St.instructionsBefore
             << " generic instructions -> " << S.spec->getInstructionCount() << " specialized; "
             << St.branchesFolded << " branches folded, " << St.callsUnfolded
             << " calls unfolded, " << St.indirectCallsDevirtualized << " devirtualized, "
             << St.loopIterationsUnrolled << " loop iterations unrolled";
      if (St.budgetHits)
        errs() << ", " << St.budgetHits << " budget hits";
      errs() << "\n";
      for (const Note &N : S.result.notes)
        errs() << (N.loc ? formatLocation(N.loc) + ": " : "respec: ") << "note: " << N.message
               << "\n";
    }
    errs() << format("respec: done in %.2f s\n", Seconds);
  }
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  CommandLine CL = parse(Argc, Argv);
  try {
    return run(CL);
  } catch (const SpecError &E) {
    if (!CL.output.empty() && CL.output != "-")
      sys::fs::remove(CL.output); // never leave a stale or partial output behind
    errs() << (E.where.empty() ? "respec" : E.where) << ": error: " << E.what() << "\n";
    return 1;
  }
}
