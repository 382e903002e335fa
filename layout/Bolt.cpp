//===- Bolt.cpp - One llvm-bolt run and what it reports -------------------===//
//
// The options are those BOLT's authors give for a program with a profile:
// blocks in ext-tsp order, each function split into its hot and cold parts
// (all cold blocks, landing pads included), identical functions folded, and
// the functions ordered by the algorithm asked for. Lite mode (BOLT's
// default) leaves functions without a profile where they are. The debug
// information is rewritten to match (backtraces and MemGuard's reports keep
// their file:line).
//
//===----------------------------------------------------------------------===//
#include "Bolt.h"
#include "Process.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace respec::layout {

namespace {

/// The integer after Marker in Line (decimal, or hex after 0x), or -1.
int64_t numberAfter(StringRef Line, StringRef Marker) {
  size_t At = Line.find(Marker);
  if (At == StringRef::npos)
    return -1;
  StringRef Rest = Line.drop_front(At + Marker.size()).ltrim();
  unsigned Radix = Rest.consume_front("0x") ? 16 : 10;
  Rest = Rest.take_while([&](char C) { return Radix == 16 ? isHexDigit(C) : isDigit(C); });
  int64_t Value;
  return Rest.getAsInteger(Radix, Value) ? -1 : Value;
}

BoltStatistics parseLog(const std::string &Log) {
  BoltStatistics S;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Log);
  if (!Text)
    return S;
  int64_t HotStart = -1, HotEnd = -1;
  SmallVector<StringRef> Lines;
  (*Text)->getBuffer().split(Lines, '\n');
  for (StringRef Line : Lines) {
    if (!Line.consume_front("BOLT-INFO: "))
      continue;
    if (Line.contains("functions in the binary") && Line.contains("have non-empty execution")) {
      S.profiledFunctions = numberAfter(Line, "");
      S.functions = numberAfter(Line, "out of");
    } else if (Line.contains("basic block reordering modified layout of")) {
      S.reorderedFunctions = numberAfter(Line, "layout of");
    } else if (Line.startswith("splitting separates")) {
      S.hotBytes = numberAfter(Line, "separates");
      S.coldBytes = numberAfter(Line, "hot bytes from");
    } else if (Line.contains("reduced the number of chains from")) {
      S.chainsBefore = numberAfter(Line, "chains from");
      S.chainsAfter = numberAfter(Line, " to ");
    } else if (Line.startswith("setting __hot_start to")) {
      HotStart = numberAfter(Line, "to");
    } else if (Line.startswith("setting __hot_end to")) {
      HotEnd = numberAfter(Line, "to");
    }
  }
  if (HotStart >= 0 && HotEnd >= HotStart)
    S.hotTextBytes = HotEnd - HotStart;
  return S;
}

} // namespace

BoltStatistics runBolt(const Toolchain &Tools, const BoltRun &Run) {
  std::vector<std::string> Argv = {Tools.bolt,
                                   Run.binary,
                                   "-o",
                                   Run.output,
                                   "-data=" + Run.profile,
                                   "-reorder-blocks=ext-tsp",
                                   "-reorder-functions=" + Run.order,
                                   "-split-functions",
                                   "-split-all-cold",
                                   "-split-eh",
                                   "-icf=1",
                                   "-use-gnu-stack",
                                   "-update-debug-sections",
                                   "-dyno-stats"};
  if (!Run.skipFunctions.empty())
    Argv.push_back("-skip-funcs=" + Run.skipFunctions);
  runOrThrow({Argv, "", {}, Run.log}, "llvm-bolt (" + Run.order + ")");
  return parseLog(Run.log);
}

} // namespace respec::layout
