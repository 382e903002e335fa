//===- Bolt.h - One llvm-bolt run and what it reports -----------*- C++ -*-===//
#ifndef RESPEC_LAYOUT_BOLT_H
#define RESPEC_LAYOUT_BOLT_H

#include "Toolchain.h"
#include <cstdint>
#include <string>

namespace respec::layout {

/// What BOLT says it did (its BOLT-INFO lines); -1 where it said nothing.
struct BoltStatistics {
  int64_t profiledFunctions = -1, functions = -1;
  int64_t reorderedFunctions = -1; ///< block layout changed
  int64_t hotBytes = -1, coldBytes = -1; ///< of the functions split
  int64_t chainsBefore = -1, chainsAfter = -1; ///< function clustering
  int64_t hotTextBytes = -1; ///< __hot_end - __hot_start
};

struct BoltRun {
  std::string binary, profile, output, log;
  /// A -reorder-functions algorithm.
  std::string order;
  /// Functions BOLT leaves as they are, where they are (-skip-funcs).
  std::string skipFunctions;
};

/// Runs llvm-bolt: ext-tsp block order, hot/cold splitting, Run.order for
/// functions. Throws SpecError with the log's end if it fails.
BoltStatistics runBolt(const Toolchain &Tools, const BoltRun &Run);

} // namespace respec::layout

#endif
