//===- Profiles.cpp - Running the training workload for a profile ---------===//
#include "Profiles.h"
#include "Builds.h"
#include "Diagnostics.h"
#include "Files.h"
#include "Process.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;

namespace respec::layout {

namespace {

/// Runs the training command against Binary, with the slot record on.
void train(const LayoutOptions &Options, const std::string &Binary, const std::string &Directory,
           std::vector<std::pair<std::string, std::string>> Environment,
           std::vector<std::string> Wrapper = {}) {
  Environment.push_back({"RESPEC_LAYOUT_BINARY", Binary});
  Environment.push_back({"RESPEC_LAYOUT_RECORD", Directory});
  std::vector<std::string> Argv = std::move(Wrapper);
  for (const std::string &Arg : shell(withBinary(Options.trainCommand, Binary)))
    Argv.push_back(Arg);
  std::string Log = Directory + "/train.log";
  errs() << "layout: training " << Binary << " (log: " << Log << ")\n";
  runOrThrow({Argv, "", Environment, Log}, "the training command");
}

/// The files the training command names (its scripts), for the stamps.
std::string trainingInputs(const LayoutOptions &Options) {
  SmallVector<StringRef> Words;
  StringRef(Options.trainCommand).split(Words, ' ', -1, /*KeepEmpty=*/false);
  return inputsOfCommand(std::vector<std::string>(Words.begin(), Words.end()));
}

const char *const NoProfileHint =
    " (is {binary} in the training command? a profile is written when the program exits "
    "normally: shut a server down, do not kill it)";

} // namespace

std::string boltProfile(const LayoutOptions &Options, const Toolchain &Tools,
                        const std::string &Binary, const std::string &Directory) {
  std::string Profile = Directory + "/profile.fdata";
  std::string Key = std::string(Options.sampling ? "sampling" : "instrumentation") + "\n" +
                    fileIdentity(Binary) + "\ntrain " + Options.trainCommand + "\n" +
                    trainingInputs(Options);
  if (!Options.rebuild && stampMatches(Directory, Key) && sys::fs::exists(Profile)) {
    errs() << "layout: profile of " << Binary << ": current\n";
    return Profile;
  }
  freshDirectory(Directory);
  std::vector<std::string> Parts;
  if (Options.sampling) {
    std::string PerfData = Directory + "/perf.data";
    train(Options, Binary, Directory, {},
          {Tools.perf, "record", "-e", "cpu-clock", "-o", PerfData, "--"});
    runOrThrow({{Tools.perf2bolt, "-nl", "-p", PerfData, "-o", Profile, Binary}, "", {},
                Directory + "/perf2bolt.log"},
               "perf2bolt");
    if (!sys::fs::exists(Profile))
      throw SpecError(Binary, "perf2bolt wrote no profile" + std::string(NoProfileHint));
  } else {
    std::string Instrumented = Directory + "/instrumented";
    errs() << "layout: instrumenting " << Binary << "\n";
    runOrThrow({{Tools.bolt, Binary, "-instrument", "-o", Instrumented,
                 "-instrumentation-file=" + Directory + "/counts.fdata",
                 "-instrumentation-file-append-pid"},
                "", {}, Directory + "/instrument.log"},
               "llvm-bolt -instrument");
    train(Options, Instrumented, Directory, {});
    std::vector<std::string> Counts = filesStartingWith(Directory, "counts.fdata");
    if (Counts.empty())
      throw SpecError(Binary, "the training run wrote no BOLT profile" + std::string(NoProfileHint));
    std::vector<std::string> Merge = {Tools.mergeFdata, "-q", "-o", Profile};
    Merge.insert(Merge.end(), Counts.begin(), Counts.end());
    runOrThrow({Merge, "", {}, Directory + "/merge.log"}, "merge-fdata");
  }
  writeStamp(Directory, Key);
  return Profile;
}

std::string pgoProfile(const LayoutOptions &Options, const Toolchain &Tools,
                       const std::string &InstrumentedBinary, const std::string &Directory) {
  std::string Profile = Directory + "/profile.profdata";
  std::string Key = "pgo\n" + fileIdentity(InstrumentedBinary) + "\ntrain " +
                    Options.trainCommand + "\n" + trainingInputs(Options);
  if (!Options.rebuild && stampMatches(Directory, Key) && sys::fs::exists(Profile)) {
    errs() << "layout: PGO profile: current\n";
    return Profile;
  }
  freshDirectory(Directory);
  train(Options, InstrumentedBinary, Directory,
        {{"LLVM_PROFILE_FILE", Directory + "/counts-%p-%m.profraw"}});
  std::vector<std::string> Counts = filesStartingWith(Directory, "counts-");
  if (Counts.empty())
    throw SpecError(InstrumentedBinary,
                    "the training run wrote no clang profile" + std::string(NoProfileHint));
  std::vector<std::string> Merge = {Tools.profdata, "merge", "-o", Profile};
  Merge.insert(Merge.end(), Counts.begin(), Counts.end());
  runOrThrow({Merge, "", {}, Directory + "/merge.log"}, "llvm-profdata merge");
  writeStamp(Directory, Key);
  return Profile;
}

std::vector<std::string> slotRecordsOf(const std::string &Directory) {
  return filesStartingWith(Directory, "respec-slots.");
}

} // namespace respec::layout
