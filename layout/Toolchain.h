//===- Toolchain.h - The LLVM 16 tools the layout pipeline runs -*- C++ -*-===//
#ifndef RESPEC_LAYOUT_TOOLCHAIN_H
#define RESPEC_LAYOUT_TOOLCHAIN_H

#include <string>

namespace respec::layout {

/// Absolute paths, all from one LLVM installation (its bin directory: BOLT
/// finds its instrumentation runtime relative to itself, in ../lib).
struct Toolchain {
  std::string clang;
  std::string bolt;
  std::string mergeFdata;
  std::string perf2bolt;
  std::string profdata;
  std::string perf;     ///< only with --sampling
  std::string valgrind; ///< only with --cachegrind
  std::string objcopy;  ///< only with --cachegrind
};

/// Finds the tools the options need, or throws SpecError naming the Debian
/// package that provides a missing one.
Toolchain findToolchain(bool Pgo, bool Sampling, bool Cachegrind);

} // namespace respec::layout

#endif
