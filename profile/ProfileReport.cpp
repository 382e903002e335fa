//===- ProfileReport.cpp - `respec profile report`: rank what a profile found ------===//
#include "ProfileReport.h"
#include "Diagnostics.h"
#include "Guard.h"
#include "GuardReport.h"
#include "Process.h"
#include "Report.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

using namespace llvm;

namespace respec::profile {

namespace {

struct TopValue {
  uint64_t value = 0, count = 0, error = 0;
};

/// One expression of one function, merged over its sites and profiles.
struct Candidate {
  std::string kind, function, expr, term, ctype;
  std::vector<std::string> locations;
  unsigned paramIndex = 0;
  uint64_t count = 0, changes = 0;
  std::map<uint64_t, TopValue> values; ///< merged sketches
  // region sites
  uint64_t bases = 0, changedOffsets = 0, stableReads = 0, untracked = 0;
  int64_t low = INT64_MAX, high = INT64_MIN;
  /// The bytes the run read there, when it never read two values at an offset
  /// (little-endian; bytes it never read are 0); empty when unknown.
  std::vector<uint8_t> bytes;
  bool bytesKnown = true;
  // file candidates (files observer): what one program did with one file
  uint64_t opens = 0, reads = 0, bytesRead = 0, preads = 0, seeksElsewhere = 0, shares = 0,
           foreignReads = 0, size = 0, readNs = 0;
  // the estimate (ProfileReport.h), in ns for the run
  TopValue dominant;
  uint64_t writes = 0;
  /// A value fact's benefit, in observations its specialization folds, and
  /// the dispatches it adds (a parameter that is not always the same).
  double observations = 0, dispatches = 0;
  /// Keeping the fact true (guards, replugs, choices of variant), and
  /// specializing at run time, in ns.
  double keepingNs = 0, specializingNs = 0;
  /// What one folded observation saves, in ns, and where that figure comes from.
  double nsPerObservation = 1;
  std::string rateSource;
  double savedNs = 0; ///< a file's: what librespec-io would save, in ns
  double score = 0;   ///< benefit - cost over the run, in ns
};

/// What librespec-io's cost model says a file's reads cost (io/costs.c).
struct IoCosts {
  double syscallNs = 0, openNs = 0, populateNsPerKiB = 0;
};

/// A translation unit, as its module record describes it.
struct SourceFile {
  std::string directory, commandLine;
};

struct Profile {
  /// By function, kind and expression.
  std::map<std::tuple<std::string, std::string, std::string>, Candidate> candidates;
  std::map<std::string, uint64_t> calls, writes;                       ///< by function, by term
  std::map<std::string, SourceFile> sources;                          ///< by path
  /// A function's C prototype and the source it is defined in, from its call record.
  std::map<std::string, std::pair<std::string, std::string>> definitions;
  /// IR instructions the run executed, per source line (absolute file, line),
  /// from the block records; and per file name and line, for sources whose
  /// recorded directory was remapped (-ffile-prefix-map).
  std::map<std::pair<std::string, unsigned>, uint64_t> executed, executedByName;
  /// The mispredictions the branches of each source line are estimated to
  /// have made (branch records: each branch's rarer way), keyed the same two ways.
  std::map<std::pair<std::string, unsigned>, uint64_t> mispredicted, mispredictedByName;
  /// CPU time of a program's processes (process records), by program.
  std::map<std::string, uint64_t> cpuNs;
  /// CPU time of the runs with the value profiling (run records), and the IR
  /// instructions their blocks executed: the run's rate.
  uint64_t valueCpuNs = 0, instructionsExecuted = 0;
  /// librespec-io's cost constants where the program ran (an iocosts record),
  /// else the report's options; and which, for the report to say.
  IoCosts ioCosts;
  std::string ioCostsSource;
  /// What the observed pointer values point into, as the program's symbol
  /// tables name it (variable and function records): by address.
  struct SymbolName {
    std::string file, name; ///< file is the source's name, empty for a global
    uint64_t offset = 0;
    bool function = false; ///< a function's symbol (named, not stated)
  };
  std::map<uint64_t, SymbolName> symbols;
  /// The address standing for each named variable and offset in every
  /// profile read: the first profile's (ASLR gives each run its own).
  std::map<std::tuple<std::string, std::string, uint64_t>, uint64_t> symbolAddresses;
};

uint64_t number(StringRef Text, const std::string &Where, unsigned Radix = 10) {
  uint64_t N;
  if (Text.getAsInteger(Radix, N))
    throw SpecError(Where, "not a number: '" + Text.str() + "'");
  return N;
}

/// Merges a region record's cells (offset:size:hex value, ...) into C.bytes; a
/// record without them, or cells that disagree, leave the bytes unknown.
void readRegionBytes(StringRef Cells, Candidate &C, const std::string &Where) {
  if (Cells.empty())
    C.bytesKnown = false;
  SmallVector<StringRef, 64> List;
  Cells.split(List, ',', -1, false);
  for (StringRef Cell : List) {
    SmallVector<StringRef, 3> Parts;
    Cell.split(Parts, ':');
    int64_t Offset;
    if (Parts.size() != 3 || Parts[0].getAsInteger(10, Offset))
      throw SpecError(Where, "a region cell not of the form offset:size:hex");
    uint64_t Size = number(Parts[1], Where), Value = number(Parts[2], Where, 16);
    if (Offset < 0 || Size > 8 || Offset + Size > 1 << 20) {
      C.bytesKnown = false;
      continue;
    }
    if (C.bytes.size() < uint64_t(Offset) + Size)
      C.bytes.resize(Offset + Size);
    for (uint64_t Byte = 0; Byte < Size; ++Byte) {
      uint8_t B = uint8_t(Value >> (8 * Byte));
      uint8_t &Known = C.bytes[Offset + Byte];
      C.bytesKnown &= Known == 0 || Known == B; // a zero byte may be one not read yet
      Known = B;
    }
  }
}

void readProfile(const std::string &Path, Profile &P) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> File = MemoryBuffer::getFile(Path);
  if (!File)
    throw SpecError(Path, "cannot read: " + File.getError().message());
  SmallVector<StringRef, 0> Lines;
  (*File)->getBuffer().split(Lines, '\n', -1, false);
  if (Lines.empty() || Lines[0] != "respec-profile 1")
    throw SpecError(Path + ":1", "not a respec profile (expected 'respec-profile 1')");
  // The variables this run's pointers point into (its variable records, last
  // in the file), each at the address that stands for it in every profile,
  // so that the runs' pointers to one variable merge.
  std::map<uint64_t, uint64_t> Canonical;
  for (size_t L = 1; L < Lines.size(); ++L) {
    if (!Lines[L].startswith("variable\t") && !Lines[L].startswith("function\t"))
      continue;
    SmallVector<StringRef, 9> F;
    Lines[L].split(F, '\t');
    std::string Where = Path + ":" + std::to_string(L + 1);
    if (F.size() < 7)
      throw SpecError(Where, "a record of " + std::to_string(F.size()) + " fields");
    uint64_t Address = number(F[1], Where, 16), Offset = number(F[4], Where);
    auto [Standing, New] = P.symbolAddresses.try_emplace({F[2].str(), F[3].str(), Offset}, Address);
    Canonical[Address] = Standing->second;
    P.symbols[Standing->second] = {F[2].str(), F[3].str(), Offset, F[0] == "function"};
  }
  for (size_t L = 1; L < Lines.size(); ++L) {
    std::string Where = Path + ":" + std::to_string(L + 1);
    SmallVector<StringRef, 9> F;
    Lines[L].split(F, '\t');
    if (F.size() < 7)
      throw SpecError(Where, "a record of " + std::to_string(F.size()) + " fields");
    StringRef Kind = F[0];
    uint64_t Count = number(F[6], Where);
    if (Kind == "module") {
      P.sources[F[1].str()] = {F[2].str(), F[3].str()};
      continue;
    }
    if (Kind == "call") {
      P.calls[F[1].str()] += Count;
      if (!F[3].empty())
        P.definitions[F[1].str()] = {F[3].str(), F[4].str()};
      continue;
    }
    if (Kind == "write") {
      P.writes[F[4].str()] += Count;
      continue;
    }
    if (Kind == "block") {
      SmallVector<StringRef, 8> Lines;
      F[4].split(Lines, ',', -1, false);
      for (StringRef Line : Lines) {
        auto [Number, Instructions] = Line.split('=');
        unsigned LineNumber = unsigned(number(Number, Where));
        uint64_t Executed = Count * number(Instructions, Where);
        P.executed[{F[3].str(), LineNumber}] += Executed;
        P.instructionsExecuted += Executed;
        P.executedByName[{sys::path::filename(F[3]).str(), LineNumber}] += Executed;
      }
      continue;
    }
    if (Kind == "branch") {
      if (F.size() != 8)
        throw SpecError(Where, "a branch record of " + std::to_string(F.size()) + " fields");
      uint64_t Held = std::min(Count, number(F[7], Where));
      uint64_t Rarer = std::min(Held, Count - Held);
      unsigned LineNumber = unsigned(number(F[4], Where));
      P.mispredicted[{F[3].str(), LineNumber}] += Rarer;
      P.mispredictedByName[{sys::path::filename(F[3]).str(), LineNumber}] += Rarer;
      continue;
    }
    if (Kind == "iocosts") {
      SmallVector<StringRef, 6> S;
      F[2].split(S, ':');
      double Value[6];
      for (size_t I = 0; I < 6; ++I)
        if (S.size() != 6 || S[I].getAsDouble(Value[I]))
          throw SpecError(Where, "librespec-io's costs are not six numbers");
      P.ioCosts = {Value[0], Value[3] + Value[4], Value[5]};
      P.ioCostsSource = "librespec-io's costs measured where the program ran, " + F[3].str();
      continue;
    }
    if (Kind == "run") {
      P.valueCpuNs += Count;
      continue;
    }
    if (Kind == "variable" || Kind == "function")
      continue; // read above
    if (Kind == "process") {
      // The observer's own share of the CPU time is not the program's.
      P.cpuNs[F[1].str()] += Count - std::min(Count, number(F[2], Where));
      continue;
    }
    if (Kind == "file") {
      SmallVector<StringRef, 8> S;
      F[3].split(S, ':');
      if (S.size() != 8)
        throw SpecError(Where, "file statistics of " + std::to_string(S.size()) + " fields");
      Candidate &C = P.candidates[{F[1].str(), "file", F[2].str()}];
      C.kind = "file", C.function = F[1].str(), C.expr = F[2].str();
      C.opens += number(S[0], Where), C.bytesRead += number(S[1], Where);
      C.preads += number(S[2], Where), C.seeksElsewhere += number(S[3], Where);
      C.shares += number(S[4], Where), C.foreignReads += number(S[5], Where);
      C.size = std::max(C.size, number(S[6], Where));
      C.readNs += number(S[7], Where);
      C.reads += Count;
      continue;
    }
    if ((F.size() != 9 && !(Kind == "region" && F.size() == 10)) ||
        (Kind != "param" && Kind != "field" && Kind != "region"))
      throw SpecError(Where, "unknown record '" + Kind.str() + "'");
    Candidate &C = P.candidates[{F[1].str(), Kind.str(), F[3].str()}];
    C.kind = Kind.str(), C.function = F[1].str(), C.expr = F[3].str(), C.ctype = F[5].str();
    if (Kind == "param")
      C.paramIndex = unsigned(number(F[4], Where));
    else
      C.term = F[4].str();
    if (!is_contained(C.locations, F[2].str()))
      C.locations.push_back(F[2].str());
    C.count += Count;
    if (Kind == "region") {
      SmallVector<StringRef, 6> S;
      F[8].split(S, ':');
      if (S.size() != 6)
        throw SpecError(Where, "region statistics of " + std::to_string(S.size()) + " fields");
      C.bases = std::max(C.bases, number(F[7], Where));
      number(S[0], Where); // the offsets read: the cells say which
      C.changedOffsets += number(S[1], Where);
      C.stableReads += number(S[2], Where);
      C.untracked += number(S[3], Where);
      int64_t Low, High;
      if (S[4].getAsInteger(10, Low) || S[5].getAsInteger(10, High))
        throw SpecError(Where, "region bounds are not numbers");
      C.low = std::min(C.low, Low), C.high = std::max(C.high, High);
      readRegionBytes(F.size() == 10 ? F[9] : StringRef(), C, Where);
      continue;
    }
    C.changes += number(F[7], Where);
    SmallVector<StringRef, 8> Values;
    F[8].split(Values, ',', -1, false);
    for (StringRef V : Values) {
      SmallVector<StringRef, 3> Parts;
      V.split(Parts, ':');
      if (Parts.size() != 3)
        throw SpecError(Where, "a value not of the form hex:count:error");
      uint64_t Value = number(Parts[0], Where, 16);
      if (auto Standing = Canonical.find(Value);
          Standing != Canonical.end() &&
          (StringRef(C.ctype).contains('*') || C.ctype == "function pointer"))
        Value = Standing->second;
      TopValue &T = C.values[Value];
      T.value = Value;
      T.count += number(Parts[1], Where);
      T.error += number(Parts[2], Where);
    }
  }
}

/// A function's calls, a term's writes, a line's instructions (0 when the
/// profile saw none).
template <typename Key>
uint64_t countOf(const std::map<Key, uint64_t> &Counts, const Key &K) {
  auto It = Counts.find(K);
  return It == Counts.end() ? 0 : It->second;
}

/// A per-object quasi-invariant takes a few values: one variant each.
constexpr size_t MaxObjectValues = 8;

/// The per-object candidates (ProfileReport.h): a field, by its term, over every
/// function that reads it, when it took a few values.
void addTermCandidates(Profile &P) {
  std::map<std::string, Candidate> Terms;
  for (auto &[Key, C] : P.candidates) {
    if (C.kind != "field" || C.term.empty())
      continue;
    Candidate &T = Terms[C.term];
    if (T.kind.empty())
      T.kind = "term", T.term = C.term, T.expr = C.expr, T.ctype = C.ctype;
    if (!is_contained(T.locations, C.function))
      T.locations.push_back(C.function);
    T.count += C.count;
    for (auto &[V, Top] : C.values) {
      TopValue &Merged = T.values[V];
      Merged.value = V, Merged.count += Top.count, Merged.error += Top.error;
    }
  }
  for (auto &[Term, T] : Terms)
    if (T.values.size() > 1) // one value: the functions' own candidates say it
      P.candidates[{"", "term", Term}] = std::move(T);
}

/// What librespec-io would spend on a file's reads instead of read(2): its own
/// read each, setting up each open, populating the page tables of what it
/// maps, and the copy. The copy is the part of the reads' time beyond read(2)'s
/// fixed cost (librespec-io's syscall_ns): a copy from the mapping moves the
/// same bytes, at about the same rate once they stream from memory. It is
/// bounded by 1 ns a byte, so that the noise of one-byte reads is not taken
/// for a copy.
double ioInsteadNs(const Candidate &C, const IoCosts &Io, const ReportOptions &O) {
  double Copy = std::clamp(double(C.readNs) - double(C.reads) * Io.syscallNs, 0.0,
                           double(C.bytesRead));
  return double(C.reads) * O.ioSpecializedReadNs + double(C.opens) * Io.openNs +
         double(C.bytesRead) / 1024 * Io.populateNsPerKiB + Copy;
}

/// The variable a pointer candidate's value V points into, or the function a
/// function pointer's value is, if the program's symbol tables named it.
const Profile::SymbolName *symbolAt(const Candidate &C, uint64_t V, const Profile &P) {
  bool FunctionPointer = C.ctype == "function pointer";
  if (!StringRef(C.ctype).contains('*') && !FunctionPointer)
    return nullptr;
  auto It = P.symbols.find(V);
  return It == P.symbols.end() || It->second.function != FunctionPointer ? nullptr : &It->second;
}

/// Whether a region's memory is a variable's the symbol tables name (every
/// call passed it) that the run never wrote: known when the program is
/// built, unlike memory the run computed.
bool inNamedVariable(const Candidate &Region, const Profile &P) {
  auto Param = P.candidates.find({Region.function, "param", Region.expr});
  if (Param == P.candidates.end() || Param->second.values.size() != 1)
    return false;
  auto &[Address, Top] = *Param->second.values.begin();
  return Top.error == 0 && symbolAt(Param->second, Address, P) && !countOf(P.writes, Region.term);
}

/// The estimate of ProfileReport.h, but its rate (nsPerObservation, set
/// once the first functions are measured: score()); false when the candidate
/// is not one (no dominant value, or a region whose memory changed).
bool estimate(Candidate &C, const Profile &P, const ReportOptions &O) {
  if (C.kind == "file") {
    // Private: no second descriptor, process or thread on the offset.
    if (!C.reads || C.shares || C.foreignReads)
      return false;
    // The reads' time in read(2) as this run timed it, less what librespec-io
    // does instead (ioInsteadNs).
    C.savedNs = double(C.readNs) - ioInsteadNs(C, P.ioCosts, O);
    return true;
  }
  if (C.kind == "region") {
    if (C.changedOffsets || C.untracked || !C.stableReads)
      return false;
    C.dominant.count = C.stableReads;
    C.observations = double(C.stableReads);
    // Memory the run computed (a compiled filter) is specialized on at run
    // time, by librespec-jit, once; another object with the same contents is
    // a replug.
    C.specializingNs = inNamedVariable(C, P) ? 0 : O.specializeNs;
    C.keepingNs = O.replugNs * double(C.bases > 1 ? C.bases - 1 : 0);
    return true;
  }
  // A pointer parameter's value names an object, not a fact a spec can state:
  // what is known behind it is in its field and region sites.
  if (C.kind == "param" && StringRef(C.ctype).contains('*'))
    return false;
  if (C.kind == "term") {
    // A quasi-invariant of each object: read far more often than written, with
    // few values, every one of them exactly counted.
    uint64_t Exact = 0;
    for (auto &[V, T] : C.values)
      Exact += T.error == 0 ? T.count : 0;
    C.writes = countOf(P.writes, C.term);
    if (C.values.size() > MaxObjectValues || double(Exact) < O.dominance * double(C.count) ||
        C.count < 10 * C.writes)
      return false;
    C.dominant.count = Exact;
    C.observations = double(Exact);
    C.keepingNs = (O.guardNs + O.chooseNs) * double(C.writes);
    return true;
  }
  for (auto &[V, T] : C.values)
    if (T.count > C.dominant.count)
      C.dominant = T;
  // Counts are exact only for a value that never left the sketch (error 0).
  uint64_t Sure = C.dominant.count - std::min(C.dominant.count, C.dominant.error);
  if (C.count == 0 || double(Sure) < O.dominance * double(C.count))
    return false;
  // A quasi-invariant is read far more often than written: librespec's
  // guarded store replugs at each write to an object whose specialized code
  // is live, so a term written about as often as it is read would replug
  // about as often as it saves (the same bound as a per-object invariant's).
  C.writes = countOf(P.writes, C.term);
  if (C.count < 10 * C.writes)
    return false;
  C.observations = double(Sure);
  C.dispatches = C.kind == "param" && Sure < C.count ? double(countOf(P.calls, C.function)) : 0;
  C.keepingNs = O.guardNs * double(C.writes) + O.replugNs * double(C.changes);
  return true;
}

/// Synthetix's estimate of C for the run at its rate, in ns: benefit - cost.
double score(const Candidate &C) {
  if (C.kind == "file")
    return C.savedNs;
  return (C.observations - C.dispatches) * C.nsPerObservation - C.keepingNs - C.specializingNs;
}

std::string percent(uint64_t Part, uint64_t Whole) {
  std::string S;
  raw_string_ostream(S) << format("%.1f%%", Whole ? 100.0 * double(Part) / double(Whole) : 0.0);
  return S;
}


/// Whether the symbol is defined in Source, the file a measuring spec includes.
bool definedIn(const Profile::SymbolName &Named, StringRef Source) {
  return sys::path::filename(Source) == Named.file;
}

/// A variable as respec_variable() names it: "file.c:name", or "name" when
/// file.c is C's function's own source, which the measuring spec includes
/// (its file-statics are the spec's own then).
std::string variableSpelling(const Profile::SymbolName &Named, const Candidate &C,
                             const Profile &P) {
  auto Definition = P.definitions.find(C.function);
  bool Included = Definition != P.definitions.end() && definedIn(Named, Definition->second.second);
  return (Named.file.empty() || Included ? "" : Named.file + ":") + Named.name;
}

/// V as a spec states it: an integer of C's type, or the address of the
/// variable it points into (respec_variable).
std::string valueText(const Candidate &C, uint64_t V, const Profile &P) {
  if (const Profile::SymbolName *Named = symbolAt(C, V, P); Named && Named->function)
    return (Named->file.empty() ? "" : Named->file + ":") + Named->name +
           (Named->offset ? "+" + std::to_string(Named->offset) : ""); // named, not stated
  if (const Profile::SymbolName *Named = symbolAt(C, V, P)) {
    std::string Address = "respec_variable(\"" + variableSpelling(*Named, C, P) + "\")";
    return Named->offset ? "(" + C.ctype + ")((char *)" + Address + " + " +
                               std::to_string(Named->offset) + ")"
                         : Address;
  }
  if (StringRef(C.ctype).contains('*') || C.ctype == "function pointer")
    return "0x" + utohexstr(V, /*LowerCase=*/true);
  // Integers are recorded zero-extended from their own width, which the
  // profile does not say: a value that every integer type holds as it is is
  // written as it is, another converted to the type (`(short)0xffff` is -1,
  // `(uint32_t)0x80000000` is 2147483648), so that the fact is true as stated.
  if (V < 128)
    return std::to_string(V);
  return "(" + C.ctype + ")0x" + utohexstr(V, /*LowerCase=*/true);
}

std::string factText(const Candidate &C, const Profile &P) {
  if (C.kind == "term") {
    // The values by share, the rarest (under 1%) only counted.
    std::vector<TopValue> ByShare;
    for (auto &[V, T] : C.values)
      ByShare.push_back(T);
    llvm::stable_sort(ByShare, [](const TopValue &A, const TopValue &B) { return A.count > B.count; });
    std::string Values;
    size_t Rare = 0;
    for (const TopValue &T : ByShare) {
      if (100 * T.count < C.count) {
        ++Rare;
        continue;
      }
      Values += (Values.empty() ? "" : ", ") + valueText(C, T.value, P) + ": " + percent(T.count, C.count);
    }
    if (Rare)
      Values += ", " + std::to_string(Rare) + " under 1%";
    return C.term + " (" + C.expr + ") is a quasi-invariant of each object: " +
           std::to_string(C.values.size()) + " values (" + Values + ")";
  }
  if (C.kind == "file")
    return C.expr + " (read by " + C.function + ") is read privately" +
           (C.seeksElsewhere ? " (" + std::to_string(C.seeksElsewhere) + " seeks elsewhere)"
                             : std::string(" and sequentially"));
  if (C.kind == "region")
    return "memory behind '" + C.expr + "' (" + C.ctype + ") is constant: reads at offsets " +
           std::to_string(C.low) + ".." + std::to_string(C.high);
  return C.expr + " == " + valueText(C, C.dominant.value, P);
}

/// The first few sites' locations, and how many more.
std::string locationsText(const std::vector<std::string> &Locations) {
  constexpr size_t Shown = 3;
  std::string Text = join(ArrayRef(Locations).take_front(Shown), ", ");
  if (Locations.size() > Shown)
    Text += " and " + std::to_string(Locations.size() - Shown) + " more";
  return Text;
}

/// The flags of a recorded clang command line that a spec compiled in the same
/// directory needs: include paths, macros, forced includes, the standard.
std::vector<std::string> specFlags(const SourceFile &Source) {
  SmallVector<StringRef, 64> Words;
  StringRef(Source.commandLine).split(Words, ' ', -1, false);
  std::vector<std::string> Flags;
  for (size_t I = 1; I < Words.size(); ++I) {
    StringRef W = Words[I];
    static const StringRef Separate[] = {"-I", "-D", "-U", "-include", "-isystem", "-iquote"};
    bool TakesNext = llvm::is_contained(Separate, W);
    if (TakesNext && I + 1 < Words.size()) {
      Flags.push_back(W.str());
      Flags.push_back(Words[++I].str());
    } else if (W.startswith("-I") || W.startswith("-D") || W.startswith("-U") ||
               W.startswith("-std=")) {
      Flags.push_back(W.str());
    }
  }
  return Flags;
}

/// Whether C points to a struct that no instrumented code wrote in the run (no
/// write to any of its terms, "TYPE+OFFSET"): an operations table filled by its
/// initializer. Its contents are then a quasi-invariant a spec states as
/// static (respec_static_variable), to be kept true by guarding its writes.
bool unwrittenStruct(const Candidate &C, const Profile &P) {
  StringRef Type = StringRef(C.ctype).trim();
  Type.consume_front("const ");
  if (!Type.consume_front("struct ") || !Type.consume_back("*") || Type.contains('*'))
    return false;
  std::string Prefix = Type.trim().str() + "+";
  return llvm::none_of(P.writes, [&](auto &Term) { return StringRef(Term.first).startswith(Prefix); });
}

/// What a fact lets the partial evaluator fold: an integer, or a pointer into
/// a variable the symbol tables named; not another address of this run (a
/// spec cannot name it).
bool measurable(const Candidate &C, const Profile &P) {
  if (C.kind == "region")
    return C.bytesKnown && !C.bytes.empty();
  if (C.kind != "field" && C.kind != "param")
    return false;
  if (const Profile::SymbolName *Named = symbolAt(C, C.dominant.value, P))
    return !Named->function;
  return !StringRef(C.ctype).contains('*') && C.ctype != "function pointer";
}

/// A function's C prototype as its call record has it ("int f(struct s * s, int n)"),
/// in parts.
struct Prototype {
  std::string returnType, parameters; ///< parameters as written ("void": none)
  std::vector<std::string> types, names;
};

/// Function's recorded prototype; nullopt when there is none, or it does not
/// name Function.
std::optional<Prototype> prototypeOf(const std::string &Function, const Profile &P) {
  auto Definition = P.definitions.find(Function);
  if (Definition == P.definitions.end())
    return std::nullopt;
  StringRef Signature = Definition->second.first;
  size_t Open = Signature.find(Function + "(");
  if (Open == StringRef::npos || !Signature.endswith(")"))
    return std::nullopt;
  Prototype Parts;
  Parts.returnType = Signature.take_front(Open).trim().str();
  StringRef Parameters = Signature.drop_front(Open + Function.size() + 1).drop_back();
  Parts.parameters = Parameters.str();
  SmallVector<StringRef, 8> Declared;
  if (Parameters != "void")
    Parameters.split(Declared, ", ");
  for (StringRef Parameter : Declared) {
    auto [Type, Name] = Parameter.rsplit(' ');
    Parts.types.push_back(Type.trim().str()), Parts.names.push_back(Name.str());
  }
  return Parts;
}

/// A spec calling Function with Facts stated (the others' arguments are its
/// own parameters), to compile beside Function's source: it includes that
/// source, so that it compiles as it is. Empty when the profile cannot write
/// it (Why says so).
std::string measuringSpec(const std::string &Function, const std::vector<const Candidate *> &Facts,
                          const Profile &P, std::string &Why, const std::string &Variant = "") {
  if (!P.definitions.count(Function)) {
    Why = "no C prototype recorded (no debug info, or a struct parameter or result the ABI "
          "passes differently)";
    return "";
  }
  std::optional<Prototype> Declared = prototypeOf(Function, P);
  if (!Declared) {
    Why = "no prototype recorded";
    return "";
  }
  const std::string &Return = Declared->returnType;
  std::vector<std::string> Arguments = Declared->names;
  std::string Body, Constants;
  for (const Candidate *C : Facts) {
    if (C->kind == "param") {
      if (C->paramIndex >= Arguments.size()) {
        Why = "the profile's parameter index is past the prototype's";
        return "";
      }
      Arguments[C->paramIndex] = valueText(*C, C->dominant.value, P);
    } else if (C->kind == "region") {
      // The memory the run read, as a constant the parameter points to.
      auto Named = llvm::find(Arguments, C->expr);
      if (Named == Arguments.end())
        continue;
      std::string Name = "respec_profile_region_" + C->expr, Bytes;
      for (uint8_t B : C->bytes)
        Bytes += (Bytes.empty() ? "" : ", ") + std::to_string(B);
      Constants += "static const unsigned char " + Name + "[" + std::to_string(C->bytes.size()) +
                   "] __attribute__((aligned(16))) = {" + Bytes + "};\n";
      *Named = "(" + C->ctype + ")" + Name;
    } else {
      Body += "\trespec_assume(" + C->expr + " == " + valueText(*C, C->dominant.value, P) + ");\n";
      if (const Profile::SymbolName *Named = symbolAt(*C, C->dominant.value, P);
          Named && unwrittenStruct(*C, P))
        Body += "\trespec_static_variable(\"" + variableSpelling(*Named, *C, P) + "\");\n";
    }
  }
  std::string Call = Function + "(" + join(Arguments, ", ") + ")";
  Body += Return == "void" ? "\t" + Call + ";\n" : "\treturn " + Call + ";\n";
  return "#include \"" + P.definitions.at(Function).second + "\"\n#include <respec/respec.h>\n\n" +
         Constants + "RESPEC_SPECIALIZE " + Return + " " + Function + "_specialized" + Variant +
         "(" + Declared->parameters + ")\n{\n" + Body + "}\n";
}

/// A function's per-object quasi-invariant (Report.h): its own field site of
/// the first ranked term candidate it reads, when every value of that site
/// was counted exactly; null when it reads none.
const Candidate *objectInvariant(const std::string &Function, ArrayRef<Candidate *> Ranked,
                                 const Profile &P) {
  for (const Candidate *Term : Ranked) {
    if (Term->kind != "term" || !is_contained(Term->locations, Function))
      continue;
    const Candidate *Site = nullptr;
    for (auto &[Key, C] : P.candidates)
      if (C.kind == "field" && C.function == Function && C.term == Term->term &&
          (!Site || C.count > Site->count))
        Site = &C;
    if (Site && Site->values.size() > 1 &&
        llvm::all_of(Site->values, [](auto &V) { return V.second.error == 0; }))
      return Site;
  }
  return nullptr;
}

/// Whether the text of Source holds Name as a C identifier (a necessary
/// condition for defining it there); true when Source cannot be read.
bool mentions(StringRef Source, StringRef Name) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Source);
  if (!Text)
    return true;
  StringRef Rest = (*Text)->getBuffer();
  auto Identifier = [](char Ch) { return isAlnum(Ch) || Ch == '_'; };
  for (size_t At = Rest.find(Name); At != StringRef::npos; At = Rest.find(Name, At + 1))
    if ((At == 0 || !Identifier(Rest[At - 1])) &&
        (At + Name.size() == Rest.size() || !Identifier(Rest[At + Name.size()])))
      return true;
  return false;
}

