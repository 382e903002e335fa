//===- Measure.h - Timing the program variants, interleaved ----*- C++ -*-===//
//
// Each round runs the measuring command once per variant, in a new random
// order (seeded, the seed reported), so that drift of the machine's state
// during the run spreads over all variants instead of favouring the ones that
// ran first. The figure is each variant's median wall time.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_LAYOUT_MEASURE_H
#define RESPEC_LAYOUT_MEASURE_H

#include <cstdint>
#include <string>
#include <vector>

namespace respec::layout {

struct Timing {
  std::vector<double> seconds; ///< one per round, in round order
  double median() const;
};

/// Times Command (with {binary}) for every binary, Rounds times.
std::vector<Timing> measure(const std::string &Command, const std::vector<std::string> &Binaries,
                            unsigned Rounds, uint64_t Seed, const std::string &LogDirectory);

} // namespace respec::layout

#endif
