//===- SchedulingGate.h - Code generation of very large blocks -*- C++ -*-===//
//
// Specialization can turn a loop into one straight block of tens of thousands
// of instructions (a fully unrolled walk over static data with a residual
// store per step). LLVM's pre-register-allocation machine scheduler schedules
// each block without calls as one region, in time quadratic in its size: a
// 90,000-instruction block took it 71 of the 84 seconds `llc -O2` spent on a
// whole module (Csmith program seed 0x347db129, `-time-passes`), while the rest
// of code generation took 10. The scheduler only reorders instructions within a
// block for latency, so a block that large gains nothing worth a minute.
//
// SchedulingGate skips that one pass for the functions that have a block of
// more than MaxScheduledBlock instructions, and nothing else: it is an
// OptPassGate (the hook behind -opt-bisect-limit) installed on the module's
// LLVMContext for the time of one code generation run, for respec specialize
// and run-time specialization alike. A context serves one thread at a time
// (run-time specialization compiles under ORC's context lock), so gates on
// one context are installed and removed in order. Any gate already installed
// (-opt-bisect-limit) still decides every other pass.
// test/jit/scheduling_gate_test.cpp runs the code generator on such a block.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_SCHEDULING_GATE_H
#define RESPEC_PE_SCHEDULING_GATE_H

#include "llvm/IR/OptBisect.h"
#include <set>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace respec {

class SchedulingGate : public llvm::OptPassGate {
public:
  /// Blocks of more instructions than this are not given to the scheduler.
  static constexpr unsigned MaxScheduledBlock = 10000;

  /// Installed on M's context when M has such a block, until destroyed.
  explicit SchedulingGate(llvm::Module &M);
  ~SchedulingGate() override;
  SchedulingGate(const SchedulingGate &) = delete;
  SchedulingGate &operator=(const SchedulingGate &) = delete;

  bool shouldRunPass(llvm::StringRef PassName, llvm::StringRef IRDescription) override;
  bool isEnabled() const override { return true; }

private:
  llvm::LLVMContext *context = nullptr; ///< set while installed
  llvm::OptPassGate *previous = nullptr;
  /// The functions with a block too large, as LLVM's legacy passes describe
  /// the IR unit they skip: "function (NAME)".
  std::set<std::string> unscheduled;
};

} // namespace respec

#endif