/// Appends to Sources the absolute paths of the sources that define the
/// variables Facts name (respec_variable), but FunctionSource, which the spec
/// includes; false when one was not built with the profiling (Why says so).
bool definingSources(const std::vector<const Candidate *> &Facts, const Profile &P,
                     StringRef FunctionSource, std::vector<std::string> &Sources, std::string &Why) {
  for (const Candidate *C : Facts) {
    const Profile::SymbolName *Named = symbolAt(*C, C->dominant.value, P);
    if (!Named || definedIn(*Named, FunctionSource))
      continue;
    if (Named->file.empty()) {
      // A global: the symbol tables do not say which source defines it. One
      // that the function's own source never names is defined elsewhere,
      // where a spec including that source cannot name it.
      if (mentions(FunctionSource, Named->name))
        continue;
      Why = "the global " + Named->name + " is defined in a source other than " +
            sys::path::filename(FunctionSource).str() +
            " (the symbol tables do not say which: name it in a spec by hand)";
      return false;
    }
    auto Defining = llvm::find_if(P.sources, [&](auto &S) {
      return sys::path::filename(S.first) == Named->file;
    });
    if (Defining == P.sources.end()) {
      Why = "the source that defines " + Named->name + " (" + Named->file +
            ") was not built with respec profile --cflags";
      return false;
    }
    SmallString<256> Path(Defining->first);
    sys::fs::make_absolute(Defining->second.directory, Path);
    if (!is_contained(Sources, std::string(Path)))
      Sources.push_back(std::string(Path));
  }
  return true;
}

