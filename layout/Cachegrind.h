//===- Cachegrind.h - Instruction-cache and branch figures of a variant -*- C++ -*-===//
//
// Wall time on a shared machine can be too noisy to see what a layout did; the
// first-level instruction-cache misses and the mispredicted branches of a fixed
// workload, counted by valgrind's cachegrind, are the same from run to run. The
// command runs once per variant with {binary} replaced by a wrapper that runs
// the variant under cachegrind (a copy without debug information: valgrind
// 3.19 cannot read clang 16's DWARF 5); the figures are summed over every
// process of the variant the command starts.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_LAYOUT_CACHEGRIND_H
#define RESPEC_LAYOUT_CACHEGRIND_H

#include "Toolchain.h"
#include <cstdint>
#include <string>

namespace respec::layout {

struct CacheFigures {
  uint64_t instructions = 0, instructionCacheMisses = 0, mispredictedBranches = 0;
};

/// Runs Command (with {binary}) on Binary under cachegrind; files in Directory.
CacheFigures cachegrind(const Toolchain &Tools, const std::string &Command,
                        const std::string &Binary, const std::string &Directory);

} // namespace respec::layout

#endif
