//===- Profiles.h - Running the training workload for a profile -*- C++ -*-===//
//
// Three kinds of profile, each from one run of the training command against a
// program made to collect it:
//
//   BOLT instrumentation  llvm-bolt -instrument writes a copy of the program
//                         that counts every branch and call and writes the
//                         counts when a process exits normally (a server must
//                         be shut down, not killed); one file per process,
//                         merged with merge-fdata
//   BOLT sampling         perf record -e cpu-clock of the training command
//                         (its children included), perf2bolt -nl: sampled
//                         addresses only, no branches (no LBR here)
//   clang PGO             a build with -fprofile-instr-generate, one .profraw
//                         per process and module, llvm-profdata merge
//
// A profile is kept with a stamp of the program it came from and the training
// command, and reused while both stay the same.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_LAYOUT_PROFILES_H
#define RESPEC_LAYOUT_PROFILES_H

#include "Layout.h"
#include "Toolchain.h"
#include <string>
#include <vector>

namespace respec::layout {

/// BOLT's profile (.fdata) of Binary under the training command, in Directory.
std::string boltProfile(const LayoutOptions &Options, const Toolchain &Tools,
                        const std::string &Binary, const std::string &Directory);

/// clang's profile (.profdata) of an instrumented build under the training
/// command, in Directory.
std::string pgoProfile(const LayoutOptions &Options, const Toolchain &Tools,
                       const std::string &InstrumentedBinary, const std::string &Directory);

/// What a training run recorded of librespec's slots (RESPEC_LAYOUT_RECORD,
/// runtime/layout_record.c): one file per process that used slots.
std::vector<std::string> slotRecordsOf(const std::string &Directory);

} // namespace respec::layout

#endif