/// The values of a per-object quasi-invariant worth a variant (1% of its
/// observations or more), each as a fact: a copy of Site with that value.
/// None when one of them cannot be stated (an address no variable names).
std::vector<Candidate> invariantValues(const Candidate &Site, const Profile &P) {
  std::vector<Candidate> Values;
  auto Definition = P.definitions.find(Site.function);
  for (auto &[V, T] : Site.values)
    if (100 * T.count >= Site.count) {
      Candidate &Fact = Values.emplace_back(Site);
      Fact.dominant = T;
      std::vector<std::string> Sources;
      std::string Why;
      if (!measurable(Fact, P) || Definition == P.definitions.end() ||
          !definingSources({&Fact}, P, Definition->second.second, Sources, Why))
        return {};
    }
  return Values;
}

/// A variant's name suffix for one value of a quasi-invariant: "_x_op_1", or
/// "_x_ops_xdrmem_ops" for a pointer into a named variable.
std::string variantSuffix(const Candidate &Value, const Profile &P) {
  size_t Member = Value.expr.find_last_of(".>");
  std::string Name;
  for (char Ch : Value.expr.substr(Member == std::string::npos ? 0 : Member + 1))
    Name += isAlnum(Ch) ? Ch : '_';
  const Profile::SymbolName *Named = symbolAt(Value, Value.dominant.value, P);
  return "_" + Name + "_" +
         (Named ? Named->name + (Named->offset ? "_" + std::to_string(Named->offset) : "")
                : std::to_string(Value.dominant.value));
}


