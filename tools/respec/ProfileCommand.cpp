//===- ProfileCommand.cpp - `respec profile`: the command line of profile/ -===//
//
// A thin front end: prints the flags that build a program with the value
// profiling, and ranks the profiles its runs wrote (profile/ProfileReport.h).
//
//===----------------------------------------------------------------------===//
#include "ProfileCommand.h"
#include "Diagnostics.h"
#include "ProfileReport.h"
#include "ProfileTrain.h"
#include "Builds.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>

using namespace llvm;
using namespace respec;

namespace {

const char *ProfileUsage = R"usage(respec profile — find what to specialize from a run of the program

usage:
  respec profile --cflags              flags to compile the program with
  respec profile --ldflags             flags to link it with
  respec profile --preload             the library to LD_PRELOAD to watch
                                       what a program does with its files
  respec profile report PROFILE... [options]
  respec profile --binary PATH --train 'COMMAND' [options] -- BUILD COMMAND...
                                       all three steps below in one command

1. Build the program with clang-16, adding the flags respec profile prints
   (a pass plugin that instruments every function, and debug info so that the
   report can name fields), at -O1 or more:
     make CC=clang-16 CFLAGS="-O2 $(respec profile --cflags)" \
          LDFLAGS="$(respec profile --ldflags)"
   With RESPEC_PROFILE_MODE=calls in clang's environment only call counts are
   recorded (a cheap first run, whose report names the most called
   functions; no values, no block counts, no prediction);
   with RESPEC_PROFILE_FUNCTIONS=f,g values are recorded only in those
   functions (call counts and writes everywhere).
   Or, for the files a program reads (an unmodified program will do), run it
   with LD_PRELOAD=$(respec profile --preload): it records, per file, the
   reads, the bytes, and what would share the file's offset (dup, fork, a
   second reading thread): the I/O predicates librespec-io specializes on.
   It writes its own profile, named as below with ".files" added.
2. Run the workload. Each process writes its profile when it exits, to
   $RESPEC_PROFILE_OUT ("%p" becomes its process id; default
   respec-profile.%p.txt), also when it ends with _exit() (not the files
   observer's, which writes at exit()); a process killed
   by a signal writes none (stop servers with their shutdown command). A
   forked child's profile counts only what the child did.
3. respec profile report PROFILE... ranks the candidate predicates: the
   values a parameter or a field behind one took on (almost) every
   observation, the memory an interpreter walks through a parameter that
   never changed, and the fields that each object keeps while it is read (a
   few values, read far more often than written). Each gets Synthetix's
   estimate for the run, in ns: what specializing saves less what it costs
   (specializing at run time, a guard per write to the field, a replug per
   change, a dispatch per call on a parameter that changes, a choice of
   variant per write to a per-object quasi-invariant); they are ranked
   without the one-time cost of specializing, which a long run repays. For
   the first functions (ranked at 1 ns an observation) it runs the partial
   evaluator with and without the facts and predicts the speedup: the run's
   executed instructions per source line, weighed by the share of each line
   the specialization left residual; those instructions at --instruction-ns
   are the saving, and the saving per observation they
   measure prices the other candidates. Files read privately rank by the
   ns librespec-io would save (the reads' time in read(2), less what
   librespec-io does instead), with the program's predicted speedup. With
   --specs DIR it writes a draft spec per function that compiles as it is.

One command (--train): the build command runs in a copy of the source tree
(--source, default .) with a compiler wrapper that adds --cflags and --ldflags
to every compile and link (cc, gcc, clang and clang-16 on PATH, and $CC, are
clang-16 with them); the build is reused while its inputs are unchanged. Then
the training command runs (sh -c; {binary} is the built program's path, already
quoted), its processes write their profiles into the work directory, and the
report ranks them.
  --binary PATH        the program the build makes, relative to the source tree
  --train 'COMMAND'    the workload
  --source DIR         the source tree (default .; it must be clean: the copy
                       would keep objects built without the profiling)
  --work-dir DIR       builds, logs and profiles (default respec-profile)
  --rebuild            build even when the build is current

report options (also with --train):
  --top N              candidates to list (default 10)
  --dominance X        share of a site's observations its value must have to be
                       a candidate (default 0.9)
  --measure N          for the first N functions (ranked at 1 ns an
                       observation), count with respec explain the
                       instructions they specialize to with their integer
                       facts and the regions the run read whole, and without
                       them, and predict the speedup (default 3; 0: none)
  --call-cost N        what a call costs once its body is gone, in IR
                       instructions, added to both sides of a predicted
                       speedup (default 10)
  --instruction-ns N   what an IR instruction of the generic code takes, in
                       ns, pricing what specialization saves (default 0.25:
                       libpcap's interpreter in bench/results/profile.json)
  --guard-ns N         what a guarded store costs above a plain one (default
                       0.004, librespec's guard_ns_above_plain_store in
                       bench/results/runtime.json; bench/run runtime measures
                       it on your machine)
  --replug-ns N        what a broken predicate's replug costs (default 779,
                       librespec's guard-fire case there)
  --choose-ns N        at each write of a field that is a quasi-invariant of
                       each object, choosing the variant for its new value
                       (default 10)
  --specialize-ns N    specializing at run time on memory the run computed
                       (a filter program), once (default 1600000:
                       librespec-jit's runtime_gen_ms_median in
                       bench/results/bpf.json); facts the source can state
                       are specialized at build time, which the run does
                       not pay
  --mispredict-cost N  what a mispredicted branch costs, in IR instructions:
                       the branches the facts leave (each estimated to miss
                       its rarer way), added to both sides (default 30)
  --specs DIR          write DIR/FUNCTION_spec.c for the listed candidates
  --html FILE          also write the report as a self-contained HTML page
  -h, --help           this text

examples (test/profile/stream-and-interpreter.c runs one on a stream and an
interpreter; test/profile/train.c builds a make project in one command):
  clang-16 -O2 $(respec profile --cflags) vm.c $(respec profile --ldflags) -o vm
  RESPEC_PROFILE_OUT=vm.profile ./vm < workload
  respec profile report vm.profile --specs specs

  respec profile --source vm-1.0 --binary vm --train '{binary} < workload' \
      --specs specs -- make

  a CMake project's target (test/profile/train-cmake.c; CMake finds the cc
  that adds the profiling):
  respec profile --source vm-1.0 --binary build/vm --train '{binary} < workload' \
      -- sh -c 'cmake -S . -B build && cmake --build build --target vm'
)usage";

