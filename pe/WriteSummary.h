//===- WriteSummary.h - What a call to visible code may write -----*- C++ -*-===//
//
// A call the specializer keeps residual normally forgets every tracked cell the
// callee could reach: whatever its arguments point to, and every escaped
// object (MemoryState.h). When respec can see the callee, it can say more: the
// callee writes memory only through its stores and the calls it makes, and
// clang tags each store with the type of what it writes (TBAA, C's effective
// type rules). The write summary of a function is the set of those access tags
// over everything it may run — its own stores and those of every function it
// calls directly, transitively — or "anything" when some write has no tag
// (memcpy, -fno-strict-aliasing), when it calls through a pointer, or calls
// external code that may write (not a function the spec declares pure). Stores to the function's own stack frame are
// not writes its caller can see.
//
// After a residual call with a summary, a cell survives when no tag of the
// summary may alias the tag of the store that wrote it (MemoryState::
// writeSomewhereIn/writeUnknown with access types): an XDR stream's x_op field
// stays static across a call that only moves its cursor. This is the rule
// LLVM's own optimizations rely on (TBAA), so it holds for the same programs.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_WRITESUMMARY_H
#define RESPEC_PE_WRITESUMMARY_H

#include "ExternalFacts.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"
#include <map>
#include <vector>

namespace respec {

struct WriteSummary {
  bool anything = false;                          ///< some write with no usable tag
  std::vector<const llvm::MDNode *> accessTypes;  ///< sorted, unique
  bool writesNothing() const { return !anything && accessTypes.empty(); }
};

/// The write summaries of every defined function of a module, computed once.
class WriteSummaries {
public:
  /// External functions the spec declares pure or stable (ExternalFacts.h)
  /// write nothing, by their contract.
  WriteSummaries(llvm::Module &M, const ExternalFacts &Facts);
  /// F's summary; null for a declaration (external code: may write anything
  /// unless the call says otherwise).
  const WriteSummary *get(const llvm::Function *F) const {
    auto It = summaries.find(F);
    return It == summaries.end() ? nullptr : &It->second;
  }

private:
  std::map<const llvm::Function *, WriteSummary> summaries;
};

} // namespace respec

#endif