/// What the partial evaluator made of a measuring spec (respec explain --json).
struct Measurement {
  uint64_t instructions = 0; ///< specialized, after cleanup
  uint64_t emitted = 0;      ///< residual instructions before cleanup
  uint64_t branchesAfter = 0, branchesEmitted = 0; ///< conditional, after and before cleanup
  double specializeNs = 0;   ///< the wall time of respec explain: compile, specialize, clean up
  /// A reached source line: its instructions' evaluations folded away and
  /// residual copies emitted, and of those its conditional branches'.
  struct Line {
    uint64_t evaluated = 0, residual = 0, branchesEvaluated = 0, branchesResidual = 0;
  };
  /// By absolute file and line.
  std::map<std::pair<std::string, unsigned>, Line> lines;
};

/// Reads explain's JSON report of Function_specialized; false if it is not one.
bool readMeasurement(StringRef Text, const std::string &Function, Measurement &M) {
  Expected<json::Value> Report = json::parse(Text);
  if (!Report) {
    consumeError(Report.takeError());
    return false;
  }
  const json::Array *Functions = Report->getAsObject() ? Report->getAsObject()->getArray("functions") : nullptr;
  for (const json::Value &Entry : Functions ? *Functions : json::Array()) {
    const json::Object *E = Entry.getAsObject();
    if (!E || E->getString("function") != Function + "_specialized")
      continue;
    M.instructions = E->getInteger("instructionsAfter").value_or(0);
    M.branchesEmitted = E->getInteger("conditionalBranchesEmitted").value_or(0);
    M.branchesAfter = E->getInteger("conditionalBranchesAfter").value_or(0);
    if (const json::Object *Stats = E->getObject("stats"))
      if (std::optional<StringRef> Emitted = Stats->getString("residual instructions emitted"))
        Emitted->getAsInteger(10, M.emitted);
    if (const json::Array *Listings = E->getArray("listings"))
      for (const json::Value &L : *Listings) {
        const json::Object *Listing = L.getAsObject();
        const json::Array *Lines = Listing ? Listing->getArray("lines") : nullptr;
        SmallString<256> File(Listing ? Listing->getString("file").value_or("") : "");
        sys::path::remove_dots(File, /*remove_dot_dot=*/true);
        for (const json::Value &Line : Lines ? *Lines : json::Array()) {
          const json::Array *Row = Line.getAsArray();
          if (!Row || Row->size() != 5)
            return false;
          auto Count = [&](size_t Column) { return uint64_t((*Row)[Column].getAsInteger().value_or(0)); };
          Measurement::Line &Counts = M.lines[{File.str().str(), unsigned(Count(0))}];
          Counts.evaluated += Count(1), Counts.residual += Count(2);
          Counts.branchesEvaluated += Count(3), Counts.branchesResidual += Count(4);
        }
      }
    return true;
  }
  return false;
}


/// The facts of Function a spec can state (measurable, and a variable named
/// by a source that was profiled), but those about the quasi-invariant whose
/// values make the variants (its term); Dropped says why the others are not.
std::vector<const Candidate *> statableFacts(const std::string &Function,
                                             ArrayRef<const Candidate *> Facts,
                                             const Candidate *Invariant, const Profile &P,
                                             std::vector<std::string> &Dropped) {
  std::vector<const Candidate *> Statable;
  const std::string &Source = P.definitions.at(Function).second;
  for (const Candidate *C : Facts) {
    std::vector<std::string> Sources;
    std::string Why;
    if (!measurable(*C, P) || (Invariant && C->term == Invariant->term))
      continue;
    if (!definingSources({C}, P, Source, Sources, Why))
      Dropped.push_back(factText(*C, P) + ": " + Why);
    else
      Statable.push_back(C);
  }
  return Statable;
}

/// The partial evaluator on Function with Facts stated or not: respec explain
/// on a measuring spec, compiled with the recorded flags in the source's
/// directory; nullopt when it does not compile or specialize (Why says so).
std::optional<Measurement> measure(const std::string &Function,
                                   const std::vector<const Candidate *> &Facts, const Profile &P,
                                   std::string &Why) {
  std::string Text = measuringSpec(Function, Facts, P, Why);
  if (Text.empty())
    return std::nullopt;
  auto Source = P.sources.find(P.definitions.find(Function)->second.second);
  if (Source == P.sources.end() || Source->second.commandLine.empty()) {
    Why = "no source or command line recorded (build with respec profile --cflags)";
    return std::nullopt;
  }
  SmallString<128> Directory;
  if (sys::fs::createUniqueDirectory("respec-profile", Directory)) {
    Why = "cannot create a temporary directory";
    return std::nullopt;
  }
  auto RemoveDirectory = make_scope_exit([&] { sys::fs::remove_directories(Directory); });
  std::string Spec = (Directory + "/measure.c").str(), Log = (Directory + "/explain.log").str(),
              Json = (Directory + "/explain.json").str();
  {
    std::error_code EC;
    raw_fd_ostream Out(Spec, EC);
    if (EC) {
      Why = "cannot write " + Spec + ": " + EC.message();
      return std::nullopt;
    }
    Out << Text;
  }
  static int Anchor;
  std::vector<std::string> Argv = {sys::fs::getMainExecutable("respec", &Anchor), "explain", Spec};
  if (!definingSources(Facts, P, Source->first, Argv, Why))
    return std::nullopt;
  for (std::string &Flag : specFlags(Source->second))
    Argv.push_back(std::move(Flag));
  Argv.insert(Argv.end(), {"-w", "--function", Function + "_specialized", "-q", "--color=never",
                           "--json", Json});
  int Status;
  auto Start = std::chrono::steady_clock::now();
  try {
    Status = layout::run({Argv, Source->second.directory, {}, Log});
  } catch (const SpecError &E) { // killed, or could not start
    Why = std::string("respec explain: ") + E.what();
    return std::nullopt;
  }
  Measurement M;
  M.specializeNs = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - Start).count();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Report = MemoryBuffer::getFile(Json);
  if (Status != 0 || !Report || !readMeasurement((*Report)->getBuffer(), Function, M)) {
    Why = "respec explain failed on the measuring spec (" + layout::tail(Log, 3) + ")";
    return std::nullopt;
  }
  return M;
}