/// An installed respec's file in its library directory, else the build tree's.
std::string findFile(const char *Name, const char *BuildTreePath) {
  static int Anchor;
  SmallString<256> Installed(sys::path::parent_path(sys::fs::getMainExecutable("respec", &Anchor)));
  sys::path::append(Installed, RESPEC_LIB_DIR_FROM_BINDIR, Name);
  sys::path::remove_dots(Installed, /*remove_dot_dot=*/true);
  if (sys::fs::exists(Installed))
    return Installed.str().str();
  if (sys::fs::exists(BuildTreePath))
    return BuildTreePath;
  throw SpecError("", std::string("cannot find ") + Name + " (built with respec's build tree, "
                      "installed in its library directory)");
}

unsigned unsignedValue(StringRef Option, StringRef Text) {
  unsigned N;
  if (Text.getAsInteger(10, N))
    throw SpecError("", Option.str() + " takes a number, not '" + Text.str() + "'");
  return N;
}

double realValue(StringRef Option, StringRef Text) {
  double X;
  if (Text.getAsDouble(X) || X < 0)
    throw SpecError("", Option.str() + " takes a non-negative number, not '" + Text.str() + "'");
  return X;
}

/// respec profile --cflags and --ldflags, as words.
std::vector<std::string> compileFlags() {
  // -frecord-command-line: the report compiles specs with the sources' flags.
  return {"-g", "-frecord-command-line",
          "-fpass-plugin=" + findFile("librespec-profile-pass.so", RESPEC_PROFILE_PLUGIN)};
}

std::vector<std::string> linkFlags() {
  // The whole archive: builds put LDFLAGS before the objects that need it.
  // _exit and _Exit wrapped: the profile is written however the program ends.
  return {"-Wl,--whole-archive", findFile("librespec-profile.a", RESPEC_PROFILE_RUNTIME),
          "-Wl,--no-whole-archive", "-Wl,--wrap=_exit", "-Wl,--wrap=_Exit", "-pthread"};
}

void printWords(const std::vector<std::string> &Words) {
  for (size_t I = 0; I < Words.size(); ++I)
    outs() << (I ? " " : "") << Words[I];
  outs() << "\n";
}

/// The value of option Argv[I], the next word (I moves past it).
StringRef optionValue(int &I, int Argc, char **Argv) {
  if (I + 1 >= Argc)
    throw SpecError("", std::string(Argv[I]) + " needs a value");
  return Argv[++I];
}

