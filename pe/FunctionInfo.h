//===- FunctionInfo.h - Per-function facts the specializer needs -*- C++ -*-===//
//
// Before specializing, every defined function of the linked module is put in a
// canonical shape and analysed once:
//   * scalar locals are promoted to SSA (mem2reg), so that only memory whose
//     address is taken is left to the partially-static memory model;
//   * every block is split after each call that may be unfolded (a call to a
//     defined function, or an indirect call that may become one), so the place a
//     callee returns to is the start of a block: returns then meet there, which
//     is what gives return sensitivity;
//   * reverse post-order numbers (the order blocks are specialized in), live-in
//     sets (the SSA values an abstract state carries into a block), and loops
//     (whose headers are where unrolling happens).
// Functions that cannot be unfolded soundly (setjmp, indirectbr, varargs on a
// target whose va_list is not modeled, ...)
// are recorded with the reason and where, and are called residually.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_FUNCTIONINFO_H
#define RESPEC_PE_FUNCTIONINFO_H

#include "WriteSummary.h"
#include "ExternalFacts.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace respec {

struct FunctionInfo {
  llvm::Function *function = nullptr;
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> rpoIndex;
  /// SSA values (arguments, instructions) live on entry to each block, plus the
  /// block's own phis, in a deterministic order.
  llvm::DenseMap<const llvm::BasicBlock *, std::vector<llvm::Value *>> liveIn;
  std::unique_ptr<llvm::DominatorTree> domTree;
  std::unique_ptr<llvm::LoopInfo> loops;
  std::string notUnfoldableReason; ///< empty when calls may be unfolded
  llvm::DebugLoc notUnfoldableLoc;

  bool unfoldable() const { return notUnfoldableReason.empty(); }
  const llvm::Loop *loopWithHeader(const llvm::BasicBlock *BB) const {
    const llvm::Loop *L = loops->getLoopFor(BB);
    return L && L->getHeader() == BB ? L : nullptr;
  }
};

/// Whether the specializer models M's va_list (x86-64 System V), so variadic
/// functions can be unfolded (VariadicArguments.cpp).
bool hasModeledVaList(const llvm::Module &M);

/// Canonicalizes every defined function of M and computes its FunctionInfo;
/// reads the spec's declared facts (throws SpecError for misuse).
class ModuleInfo {
public:
  explicit ModuleInfo(llvm::Module &M);
  const FunctionInfo &get(const llvm::Function *F) const { return *infos.at(F); }
  /// What a call to F may write (WriteSummary.h); null for a declaration.
  const WriteSummary *writes(const llvm::Function *F) const { return writeSummaries->get(F); }
  /// What the spec declares about external functions (ExternalFacts.h).
  const ExternalFacts &facts() const { return externalFacts; }
  /// The C library functions of the module's target (CallEffects.h).
  const llvm::TargetLibraryInfo &libraryInfo() const { return *library; }

  /// Whether a call may be unfolded (inlined during specialization).
  static bool isUnfoldableCallSite(const llvm::CallBase &Call);

private:
  std::map<const llvm::Function *, std::unique_ptr<FunctionInfo>> infos;
  std::unique_ptr<WriteSummaries> writeSummaries;
  ExternalFacts externalFacts;
  std::unique_ptr<llvm::TargetLibraryInfoImpl> libraryImpl;
  std::unique_ptr<llvm::TargetLibraryInfo> library;
};

} // namespace respec

#endif