/// Synthetix's generic and specialized costs per call, in IR instructions
/// executed (ProfileReport.h says how, and what it leaves out).
struct Prediction {
  double without = 0, with = 0; ///< per call
  /// Of each: the mispredictions of the branches the facts leave, in IR
  /// instructions per call.
  double stalls = 0;
};

std::optional<Prediction> predict(const Measurement &Without, ArrayRef<Measurement> Specialized,
                                  ArrayRef<double> Shares, const Profile &P, uint64_t Calls,
                                  const ReportOptions &O) {
  double Executed = 0, WithoutCost = 0, WithCost = 0, Mispredictions = 0;
  auto Residual = [](const Measurement::Line &Line) {
    return double(Line.residual) / double(std::max<uint64_t>(1, Line.evaluated + Line.residual));
  };
  // A line's branches left residual; a line whose branches the partial
  // evaluator saw as selects has none.
  auto BranchesResidual = [](const Measurement::Line &Line) {
    return double(Line.branchesResidual) /
           double(std::max<uint64_t>(1, Line.branchesEvaluated + Line.branchesResidual));
  };
  // Of a variant's residual branches, those LLVM's cleanup kept (it proves
  // some, and makes others selects, which do not mispredict), as its static share.
  std::vector<double> BranchesKept;
  for (const Measurement &M : Specialized)
    BranchesKept.push_back(
        M.branchesEmitted ? std::min(1.0, double(M.branchesAfter) / double(M.branchesEmitted)) : 0);
  // With a variant per value of a quasi-invariant, a line runs in the
  // variants that reach it: its residual share is their mean, weighed by the
  // shares of the calls each serves.
  auto SpecializedShare = [&](const std::pair<std::string, unsigned> &Key, auto Share) {
    double Sum = 0, Weight = 0;
    for (size_t I = 0; I < Specialized.size(); ++I)
      if (auto Line = Specialized[I].lines.find(Key); Line != Specialized[I].lines.end())
        Sum += Shares[I] * Share(I, Line->second), Weight += Shares[I];
    return Weight ? Sum / Weight : 0.0;
  };
  for (auto &[Key, Line] : Without.lines) {
    uint64_t Ran = countOf(P.executed, Key), Missed = countOf(P.mispredicted, Key);
    if (!Ran) {
      std::pair<std::string, unsigned> Named = {sys::path::filename(Key.first).str(), Key.second};
      Ran = countOf(P.executedByName, Named), Missed = countOf(P.mispredictedByName, Named);
    }
    if (!Ran)
      continue;
    double Instructions = double(Ran);
    Executed += Instructions;
    WithoutCost += Instructions * Residual(Line);
    WithCost += Instructions * SpecializedShare(Key, [&](size_t, const Measurement::Line &L) {
                  return Residual(L);
                });
    Mispredictions += double(Missed) * SpecializedShare(Key, [&](size_t V, const Measurement::Line &L) {
                        return BranchesKept[V] * BranchesResidual(L);
                      });
  }
  if (Executed == 0 || Calls == 0)
    return std::nullopt;
  // What LLVM's cleanup of the residual code removes (redundant loads,
  // branches whose outcome it proves), as its static share.
  auto Cleanup = [](const Measurement &M) {
    return M.emitted ? std::min(1.0, double(M.instructions) / double(M.emitted)) : 1.0;
  };
  double WithCleanup = 0, AllShares = 0;
  for (size_t I = 0; I < Specialized.size(); ++I)
    WithCleanup += Shares[I] * Cleanup(Specialized[I]), AllShares += Shares[I];
  WithCleanup /= AllShares;
  double Stalls = Mispredictions * O.mispredictCost / double(Calls);
  return Prediction{WithoutCost * Cleanup(Without) / double(Calls) + O.callCost + Stalls,
                    WithCost * WithCleanup / double(Calls) + O.callCost + Stalls, Stalls};
}

/// What the run saw of a fact, for a draft spec's comment.
std::string observedText(const Candidate &C, const Profile &P) {
  std::string Text = C.locations.front() + ": " + factText(C, P) + ": ";
  if (C.kind == "region")
    return Text + std::to_string(C.stableReads) + " reads, every offset the same value";
  return Text + percent(C.dominant.count, C.count) + " of " + std::to_string(C.count) +
         " observations, " + std::to_string(C.changes) + " changes, " + std::to_string(C.writes) +
         " writes to " + (C.term.empty() ? "it" : C.term);
}

/// What `respec guard --spec` finds in the profiled program's sources (its
/// module records, each with its own flags) for the terms of the draft spec
/// at Path: every statement that may break one of its facts, each a guarded
/// store to make (guard's Write and Free findings), as comment lines; or why
/// not.
std::string guardListText(const std::string &Path, const std::string &Function, const Profile &P) {
  auto Unit = [](const std::string &File, const SourceFile &Source) {
    SmallString<256> Absolute(File);
    sys::fs::make_absolute(Source.directory, Absolute);
    std::vector<std::string> Flags = specFlags(Source);
    Flags.push_back("-w");
    return guard::SourceFile{std::string(Absolute), Source.directory, std::move(Flags)};
  };
  guard::GuardResult Result;
  try {
    guard::GuardOptions Options;
    Options.terms = guard::termsOfSpec(Unit(Path, P.sources.at(P.definitions.at(Function).second)));
    for (auto &[File, Source] : P.sources)
      Options.sources.push_back(Unit(File, Source));
    Result = guard::runGuard(Options);
  } catch (const SpecError &E) {
    return " *   (respec guard failed: " + std::string(E.what()) + ")\n";
  }
  constexpr size_t Shown = 40;
  std::vector<std::string> Needed;
  unsigned Writes = 0, Frees = 0, Aliases = 0;
  for (const guard::Finding &F : Result.findings) {
    guard::Category Category = guard::categoryOf(F.kind);
    Writes += Category == guard::Category::Write, Frees += Category == guard::Category::Free;
    Aliases += Category == guard::Category::Alias;
    if (Category == guard::Category::Write || Category == guard::Category::Free)
      Needed.push_back(guard::findingText(F));
  }
  std::string Text = " *   " + std::to_string(Writes) + " writes and " + std::to_string(Frees) +
                     " frees need a guard; " + std::to_string(Aliases) +
                     " alias warnings to review (respec guard --spec lists them):\n";
  for (size_t I = 0; I < std::min(Needed.size(), Shown); ++I)
    Text += " *     " + Needed[I] + "\n";
  if (Needed.size() > Shown)
    Text += " *     ... and " + std::to_string(Needed.size() - Shown) + " more\n";
  return Text;
}

/// For a draft whose facts can break (Term, a term of the run's writes, read
/// by Expr through a parameter: the object): how to keep them true at run time
/// with librespec, as comment lines in the function's own names. A slot per
/// object holds the specialized code: with Values (a per-object
/// quasi-invariant), the variant for the object's value, chosen again after
/// each break; else the one specialization, until the predicate is
/// established again. Each write the guard list names becomes a guarded store.
std::string runtimeSketchText(const std::string &Function, const std::string &Term,
                              const std::string &Expr, ArrayRef<Candidate> Values,
                              const Profile &P) {
  std::optional<Prototype> Declared = prototypeOf(Function, P);
  if (!Declared)
    return "";
  const std::string &Return = Declared->returnType;
  const std::vector<std::string> &Types = Declared->types, &Names = Declared->names;
  // The object is the parameter whose field the term is (`s->op`): a term
  // deeper in (`c->cmd->arity`) is another object's, which the sketch
  // cannot name; and variants are chosen by integer values.
  size_t Object = 0;
  while (Object < Names.size() && !StringRef(Expr).startswith(Names[Object] + "->"))
    ++Object;
  if (Object == Names.size() ||
      StringRef(Expr).drop_front(Names[Object].size() + 2).find_first_of(".-[") != StringRef::npos ||
      llvm::any_of(Values, [](const Candidate &V) {
        return StringRef(V.ctype).contains('*') || V.ctype == "function pointer";
      }))
    return "";
  const std::string &Base = Names[Object];
  std::string Variant = Function + "_variant", Text;
  raw_string_ostream OS(Text);
  OS << " *\n * At run time, with librespec (<respec/runtime.h>, runtime/README.md): a slot\n"
     << " * per object holding the specialized code, a predicate on " << Term
     << " per object\n * (its struct gains a `respec_spid spid` field), and each write listed "
        "above made a\n * guarded store, which replugs before it lands:\n *\n";
  std::string Specialized = "RESPEC_FN(" + Function + "_specialized)";
  if (!Values.empty()) {
    OS << " *   static respec_fn " << Variant << "(long long value)\n *   {\n"
       << " *           switch (value) {\n";
    for (const Candidate &Value : Values)
      OS << " *           case " << valueText(Value, Value.dominant.value, P)
         << ": return RESPEC_FN(" << Function << "_specialized" << variantSuffix(Value, P) << ");\n";
    OS << " *           default: return NULL; // the generic code\n *           }\n *   }\n"
       << " *   static respec_fn " << Function
       << "_respecialize(respec_predicate *p, respec_slot *slot, void *object)\n *   {\n"
       << " *           return " << Variant << "(((" << Types[Object] << ")object)"
       << Expr.substr(Base.size()) << ");\n *   }\n";
    Specialized = Variant + "(" + Expr + ")";
  }
  OS << " *   // once per object, where its facts are set (they hold now):\n"
     << " *   respec_slot_init(&slot, \"" << Function << "\", RESPEC_PROTOCOL_DEFAULT, RESPEC_FN("
     << Function << "));\n"
     << " *   respec_predicate *p = respec_predicate_create(\"" << Term << "\");\n"
     << " *   respec_predicate_add_slot(p, &slot, " << Specialized << ");\n"
     << " *   respec_predicate_watch(p, &" << Base << "->spid);\n";
  if (!Values.empty())
    OS << " *   respec_predicate_set_respecialize(p, " << Function << "_respecialize, " << Base
       << ");\n";
  OS << " *   respec_predicate_establish(p);\n"
     << " *   // where " << Function << "(" << join(Names, ", ") << ") was called:\n"
     << " *   RESPEC_CALL(&slot, " << Return << " (*)(" << join(Types, ", ") << "), "
     << join(Names, ", ") << ")\n"
     << " *   // each write listed: RESPEC_GUARDED_STORE(" << Base << "->spid, <the term>, value),\n"
     << " *   // e.g. RESPEC_GUARDED_STORE(" << Base << "->spid, " << Expr << ", value);\n";
  return Text;
}