/// Parses one report option at Argv[I] (advancing I past its value); false if
/// Arg is not one.
bool reportOption(StringRef Arg, int &I, int Argc, char **Argv, profile::ReportOptions &O) {
  auto Value = [&] { return optionValue(I, Argc, Argv); };
  // The model's numbers, each an option of its own.
  const std::pair<StringRef, double profile::ReportOptions::*> Reals[] = {
      {"--dominance", &profile::ReportOptions::dominance},
      {"--call-cost", &profile::ReportOptions::callCost},
      {"--guard-ns", &profile::ReportOptions::guardNs},
      {"--replug-ns", &profile::ReportOptions::replugNs},
      {"--choose-ns", &profile::ReportOptions::chooseNs},
      {"--specialize-ns", &profile::ReportOptions::specializeNs},
      {"--instruction-ns", &profile::ReportOptions::instructionNs},
      {"--mispredict-cost", &profile::ReportOptions::mispredictCost}};
  for (auto &[Name, Member] : Reals)
    if (Arg == Name) {
      O.*Member = realValue(Arg, Value());
      return true;
    }
  if (Arg == "--top")
    O.top = unsignedValue(Arg, Value());
  else if (Arg == "--measure")
    O.measure = unsignedValue(Arg, Value());
  else if (Arg == "--html")
    O.htmlPath = Value();
  else if (Arg == "--specs")
    O.specDir = Value().str();
  else
    return false;
  return true;
}

/// respec profile --binary PATH --train 'COMMAND' [options] -- BUILD...: the
/// build, the training and the report, in one command (ProfileTrain.h).
int train(int Argc, char **Argv) {
  layout::LayoutOptions T;
  T.workDir = "respec-profile";
  profile::ReportOptions O;
  int I = 0;
  for (; I < Argc && strcmp(Argv[I], "--"); ++I) {
    StringRef Arg = Argv[I];
    auto Value = [&] { return optionValue(I, Argc, Argv).str(); };
    if (reportOption(Arg, I, Argc, Argv, O))
      continue;
    if (Arg == "--train")
      T.trainCommand = Value();
    else if (Arg == "--binary")
      T.binary = Value();
    else if (Arg == "--source")
      T.sourceDir = Value();
    else if (Arg == "--work-dir")
      T.workDir = Value();
    else if (Arg == "--rebuild")
      T.rebuild = true;
    else
      throw SpecError("", "unknown option '" + Arg.str() + "' (respec profile --help)");
  }
  for (++I; I < Argc; ++I)
    T.buildCommand.push_back(Argv[I]);
  if (T.binary.empty() || T.trainCommand.empty() || T.buildCommand.empty())
    throw SpecError("", "--train needs --binary PATH, --train 'COMMAND' and the build command "
                        "after -- (respec profile --help)");
  std::vector<std::string> Flags = compileFlags();
  for (std::string &Flag : linkFlags())
    Flags.push_back(std::move(Flag));
  std::string Inputs =
      layout::fileIdentity(findFile("librespec-profile-pass.so", RESPEC_PROFILE_PLUGIN)) + "\n" +
      layout::fileIdentity(findFile("librespec-profile.a", RESPEC_PROFILE_RUNTIME)) + "\n";
  O.profiles = profile::trainProfiles(T, Flags, Inputs);
  profile::report(O);
  return 0;
}

int run(int Argc, char **Argv) {
  if (Argc == 0 || !strcmp(Argv[0], "-h") || !strcmp(Argv[0], "--help")) {
    outs() << ProfileUsage;
    return Argc == 0 ? 2 : 0;
  }
  if (!strcmp(Argv[0], "--cflags")) {
    printWords(compileFlags());
    return 0;
  }
  if (!strcmp(Argv[0], "--ldflags")) {
    printWords(linkFlags());
    return 0;
  }
  if (!strcmp(Argv[0], "--preload")) {
    outs() << findFile("librespec-profile-files.so", RESPEC_PROFILE_FILES) << "\n";
    return 0;
  }
  if (StringRef(Argv[0]).startswith("--"))
    return train(Argc, Argv);
  if (strcmp(Argv[0], "report"))
    throw SpecError("", std::string("unknown command '") + Argv[0] +
                            "' (respec profile --help lists them)");
  profile::ReportOptions O;
  for (int I = 1; I < Argc; ++I) {
    StringRef Arg = Argv[I];
    if (Arg == "-h" || Arg == "--help") {
      outs() << ProfileUsage;
      return 0;
    }
    if (reportOption(Arg, I, Argc, Argv, O))
      continue;
    if (Arg.startswith("-"))
      throw SpecError("", "unknown option '" + Arg.str() + "' (respec profile --help)");
    O.profiles.push_back(Arg.str());
  }
  profile::report(O);
  return 0;
}

} // namespace

int runProfileCommand(int Argc, char **Argv) {
  try {
    return run(Argc, Argv);
  } catch (const SpecError &E) {
    errs() << (E.where.empty() ? "respec profile" : E.where) << ": error: " << E.what() << "\n";
    return 1;
  }
}
