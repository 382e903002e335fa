//===- Layout.h - `respec layout`: profile-based code layout, one command ---===//
//
// What it does. Lays a C program's code out from a profile of a training
// workload, as HP's PBO did (seeds, file 002): blocks of a function ordered so
// that the hot path falls through, cold blocks split away, functions that call
// each other placed together. The work itself is done by today's tools —
// clang's instrumented PGO and BOLT — and respec does not rewrite them; this
// makes them one command for any C project, and adds what only respec knows:
// which functions are the generic fallbacks of specialized code (cold by
// design, even when a training run touched them) and which are specialized.
//
// The pipeline (builds and profiles are kept in the work directory and reused
// when their inputs did not change; BOLT and the measurements run every time):
//
//   build "o2"        the user's build command, run in a copy of the source
//                     tree, with a compiler that adds -fuse-ld=lld
//                     -Wl,--emit-relocs (BOLT needs the relocations to move
//                     functions); the build's own optimization flags stay
//   profile           BOLT instrumentation (llvm-bolt -instrument, run the
//                     training command, merge-fdata), or with --sampling perf
//                     record -e cpu-clock + perf2bolt -nl (no LBR here: the
//                     profile has no edges, only sampled addresses)
//   bolt-ORDER        llvm-bolt -reorder-blocks=ext-tsp -split-functions
//                     -reorder-functions=ORDER for each function order asked
//                     for: pettis-hansen (the paper's), hfsort, hfsort+
//                     (BOLT 16 has no cdsort); with respec's facts (below)
//                     the generic fallbacks of specialized code are skipped
//   --pgo             build "pgo-generate" (-fprofile-instr-generate), train,
//                     llvm-profdata merge, build "pgo" (-fprofile-instr-use),
//                     then the profile and BOLT stages on it: pgo+bolt-ORDER
//   measure           every variant runs the measuring command, interleaved,
//                     in a new random order each round; the fastest BOLT
//                     variant (median wall time) is the output
//   --cachegrind      every variant runs a command once under valgrind's
//                     cachegrind: instructions, I1 misses, mispredicted
//                     branches (Cachegrind.h), where wall time is too noisy
//
// How flags reach an arbitrary build. The build command runs with CC set to a
// wrapper script and the wrapper's directory first in PATH under the names cc,
// gcc, clang and clang-16, so builds that use $CC, call `cc`, or name a
// compiler all compile with clang-16 and the stage's flags. The training and
// measuring commands are shell commands; "{binary}" in them is replaced with
// the path of the program variant to run, already quoted for the shell (do
// not quote it again), and is also in $RESPEC_LAYOUT_BINARY.
//
// Specialized code (SpecializedCode.h): a training run of a program that uses
// librespec slots records, when RESPEC_LAYOUT_RECORD is set, which generic
// functions were fallbacks of slots that ran specialized code. (Functions that
// respec specialized at build time carry no mark: BOLT places them by the
// profile like any function.) The function order keeps BOLT's order for the hot
// code with the fallbacks taken out (they go after it, cold, with the
// functions the profile never saw), so that warm-up calls made before the
// specialized code was plugged in do not pull the generic code into the hot
// region.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_LAYOUT_LAYOUT_H
#define RESPEC_LAYOUT_LAYOUT_H

#include <string>
#include <vector>

namespace respec::layout {

struct LayoutOptions {
  /// The build: a command line run in a copy of SourceDir. Empty: Binary is
  /// laid out as it is (it must have been linked with --emit-relocs).
  std::vector<std::string> buildCommand;
  std::string sourceDir = ".";
  /// The program the build makes, relative to SourceDir (or as it is).
  std::string binary;
  std::string trainCommand;
  /// Picks the winner; the training command when empty.
  std::string measureCommand;
  /// Run once per variant under cachegrind, when not empty.
  std::string cachegrindCommand;
  bool pgo = false;
  bool sampling = false;
  std::vector<std::string> orders = {"hfsort+", "hfsort", "pettis-hansen"};
  std::string workDir = "respec-layout";
  std::string output;
  std::string jsonReport;
  unsigned rounds = 3;
  /// Builds and profiles again even when the stamps say they are current.
  bool rebuild = false;
};

/// What is wrong with the options, or "" (runLayout refuses them as well).
std::string optionsProblem(const LayoutOptions &Options);

/// Runs the pipeline; progress on stderr, the report on stdout. Throws
/// SpecError (Diagnostics.h) with what went wrong and how to fix it.
void runLayout(const LayoutOptions &Options);

} // namespace respec::layout

#endif