/// A spec to start from, FUNCTION_spec.c in Dir: the measuring spec (it
/// compiles as it is, beside the source, with the recorded flags), and what
/// the run saw of each fact, those a spec cannot state as they are included.
void writeDraftSpec(const std::string &Dir, const std::string &Function,
                    const std::vector<const Candidate *> &Facts, ArrayRef<Candidate *> Ranked,
                    const Profile &P) {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    throw SpecError(Dir, "cannot create: " + EC.message());
  // A variant per value of the function's per-object quasi-invariant, after
  // the function with the other facts only.
  const Candidate *Invariant =
      P.definitions.count(Function) ? objectInvariant(Function, Ranked, P) : nullptr;
  std::vector<Candidate> Values = Invariant ? invariantValues(*Invariant, P) : std::vector<Candidate>();
  std::vector<std::string> Dropped;
  std::vector<const Candidate *> Stated =
      P.definitions.count(Function)
          ? statableFacts(Function, Facts, Values.empty() ? nullptr : Invariant, P, Dropped)
          : std::vector<const Candidate *>();
  std::string Why, Spec = measuringSpec(Function, Stated, P, Why);
  for (const Candidate &Value : Values) {
    std::vector<const Candidate *> VariantFacts = Stated;
    VariantFacts.push_back(&Value);
    std::string Variant = measuringSpec(Function, VariantFacts, P, Why, variantSuffix(Value, P));
    if (!Spec.empty() && !Variant.empty())
      Spec += "\n" + Variant.substr(Variant.find("RESPEC_SPECIALIZE"));
  }
  std::string Path = Dir + "/" + Function + "_spec.c", Text;
  raw_string_ostream OS(Text);
  OS << "/* Draft spec from `respec profile report`: " << Function << ", called "
     << countOf(P.calls, Function) << " times in the profiled run.\n"
     << " * Keep the facts that hold by design; a fact that held only in this run is a\n"
     << " * quasi-invariant: guard its writes (respec guard) and specialize at run time\n"
     << " * (respec/jit.h, librespec's predicates).\n *\n * What the run saw:\n";
  for (const Candidate *C : Facts)
    OS << " *   " << observedText(*C, P)
       << (is_contained(Stated, C) || (Invariant && C->term == Invariant->term)
               ? ""
               : measurable(*C, P) ? " (not stated: its variable's source was not profiled)"
               : symbolAt(*C, C->dominant.value, P)
                   ? " (not stated: a function, which the table it is read from gives)"
                   : " (not stated: an address of the run; name the object to state it)")
       << "\n";
  if (!Values.empty())
    OS << " *   " << Invariant->locations.front() << ": " << Invariant->expr << " takes "
       << Values.size() << " values, each object keeping its own (" << Invariant->term
       << ", a quasi-invariant of each object): a variant per value below; pick it where\n"
       << " *   the object's value is set, and guard the writes to " << Invariant->term << "\n";
  if (Spec.empty()) {
    OS << " *\n * Not written as a spec: " << Why << ". */\n";
  } else {
    const std::string &SourcePath = P.definitions.at(Function).second;
    const SourceFile &Source = P.sources.at(SourcePath);
    SmallString<256> Absolute(Path);
    sys::fs::make_absolute(Absolute);
    std::vector<std::string> Sources = {std::string(Absolute)};
    std::vector<const Candidate *> Named = Stated;
    for (const Candidate &Value : Values)
      Named.push_back(&Value);
    definingSources(Named, P, SourcePath, Sources, Why); // statableFacts checked them
    OS << " *\n * Specialize it in " << Source.directory << " with:\n *   respec specialize "
       << join(Sources, " ");
    for (const std::string &Flag : specFlags(Source))
      OS << " " << Flag;
    // The object then holds the defining sources' variables: it replaces them.
    OS << (Sources.size() > 1 ? " --replaces-sources" : "") << " -o " << Function << "_spec.o\n";
    // The guards its facts need, found in the draft itself (written first).
    writeFileAtomically(Path, OS.str() + " */\n" + Spec);
    OS << " *\n * Every statement of the program's sources that may break these facts, each a\n"
       << " * guarded store if they are quasi-invariants (`respec guard --spec` on this file):\n"
       << guardListText(std::string(Absolute), Function, P);
    if (Spec.find("respec_static_variable(") != std::string::npos)
      OS << " *   (not the writes to the variables respec_static_variable() declares: guard\n"
         << " *   those by hand, or keep them constant)\n";
    if (!Values.empty()) {
      OS << runtimeSketchText(Function, Invariant->term, Invariant->expr, Values, P);
    } else if (auto Written = llvm::find_if(Stated, [](const Candidate *C) {
                 return C->writes > 0 && !C->term.empty();
               });
               Written != Stated.end()) {
      OS << runtimeSketchText(Function, (*Written)->term, (*Written)->expr, {}, P);
    }
    OS << " */\n" << Spec;
  }
  writeFileAtomically(Path, OS.str());
  errs() << "profile: wrote " << Path << "\n";
}

/// A time in the unit that reads best: ns, us or ms.
std::string nsText(double Ns) {
  std::string Text;
  if (std::abs(Ns) < 1e4)
    raw_string_ostream(Text) << format("%.0f ns", Ns);
  else if (std::abs(Ns) < 1e6)
    raw_string_ostream(Text) << format("%.1f us", Ns / 1e3);
  else
    raw_string_ostream(Text) << format("%.2f ms", Ns / 1e6);
  return Text;
}

/// The ns the run spent per IR instruction its blocks counted (its CPU time,
/// a "run" record); 0 when either is missing. Its uninstrumented code (libc,
/// the kernel), the profiling and the process's start are in it too, so it
/// errs high: the report prices instructions at ReportOptions::instructionNs.
double runNsPerInstruction(const Profile &P) {
  return P.valueCpuNs && P.instructionsExecuted
             ? double(P.valueCpuNs) / double(P.instructionsExecuted)
             : 0;
}

/// Synthetix's estimate (seeds, file 000, Eq. 1-2) in ns for the profiled run,
/// of a measured function's facts together: what they saved (SavedNs), less
/// specializing at run time (the facts' specializingNs, per variant) and
/// keeping the facts true (their keepingNs: a guard per write to their
/// terms, a replug per change, a choice of variant per write to a per-object
/// quasi-invariant); with the break-even when specializing costs the run.
std::string synthetixText(const Prediction &Predicted, uint64_t Calls, double SavedNs,
                          size_t Variants, double BuildNs,
                          const std::vector<const Candidate *> &Facts, const Profile &P,
                          const ReportOptions &O) {
  uint64_t Writes = 0, Changes = 0, Choices = 0;
  double Keeping = 0, Specializing = 0;
  for (const Candidate *C : Facts) {
    Writes += C->writes, Changes += C->changes;
    Choices += C->kind == "term" ? C->writes : 0;
    // librespec-jit specializes each variant once, whatever its facts.
    Keeping += C->keepingNs, Specializing = std::max(Specializing, C->specializingNs);
  }
  Specializing *= double(Variants);
  std::string Text;
  raw_string_ostream OS(Text);
  double Net = SavedNs - Specializing - Keeping;
  OS << "Synthetix's estimate for the run: " << (Net >= 0 ? "+" : "") << nsText(Net) << " = "
     << Calls << " calls x " << format("%.1f", Predicted.without - Predicted.with)
     << " IR instructions x " << format("%.2f", O.instructionNs) << " ns (" << nsText(SavedNs);
  if (double Run = runNsPerInstruction(P))
    OS << "; the profiled run's CPU time over the instructions it counted: " << format("%.2f", Run)
       << " ns";
  OS << ") - specializing ";
  if (Specializing > 0)
    OS << nsText(Specializing) << " (at run time, on the memory the run computed)";
  else
    OS << "0 ns (at build time: respec took " << format("%.0f", BuildNs / 1e6) << " ms here)";
  OS << " - " << Writes << " guarded writes, " << Changes << " replugs and " << Choices
     << " choices of variant (" << nsText(Keeping) << ")";
  // Synthetix's break-even: the calls whose savings, less keeping the facts
  // true at this run's rate, pay for specializing once.
  double NetPerCall = (SavedNs - Keeping) / double(Calls);
  if (SavedNs <= 0)
    OS << "; it never pays: the facts save nothing per call";
  else if (NetPerCall <= 0)
    OS << "; it never pays: keeping the facts true costs more than they save";
  else if (Specializing > 0)
    OS << "; specializing pays for itself after "
       << formatv("{0:F0}", std::ceil(Specializing / NetPerCall)).str() << " calls";
  return OS.str();
}

