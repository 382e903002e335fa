//===- Layout.cpp - `respec layout`: the pipeline and its report ----------===//
//
// The stages are described in Layout.h. This file runs them in order and
// writes the report: per variant the median time of the measuring command
// and its ratio to the o2 build, and what BOLT did (functions with a profile,
// functions whose blocks it reordered, hot and cold bytes of the functions it
// split, the size of the hot text), then the winner and where it went.
//
//===----------------------------------------------------------------------===//
#include "Layout.h"
#include "Bolt.h"
#include "Builds.h"
#include "Cachegrind.h"
#include "Diagnostics.h"
#include "Driver.h"
#include "Files.h"
#include "Measure.h"
#include "Process.h"
#include "Profiles.h"
#include "SpecializedCode.h"
#include "Toolchain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <random>

using namespace llvm;

namespace respec::layout {

namespace {

const char *const KnownOrders[] = {"hfsort+", "hfsort", "pettis-hansen"};

struct Variant {
  std::string name, binary;
  bool laidOut = false; ///< by BOLT: a candidate for the output
  BoltStatistics bolt;
  std::vector<std::string> coldFallbacks; ///< left out of BOLT's layout
  Timing timing;
  std::optional<CacheFigures> cache;
};

/// Profiles Base and lays it out with each function order: NAME-bolt-ORDER.
void addBoltVariants(const LayoutOptions &O, const Toolchain &Tools, const std::string &Base,
                     const std::string &Stage, const std::string &Prefix,
                     std::vector<Variant> &Variants) {
  std::string Work = absolutePath(O.workDir);
  std::string ProfileDir = Work + "/" + Stage + "/bolt-profile";
  std::string Profile = boltProfile(O, Tools, Base, ProfileDir);
  SlotFacts Facts = readSlotRecords(slotRecordsOf(ProfileDir));
  if (!Facts.empty())
    errs() << "layout: the training run plugged specialized code into slots: "
           << Facts.fallbacks.size() << " generic fallbacks go cold, "
           << Facts.specialized.size() << " specialized functions in the program\n";
  for (const std::string &Order : O.orders) {
    Variant V;
    V.name = Prefix + "bolt-" + Order;
    V.binary = Work + "/variants/" + V.name;
    V.laidOut = true;
    std::string Log = Work + "/variants/" + V.name + ".bolt.log";
    errs() << "layout: " << V.name << ": llvm-bolt (log: " << Log << ")\n";
    BoltRun Run{Base, Profile, V.binary, Log, Order, skipFunctionsOption(Facts.fallbacks)};
    V.coldFallbacks.assign(Facts.fallbacks.begin(), Facts.fallbacks.end());
    V.bolt = runBolt(Tools, Run);
    Variants.push_back(std::move(V));
  }
}

std::string statistic(int64_t Value) { return Value < 0 ? "-" : std::to_string(Value); }

std::string kibibytes(int64_t Bytes) {
  return Bytes < 0 ? "-" : formatv("{0:f1} KiB", Bytes / 1024.0).str();
}

void printReport(const std::vector<Variant> &Variants, const Variant &Winner,
                 const std::string &Output, uint64_t Seed, unsigned Rounds) {
  double Base = Variants.front().timing.median();
  outs() << formatv("{0,-26} {1,11} {2,8} {3,11} {4,10} {5,11} {6,23}\n", "variant",
                    "median (s)", "vs o2", "profiled", "reordered", "hot text",
                    "split: hot / cold");
  for (const Variant &V : Variants) {
    double Median = V.timing.median();
    std::string Profiled =
        V.bolt.functions < 0 ? "-" : statistic(V.bolt.profiledFunctions) + "/" +
                                          statistic(V.bolt.functions);
    std::string Split = V.bolt.hotBytes < 0
                            ? "-"
                            : kibibytes(V.bolt.hotBytes) + " / " + kibibytes(V.bolt.coldBytes);
    outs() << formatv("{0,-26} {1,11:f4} {2,7:f3}x {3,11} {4,10} {5,11} {6,23}\n", V.name,
                      Median, Median > 0 ? Base / Median : 0.0, Profiled,
                      statistic(V.bolt.reorderedFunctions), kibibytes(V.bolt.hotTextBytes),
                      Split);
  }
  for (const Variant &V : Variants)
    if (!V.coldFallbacks.empty())
      outs() << V.name << ": " << V.coldFallbacks.size()
             << " generic fallbacks of specialized code left cold: "
             << join(V.coldFallbacks, ", ") << "\n";
  outs() << formatv("median of {0} rounds, interleaved (seed {1}); \"vs o2\": o2's time over "
                    "the variant's (above 1: faster)\n",
                    Rounds, Seed);
  if (Variants.front().cache) {
    outs() << formatv("\n{0,-26} {1,15} {2,12} {3,22}\n", "cachegrind", "instructions",
                      "I1 misses", "mispredicted branches");
    for (const Variant &V : Variants)
      outs() << formatv("{0,-26} {1,15} {2,12} {3,22}\n", V.name, V.cache->instructions,
                        V.cache->instructionCacheMisses, V.cache->mispredictedBranches);
  }
  outs() << "winner: " << Winner.name << " -> " << Output << "\n";
}

json::Value jsonReport(const LayoutOptions &O, const std::vector<Variant> &Variants,
                       const Variant &Winner, const std::string &Output, uint64_t Seed) {
  json::Array Rows;
  double Base = Variants.front().timing.median();
  for (const Variant &V : Variants) {
    json::Object Row{{"variant", V.name},
                     {"binary", V.binary},
                     {"seconds", json::Array(V.timing.seconds)},
                     {"median_seconds", V.timing.median()},
                     {"speedup_vs_o2", Base / V.timing.median()}};
    if (V.laidOut) {
      Row["bolt"] = json::Object{{"profiled_functions", V.bolt.profiledFunctions},
                                 {"functions", V.bolt.functions},
                                 {"reordered_functions", V.bolt.reorderedFunctions},
                                 {"split_hot_bytes", V.bolt.hotBytes},
                                 {"split_cold_bytes", V.bolt.coldBytes},
                                 {"chains_before", V.bolt.chainsBefore},
                                 {"chains_after", V.bolt.chainsAfter},
                                 {"hot_text_bytes", V.bolt.hotTextBytes}};
      Row["cold_fallbacks"] = json::Array(V.coldFallbacks);
    }
    if (V.cache)
      Row["cachegrind"] = json::Object{{"instructions", V.cache->instructions},
                                       {"i1_misses", V.cache->instructionCacheMisses},
                                       {"mispredicted_branches", V.cache->mispredictedBranches}};
    Rows.push_back(std::move(Row));
  }
  return json::Object{{"binary", O.binary},
                      {"train", O.trainCommand},
                      {"measure", O.measureCommand.empty() ? O.trainCommand : O.measureCommand},
                      {"rounds", O.rounds},
                      {"seed", std::to_string(Seed)},
                      {"variants", std::move(Rows)},
                      {"winner", Winner.name},
                      {"output", Output}};
}

void copyProgram(const std::string &From, const std::string &To) {
  std::string Temporary = To + ".partial";
  if (std::error_code EC = sys::fs::copy_file(From, Temporary))
    throw SpecError(To, "cannot write: " + EC.message());
  sys::fs::setPermissions(Temporary, sys::fs::all_read | sys::fs::all_exe | sys::fs::owner_write);
  if (std::error_code EC = sys::fs::rename(Temporary, To))
    throw SpecError(To, "cannot write: " + EC.message());
}

} // namespace

std::string optionsProblem(const LayoutOptions &O) {
  if (O.binary.empty())
    return "--binary is required: the program the build makes";
  if (O.trainCommand.empty())
    return "--train is required: the workload to profile";
  if (O.orders.empty())
    return "--orders lists no function order";
  for (const std::string &Order : O.orders)
    if (!is_contained(KnownOrders, Order))
      return "unknown function order '" + Order +
             "' (BOLT 16 has hfsort+, hfsort and pettis-hansen; cdsort came with BOLT 17)";
  if (O.pgo && O.buildCommand.empty())
    return "--pgo needs a build command (after --): clang's PGO builds the program again "
           "with the profile";
  if (O.rounds == 0)
    return "--rounds must be at least 1";
  return "";
}

void runLayout(const LayoutOptions &O) {
  if (std::string Problem = optionsProblem(O); !Problem.empty())
    throw SpecError("respec layout", Problem);
  Toolchain Tools = findToolchain(O.pgo, O.sampling, !O.cachegrindCommand.empty());
  std::string Work = absolutePath(O.workDir);
  createDirectory(Work + "/variants");

  std::vector<Variant> Variants;
  std::string Base;
  if (O.buildCommand.empty()) {
    Base = absolutePath(O.binary);
    checkRelocations(Base);
  } else {
    Base = buildStage(O, Tools, {"o2", relocationFlags(), ""});
  }
  Variants.push_back({"o2", Base});
  addBoltVariants(O, Tools, Base, "o2", "", Variants);

  if (O.pgo) {
    std::vector<std::string> Generate = relocationFlags();
    Generate.push_back("-fprofile-instr-generate");
    std::string Instrumented = buildStage(O, Tools, {"pgo-generate", Generate, ""});
    std::string Profile = pgoProfile(O, Tools, Instrumented, Work + "/pgo-generate/profile");
    std::vector<std::string> Use = relocationFlags();
    Use.insert(Use.end(), {"-fprofile-instr-use=" + Profile, "-Wno-profile-instr-unprofiled",
                           "-Wno-profile-instr-out-of-date"});
    std::string Optimized = buildStage(O, Tools, {"pgo", Use, fileIdentity(Profile)});
    Variants.push_back({"pgo", Optimized});
    addBoltVariants(O, Tools, Optimized, "pgo", "pgo+", Variants);
  }

  std::vector<std::string> Binaries;
  for (const Variant &V : Variants)
    Binaries.push_back(V.binary);
  uint64_t Seed = std::random_device{}();
  std::vector<Timing> Timings =
      measure(O.measureCommand.empty() ? O.trainCommand : O.measureCommand, Binaries, O.rounds,
              Seed, Work + "/variants");
  for (size_t I = 0; I < Variants.size(); ++I)
    Variants[I].timing = std::move(Timings[I]);
  if (!O.cachegrindCommand.empty())
    for (Variant &V : Variants) {
      errs() << "layout: cachegrind of " << V.name << "\n";
      V.cache = cachegrind(Tools, O.cachegrindCommand, V.binary,
                           Work + "/variants/" + V.name + ".cachegrind");
    }

  const Variant *Winner = nullptr;
  for (const Variant &V : Variants)
    if (V.laidOut && (!Winner || V.timing.median() < Winner->timing.median()))
      Winner = &V;
  std::string Output =
      O.output.empty() ? sys::path::filename(O.binary).str() + ".layout" : O.output;
  copyProgram(Winner->binary, Output);
  printReport(Variants, *Winner, Output, Seed, O.rounds);
  if (!O.jsonReport.empty()) {
    std::string Text;
    raw_string_ostream Stream(Text);
    Stream << formatv("{0:2}", jsonReport(O, Variants, *Winner, Output, Seed)) << "\n";
    writeFileAtomically(O.jsonReport, Stream.str());
  }
}

} // namespace respec::layout
