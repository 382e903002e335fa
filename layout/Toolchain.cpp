//===- Toolchain.cpp - The LLVM 16 tools the layout pipeline runs ---------===//
#include "Toolchain.h"
#include "Diagnostics.h"
#include "Driver.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace respec::layout {

namespace {

/// Tool in LLVM's bin directory, or an error naming the package to install.
std::string llvmTool(StringRef Name, StringRef Package) {
  SmallString<256> Path(RESPEC_LLVM_BINDIR);
  sys::path::append(Path, Name);
  if (!sys::fs::can_execute(Path))
    throw SpecError("respec layout", Path.str().str() + " not found: install " + Package.str() +
                                         " (scripts/bootstrap does)");
  return Path.str().str();
}

} // namespace

Toolchain findToolchain(bool Pgo, bool Sampling, bool Cachegrind) {
  Toolchain T;
  T.clang = clangPath();
  if (!sys::fs::can_execute(T.clang))
    throw SpecError("respec layout", T.clang + " not found: install clang-16");
  T.bolt = llvmTool("llvm-bolt", "bolt-16");
  T.mergeFdata = llvmTool("merge-fdata", "bolt-16");
  if (!Sampling) {
    SmallString<256> Runtime(RESPEC_LLVM_BINDIR);
    sys::path::append(Runtime, "..", "lib", "libbolt_rt_instr.a");
    if (!sys::fs::exists(Runtime))
      throw SpecError("respec layout", Runtime.str().str() +
                                           " not found: BOLT's instrumentation runtime is in "
                                           "libbolt-16-dev (or use --sampling)");
  } else {
    T.perf2bolt = llvmTool("perf2bolt", "bolt-16");
    ErrorOr<std::string> Perf = sys::findProgramByName("perf");
    if (!Perf)
      throw SpecError("respec layout", "--sampling needs perf: install linux-perf");
    T.perf = *Perf;
  }
  if (Pgo)
    T.profdata = llvmTool("llvm-profdata", "llvm-16");
  if (Cachegrind) {
    ErrorOr<std::string> Valgrind = sys::findProgramByName("valgrind");
    if (!Valgrind)
      throw SpecError("respec layout", "--cachegrind needs valgrind: install valgrind");
    T.valgrind = *Valgrind;
    T.objcopy = llvmTool("llvm-objcopy", "llvm-16");
  }
  return T;
}

} // namespace respec::layout