/// What measuring a function found: the report's lines and, with a prediction
/// in ns, what its facts saved over the run and the observations of them
/// (their ratio prices the candidates: ProfileReport.h).
struct MeasuredFunction {
  std::vector<std::string> lines;
  bool priced = false;
  /// What the facts saved over the run (at least 0), and the observations of
  /// its per-object quasi-invariant's variants, which are not candidates.
  double savedNs = 0, variantObservations = 0;
  /// The function's candidates the measure saw: the draft spec states these.
  std::vector<const Candidate *> facts;
};

/// "measured: ..." and "predicted: ..." for a function's facts, or why not.
/// With a per-object quasi-invariant (objectInvariant), the specialized side
/// is a variant per value of it, each with the function's other facts.
MeasuredFunction measureFunction(const std::string &Function, ArrayRef<Candidate *> All,
                                 const Profile &P, const ReportOptions &O) {
  if (!P.definitions.count(Function))
    return {{"not measured: no C prototype recorded (no debug info, or a struct parameter or "
             "result the ABI passes differently)"}};
  const Candidate *Invariant = objectInvariant(Function, All, P);
  std::vector<Candidate> Values = Invariant ? invariantValues(*Invariant, P) : std::vector<Candidate>();
  std::vector<const Candidate *> Mine;
  for (const Candidate *C : All)
    if (C->function == Function)
      Mine.push_back(C);
  MeasuredFunction Result;
  Result.facts = Mine;
  std::vector<std::string> Dropped;
  std::vector<const Candidate *> Facts =
      statableFacts(Function, Mine, Values.empty() ? nullptr : Invariant, P, Dropped);
  if (Facts.empty() && Values.empty())
    return {{"not measured: no integer fact, region read whole or pointer into a named "
             "variable of a profiled source (another address of this run cannot be stated in "
             "a spec)"}};
  std::string Why;
  std::optional<Measurement> Without = measure(Function, {}, P, Why);
  if (!Without)
    return {{"not measured: " + Why}};
  std::vector<Measurement> Specialized; // one per variant
  std::vector<double> Shares;            // of the calls each variant serves
  std::vector<std::vector<const Candidate *>> Variants;
  for (const Candidate &Value : Values) {
    Variants.push_back(Facts);
    Variants.back().push_back(&Value);
    Shares.push_back(double(Value.dominant.count));
  }
  if (Variants.empty())
    Variants.push_back(Facts), Shares.push_back(1);
  for (const std::vector<const Candidate *> &VariantFacts : Variants) {
    std::optional<Measurement> With = measure(Function, VariantFacts, P, Why);
    if (!With)
      return {{"not measured: " + Why}};
    Specialized.push_back(std::move(*With));
  }
  std::vector<std::string> Stated;
  for (const Candidate *C : Facts)
    Stated.push_back(factText(*C, P));
  std::string Measured, Prediction;
  raw_string_ostream M(Measured);
  M << "measured by the partial evaluator: " << Function << " specializes to ";
  if (Values.empty()) {
    M << Specialized[0].instructions << " instructions with " << join(Stated, " and ") << ", "
      << Without->instructions << " without ("
      << (Without->instructions > Specialized[0].instructions
              ? std::to_string(Without->instructions - Specialized[0].instructions) + " fewer"
              : std::string("none fewer"))
      << ")";
  } else {
    std::vector<std::string> Sizes, Cases;
    for (size_t I = 0; I < Values.size(); ++I) {
      Sizes.push_back(std::to_string(Specialized[I].instructions));
      Cases.push_back(valueText(Values[I], Values[I].dominant.value, P) + " (" +
                      percent(Values[I].dominant.count, Invariant->count) + ")");
    }
    M << join(Sizes, ", ") << " instructions with "
      << (Stated.empty() ? std::string() : join(Stated, " and ") + " and ") << Invariant->expr
      << " == " << join(Cases, ", ") << ": a variant per value of " << Invariant->term
      << ", a quasi-invariant of each object; " << Without->instructions << " without";
  }
  uint64_t Calls = countOf(P.calls, Function);
  std::optional<struct Prediction> Predicted =
      predict(*Without, Specialized, Shares, P, Calls, O);
  raw_string_ostream OS(Prediction);
  if (Predicted && Predicted->with <= 0)
    OS << "predicted: the facts fold every instruction of a call ("
       << format("%.1f", Predicted->without) << " IR instructions per call without them)";
  else if (!Predicted)
    OS << "no prediction: none of the lines the partial evaluator reached ran in the profile "
          "(no block counts with RESPEC_PROFILE_MODE=calls, or source paths that differ: "
          "-ffile-prefix-map)";
  else
    OS << "predicted speedup " << format("%.1fx", Predicted->without / Predicted->with) << ": "
       << format("%.1f", Predicted->without) << " IR instructions per call without the facts, "
       << format("%.1f", Predicted->with) << " with them (" << format("%g", O.callCost)
       << " of them the call, " << format("%.1f", Predicted->stalls)
       << " the mispredictions of the branches they leave); " << format("%.0f", (Predicted->without - Predicted->with) * double(Calls))
       << " fewer over the run";
  Result.lines = {Measured, OS.str()};
  for (const std::string &Fact : Dropped)
    Result.lines.push_back("not stated: " + Fact);
  if (Predicted) {
    // Keeping the facts true is every stated fact's, and the quasi-invariant's
    // (its term's writes); specializing here is every variant's.
    double BuildNs = 0;
    for (const Measurement &With : Specialized)
      BuildNs += With.specializeNs;
    std::vector<const Candidate *> Kept = Facts;
    for (const Candidate *C : All)
      if (Invariant && C->kind == "term" && C->term == Invariant->term)
        Kept.push_back(C);
    Result.priced = true;
    Result.savedNs =
        std::max(0.0, double(Calls) * (Predicted->without - Predicted->with) * O.instructionNs);
    for (const Candidate &Value : Values)
      Result.variantObservations += double(Value.dominant.count);
    Result.lines.push_back(synthetixText(*Predicted, Calls, Result.savedNs, Specialized.size(),
                                         BuildNs, Kept, P, O));
  }
  return Result;
}

/// One ranked candidate as the report shows it: a title and the figures
/// behind its estimate, one per line.
struct Entry {
  std::string title;
  std::vector<std::string> lines;
};

/// The report as one self-contained page: the same entries, a table row each.
std::string renderHtml(const std::string &Heading, const std::vector<Entry> &Entries,
                       const std::vector<std::string> &Profiles) {
  std::string Html;
  raw_string_ostream H(Html);
  H << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>respec profile report</title>\n"
       "<style>\nbody{font-family:system-ui,sans-serif;margin:2em;color:#222}\n"
       "table{border-collapse:collapse}td,th{padding:6px 10px;border-bottom:1px solid #ddd;"
       "vertical-align:top;text-align:left}\nth{background:#eee}td.rank{text-align:right}\n"
       ".fact{font:13px/1.4 ui-monospace,monospace;font-weight:600}\n"
       ".why{font:12px/1.4 ui-monospace,monospace;color:#444;margin:2px 0}\n"
       ".predicted{color:#0a5a0a}\n</style></head><body>\n<h1>respec profile report</h1>\n<p>";
  for (const std::string &Path : Profiles)
    H << "<code>" << htmlEscape(Path) << "</code> ";
  H << "</p>\n<p>" << htmlEscape(Heading) << "</p>\n<table>\n<tr><th>#</th><th>candidate and the "
       "figures behind its estimate</th></tr>\n";
  for (size_t I = 0; I < Entries.size(); ++I) {
    H << "<tr><td class=\"rank\">" << I + 1 << "</td><td><div class=\"fact\">"
      << htmlEscape(Entries[I].title) << "</div>\n";
    for (const std::string &Line : Entries[I].lines)
      H << "<div class=\"why" << (StringRef(Line).startswith("predicted") ? " predicted" : "")
        << "\">" << htmlEscape(Line) << "</div>\n";
    H << "</td></tr>\n";
  }
  H << "</table>\n</body></html>\n";
  return H.str();
}


/// What a candidate would save if its one-time cost were paid: positive when
/// it pays for itself in a run long enough.
double worth(const Candidate &C) { return C.score + C.specializingNs; }

/// Candidates best first by their worth (ProfileReport.h: a profiling run is
/// shorter than the runs it stands for, so a one-time cost does not order
/// them), those worth listing: ones that pay for themselves in a run long
/// enough, with a hundredth of the best's worth or more (facts of code that
/// hardly ran are not worth a spec), at most Top.
std::vector<Candidate *> rank(std::vector<Candidate *> Candidates, unsigned Top) {
  for (Candidate *C : Candidates)
    C->score = score(*C);
  std::stable_sort(Candidates.begin(), Candidates.end(),
                   [](const Candidate *A, const Candidate *B) { return worth(*A) > worth(*B); });
  double Best = 0;
  for (const Candidate *C : Candidates)
    Best = std::max(Best, worth(*C));
  llvm::erase_if(Candidates, [&](const Candidate *C) { return worth(*C) <= 0 || worth(*C) < Best / 100; });
  if (Candidates.size() > Top)
    Candidates.resize(Top);
  return Candidates;
}

/// Prices each value candidate's observations (ProfileReport.h): a measured
/// function's saving spread over the observations of all its candidates (and
/// of its quasi-invariant's variants); the others' at every priced function's
/// saving over their observations (1 ns when none was priced). Returns the
/// latter and its source, for the heading.
std::string price(ArrayRef<Candidate *> Candidates,
                  const std::map<std::string, MeasuredFunction> &Measured) {
  std::map<std::string, double> Observations;
  for (const Candidate *C : Candidates)
    if (C->kind != "term" && C->kind != "file")
      Observations[C->function] += C->observations;
  std::map<std::string, double> Rates;
  double Saved = 0, Seen = 0;
  for (auto &[Function, M] : Measured) {
    double Total = Observations[Function] + M.variantObservations;
    if (M.priced && Total > 0)
      Rates[Function] = M.savedNs / Total, Saved += M.savedNs, Seen += Total;
  }
  double Mean = Saved > 0 ? Saved / Seen : 1;
  std::string MeanSource = Saved > 0 ? "the measured functions' mean" : "none priced";
  for (Candidate *C : Candidates) {
    auto It = Rates.find(C->function);
    bool Own = C->kind != "term" && It != Rates.end();
    C->nsPerObservation = Own ? It->second : Mean;
    C->rateSource = Own ? "measured on " + C->function : MeanSource;
  }
  return formatv("{0:F1} ns, {1}", Mean, MeanSource).str();
}

