//===- LayoutCommand.cpp - `respec layout`: the command line of layout/ ---===//
//
// A thin front end: reads the options and runs layout/'s pipeline.
//
//===----------------------------------------------------------------------===//
#include "LayoutCommand.h"
#include "Diagnostics.h"
#include "Usage.h"
#include "Layout.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace respec;
using namespace respec::layout;

namespace {

const char *LayoutUsage = R"(respec layout — lay a program's code out from a profile (BOLT, clang PGO)

usage:
  respec layout --binary PATH --train 'COMMAND' [options] -- BUILD COMMAND...
  respec layout --binary PROGRAM --train 'COMMAND' [options]

Builds the program with what BOLT needs (lld, -Wl,--emit-relocs), runs the
training command on a copy that records a profile, and lays the code out
with BOLT: blocks in ext-tsp order, functions split into hot and cold parts,
functions ordered by each algorithm asked for. Every variant then runs the
measuring command, interleaved; the fastest laid-out one is the output, and
the report says what each did and how fast it ran.

The build runs in a copy of the source tree (under the work directory), once
per compile configuration, with CC set to a compiler (clang-16 with the
stage's flags) that is also first in PATH as cc, gcc, clang and clang-16; its
own optimization flags stay. Without a build command, PROGRAM is laid out as
it is: it must have been linked with -Wl,--emit-relocs.

In the training and measuring commands (run with sh -c), {binary} is the
program variant to run, already quoted for the shell (put no quotes around
it inside the command); it is also in $RESPEC_LAYOUT_BINARY. BOLT's instrumented
program writes its profile when it exits normally: stop a server with its
shutdown command, not SIGKILL.

A program that uses librespec slots tells the training run which generic
functions were the fallbacks of specialized code; those are kept out of the
hot order (they should run rarely), even if the training touched them.

options:
  --binary PATH        the program the build makes, relative to the source
                       tree (required)
  --train 'COMMAND'    the training workload (required)
  --measure 'COMMAND'  the workload that picks the winner (default: --train)
  --cachegrind 'COMMAND'
                       also run COMMAND once per variant under valgrind's
                       cachegrind ({binary} runs the variant under it) and
                       report instructions, I1 misses and mispredicted
                       branches: figures that do not vary from run to run
  --source DIR         the source tree the build runs in (default: .)
  --pgo                also clang's instrumented PGO: build instrumented,
                       train, build with the profile, then BOLT on top
                       (variants pgo and pgo+bolt-ORDER)
  --sampling           profile for BOLT with perf record -e cpu-clock and
                       perf2bolt instead of instrumentation (addresses only:
                       no branch records on machines without LBR)
  --orders LIST        function orders to try, comma-separated, of hfsort+,
                       hfsort, pettis-hansen (the paper's); default all three
  --rounds N           measuring rounds per variant (default 3)
  --work DIR           builds, profiles and variants, kept between runs: a
                       stage whose inputs did not change is reused
                       (default respec-layout)
  --rebuild            build and profile again even when current
  -o PATH              the laid-out program (default NAME.layout)
  --json FILE          the report as JSON too
  -h, --help           this text

example (Redis; examples/redis/ has the scripts):
  respec layout --source redis-7.0.15 --binary src/redis-server \
      --train 'examples/redis/workload {binary} train' --pgo \
      -- make -j2 USE_SYSTEM_JEMALLOC=yes USE_JEMALLOC=yes

Exit status: 0 when a laid-out program was written, 1 when a stage failed
(the message names its log), 2 on a bad command line (options included).
)";

LayoutOptions parse(int Argc, char **Argv) {
  LayoutOptions O;
  int I = 0;
  for (; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&] { return optionValue("respec layout", Argc, Argv, I); };
    if (A == "-h" || A == "--help") {
      outs() << LayoutUsage;
      exit(0);
    } else if (A == "--") {
      ++I;
      break;
    } else if (A == "--binary") {
      O.binary = Value();
    } else if (A == "--train") {
      O.trainCommand = Value();
    } else if (A == "--measure") {
      O.measureCommand = Value();
    } else if (A == "--cachegrind") {
      O.cachegrindCommand = Value();
    } else if (A == "--source") {
      O.sourceDir = Value();
    } else if (A == "--pgo") {
      O.pgo = true;
    } else if (A == "--sampling") {
      O.sampling = true;
    } else if (A == "--orders") {
      O.orders.clear();
      SmallVector<StringRef> Orders;
      StringRef(Value()).split(Orders, ',', -1, /*KeepEmpty=*/false);
      for (StringRef Order : Orders)
        O.orders.push_back(Order.trim().str());
    } else if (A == "--rounds") {
      std::string N = Value();
      if (StringRef(N).getAsInteger(10, O.rounds) || O.rounds == 0)
        usageError("respec layout", "--rounds takes a positive number, not '" + N + "'");
    } else if (A == "--work") {
      O.workDir = Value();
    } else if (A == "--rebuild") {
      O.rebuild = true;
    } else if (A == "-o") {
      O.output = Value();
    } else if (A == "--json") {
      O.jsonReport = Value();
    } else {
      usageError("respec layout", "unknown option '" + A + "' (the build command goes after --)");
    }
  }
  for (; I < Argc; ++I)
    O.buildCommand.push_back(Argv[I]);
  if (std::string Problem = optionsProblem(O); !Problem.empty())
    usageError("respec layout", Problem);
  return O;
}

} // namespace

int runLayoutCommand(int Argc, char **Argv) {
  LayoutOptions Options = parse(Argc, Argv);
  try {
    runLayout(Options);
    return 0;
  } catch (const SpecError &E) {
    errs() << (E.where.empty() ? "respec layout" : E.where) << ": error: " << E.what() << "\n";
  }
  return 1;
}