/// "benefit ... = ..., cost ...; score ..." for a value or term candidate.
std::string estimateText(const Candidate &C, StringRef Benefit, StringRef Cost) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "benefit " << Benefit << " x " << format("%.1f", C.nsPerObservation) << " ns ("
     << C.rateSource << ") = " << nsText(C.observations * C.nsPerObservation) << "; cost " << Cost;
  if (C.dispatches > 0)
    OS << " + " << format("%.0f", C.dispatches) << " dispatches (the value changes between calls)";
  OS << " = " << nsText(C.observations * C.nsPerObservation - C.score) << "; score " << nsText(C.score);
  if (C.score < 0)
    OS << " (specializing pays in a run " << format("%.1f", C.specializingNs / worth(C))
       << "x as long)";
  return OS.str();
}

/// After a first, cheap profile (RESPEC_PROFILE_MODE=calls): the most called
/// functions, and how to record values in them only.
void printHottest(const Profile &P, size_t Top) {
  std::vector<std::pair<uint64_t, std::string>> ByCalls;
  for (auto &[Function, Calls] : P.calls)
    ByCalls.push_back({Calls, Function});
  std::stable_sort(ByCalls.begin(), ByCalls.end(),
                   [](auto &A, auto &B) { return A.first > B.first; });
  if (ByCalls.size() > Top)
    ByCalls.resize(Top);
  std::vector<std::string> Names;
  outs() << "No value was recorded (a calls-only profile). The most called functions:\n";
  for (auto &[Calls, Function] : ByCalls) {
    outs() << "  " << Function << ": " << Calls << " calls\n";
    Names.push_back(Function);
  }
  outs() << "Rebuild with RESPEC_PROFILE_FUNCTIONS=" << join(Names, ",")
         << " in clang's environment to record values in them only.\n";
}

} // namespace

void report(const ReportOptions &O) {
  if (O.profiles.empty())
    throw SpecError("", "no profile given");
  Profile P;
  P.ioCosts = {O.ioSyscallNs, O.ioOpenNs, O.ioPopulateNsPerKiB};
  P.ioCostsSource = "librespec-io's built-in costs";
  for (const std::string &Path : O.profiles)
    readProfile(Path, P);
  addTermCandidates(P);
  std::vector<Candidate *> All;
  for (auto &[Key, C] : P.candidates)
    if (estimate(C, P, O))
      All.push_back(&C);
  // A first order of the value candidates, at 1 ns per observation, says
  // which functions to measure; what their facts save per observation then
  // prices every candidate.
  std::vector<Candidate *> Values;
  for (Candidate *C : All)
    if (C->kind != "file")
      Values.push_back(C);
  const std::vector<Candidate *> Preliminary = rank(Values, std::numeric_limits<unsigned>::max());
  std::map<std::string, MeasuredFunction> Measured;
  for (const Candidate *C : Preliminary)
    if (C->kind != "term" && !Measured.count(C->function) && Measured.size() < O.measure) {
      errs() << "profile: measuring " << C->function << " with respec explain\n";
      Measured[C->function] = measureFunction(C->function, Preliminary, P, O);
    }
  std::string Rate = price(All, Measured);
  std::vector<Candidate *> Ranked = rank(All, O.top);

  size_t Files = llvm::count_if(P.candidates, [](auto &Entry) { return Entry.second.kind == "file"; });
  std::string Heading;
  raw_string_ostream(Heading)
      << "respec profile: " << P.candidates.size() - Files << " value sites in " << P.calls.size()
      << " functions, " << Files << " files read; " << Ranked.size()
      << " candidate predicates ranked by Synthetix's estimate for the run, benefit - cost, without one-time costs\n"
      << "(benefit: observations of the dominant value x the ns one saves, as the partial "
         "evaluator measured on the first functions (elsewhere "
      << Rate << "), or the ns a file's reads would save; cost: specializing at run time on "
         "memory the run computed "
      << nsText(O.specializeNs) << ", a guarded write " << format("%g", O.guardNs)
      << " ns, a replug per change " << nsText(O.replugNs) << ", choosing a variant at a write "
      << "to a per-object quasi-invariant " << nsText(O.chooseNs) << ")";
  outs() << Heading << "\n\n";
  std::map<std::string, std::vector<const Candidate *>> ByFunction;
  std::vector<Entry> Entries;
  for (const Candidate *C : Ranked) {
    Entry &E = Entries.emplace_back();
    if (C->kind == "file") {
      std::string Figures;
      raw_string_ostream F(Figures);
      E.title = factText(*C, P);
      F << "file, " << C->opens << " open(s) of up to " << C->size << " bytes: " << C->reads
        << " reads of " << C->bytesRead << " bytes (" << C->bytesRead / std::max<uint64_t>(1, C->reads)
        << " per read), " << C->preads << " preads; no dup, fork, spawn or second reading thread while open";
      E.lines.push_back(F.str());
      std::string Estimate;
      raw_string_ostream(Estimate)
          << "benefit " << format("%.0f", C->savedNs + double(C->opens) * P.ioCosts.openNs)
          << " ns (the run's " << format("%.0f", double(C->readNs) / double(C->reads))
          << " ns per read(2), less librespec-io's read, mapping and copy), cost "
          << format("%.0f", double(C->opens) * P.ioCosts.openNs)
          << " ns (setting up each open); score " << format("%.0f", C->score) << " ns ("
          << P.ioCostsSource << ")";
      E.lines.push_back(Estimate);
      // The program's time outside these reads, and librespec-io's instead.
      double Cpu = double(countOf(P.cpuNs, C->function));
      double Specialized = std::max(0.0, Cpu - double(C->readNs)) + ioInsteadNs(*C, P.ioCosts, O);
      std::string Predicted;
      if (double(C->readNs) > 1.05 * Cpu)
        Predicted = "no prediction: the reads took longer than " + C->function +
                    "'s CPU time (they waited: for the disk, or a descriptor of another kind "
                    "under a reused number)";
      else if (Cpu > 0)
        raw_string_ostream(Predicted)
            << "predicted speedup " << format("%.2fx", Cpu / Specialized) << " of " << C->function
            << ": " << format("%.1f", Cpu / 1e6) << " ms of CPU, "
            << format("%.1f", double(C->readNs) / 1e6) << " ms of it in these reads, "
            << format("%.1f", Specialized / 1e6) << " ms with librespec-io";
      else
        Predicted = "no prediction: no CPU time recorded for " + C->function;
      E.lines.push_back(Predicted);
      E.lines.push_back("specialize with librespec-io: LD_PRELOAD=librespec-io-preload.so " +
                        C->function + " (no rebuild), or respec_io_open and respec_io_read "
                        "(respec/io.h)");
    } else if (C->kind == "term") {
      E.title = factText(*C, P);
      E.lines.push_back("read in " + locationsText(C->locations));
      E.lines.push_back(estimateText(
          *C, std::to_string(C->dominant.count) + " reads",
          std::to_string(C->writes) + " writes (a guard and a choice of variant each)"));
    } else {
      E.title = C->function + ": " + factText(*C, P);
      E.lines.push_back(C->kind + " at " + locationsText(C->locations) + "; function called " +
                        std::to_string(countOf(P.calls, C->function)) + " times");
      if (C->kind == "region")
        E.lines.push_back(estimateText(
            *C, std::to_string(C->stableReads) + " (reads of unchanging memory, " +
                    std::to_string(C->bases) + " distinct base address(es))",
            (C->specializingNs > 0 ? "specializing at run time " + nsText(C->specializingNs)
                                   : std::string("specializing at build time (a variable's memory)")) +
                " + " + std::to_string(C->bases > 1 ? C->bases - 1 : 0) + " replugs"));
      else
        E.lines.push_back(estimateText(
            *C, std::to_string(C->dominant.count) + " (" + percent(C->dominant.count, C->count) +
                    " of " + std::to_string(C->count) + ")",
            std::to_string(C->writes) + " writes to " + (C->term.empty() ? "-" : C->term) +
                " + " + std::to_string(C->changes) + " changes"));
      if (!ByFunction.count(C->function))
        if (auto It = Measured.find(C->function); It != Measured.end())
          for (const std::string &Line : It->second.lines)
            E.lines.push_back(Line);
      ByFunction[C->function].push_back(C);
    }
    outs() << Entries.size() << ". " << E.title << "\n";
    for (const std::string &Line : E.lines)
      outs() << "   " << Line << "\n";
  }
  if (!O.htmlPath.empty())
    writeFileAtomically(O.htmlPath, renderHtml(Heading, Entries, O.profiles));
  bool ValueSites = llvm::any_of(P.candidates, [](auto &Entry) { return Entry.second.kind != "file"; });
  if (!ValueSites && !P.calls.empty())
    printHottest(P, O.top);
  // A measured function the pricing left out: what the measure found.
  for (auto &[Function, M] : Measured)
    if (!ByFunction.count(Function)) {
      outs() << "Measured, not listed: " << Function << "\n";
      for (const std::string &Line : M.lines)
        outs() << "   " << Line << "\n";
    }
  // A measured function's draft states the facts its measure did.
  if (!O.specDir.empty())
    for (auto &[Function, Facts] : ByFunction) {
      auto It = Measured.find(Function);
      writeDraftSpec(O.specDir, Function,
                     It != Measured.end() && !It->second.facts.empty() ? It->second.facts : Facts,
                     Preliminary, P);
    }
}

} // namespace respec::profile
