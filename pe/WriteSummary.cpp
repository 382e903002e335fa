//===- WriteSummary.cpp - Access tags a function's writes carry ------------===//
//
// Local effects first (each function's own stores and calls), then the
// summaries are the least fixpoint of "own tags plus the callees' summaries"
// over the direct call graph, so recursion needs no special case.
//
//===----------------------------------------------------------------------===//
#include "WriteSummary.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include <set>

using namespace llvm;

namespace respec {

namespace {
struct LocalWrites {
  bool anything = false;
  std::set<const MDNode *> accessTypes;
  std::vector<const Function *> callees; ///< defined functions called directly
};
} // namespace

/// Whether Ptr points into F's own stack frame (dead when F returns).
static bool isOwnFrame(const Value *Ptr, const Function &F) {
  auto *Alloca = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
  return Alloca && Alloca->getFunction() == &F;
}

static LocalWrites localWrites(const Function &F, const ExternalFacts &Facts) {
  LocalWrites W;
  auto Tagged = [&](const Instruction &I, const Value *Ptr) {
    if (isOwnFrame(Ptr, F))
      return;
    if (const MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa))
      W.accessTypes.insert(Tag);
    else
      W.anything = true;
  };
  for (const Instruction &I : instructions(F)) {
    if (auto *Store = dyn_cast<StoreInst>(&I)) {
      Tagged(I, Store->getPointerOperand());
    } else if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
      W.anything = true;
    } else if (auto *Transfer = dyn_cast<AnyMemIntrinsic>(&I)) {
      if (!isOwnFrame(Transfer->getRawDest(), F))
        W.anything = true; // memcpy/memset carry no access type
    } else if (auto *Call = dyn_cast<CallBase>(&I)) {
      if (Call->onlyReadsMemory())
        continue;
      if (auto *Intrinsic = dyn_cast<IntrinsicInst>(Call)) {
        switch (Intrinsic->getIntrinsicID()) {
        case Intrinsic::vastart:
        case Intrinsic::vacopy:
        case Intrinsic::vaend:
          if (isOwnFrame(Intrinsic->getArgOperand(0), F))
            continue;
          break;
        default:
          if (Intrinsic->isAssumeLikeIntrinsic() || Intrinsic->isLifetimeStartOrEnd())
            continue;
          break;
        }
        W.anything = true;
        continue;
      }
      const Function *Callee = Call->getCalledFunction();
      if (Callee && !Callee->isDeclaration())
        W.callees.push_back(Callee);
      else if (!(Callee && (Callee->getName().startswith("__respec_") || Facts.about(Callee))))
        W.anything = true; // external code, a call through a pointer, inline asm
    }
  }
  return W;
}

WriteSummaries::WriteSummaries(Module &M, const ExternalFacts &Facts) {
  std::map<const Function *, LocalWrites> Local;
  for (const Function &F : M)
    if (!F.isDeclaration())
      Local.emplace(&F, localWrites(F, Facts));
  std::map<const Function *, std::set<const MDNode *>> Tags;
  std::map<const Function *, bool> Anything;
  for (auto &[F, W] : Local) {
    Tags[F] = W.accessTypes;
    Anything[F] = W.anything;
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[F, W] : Local)
      for (const Function *Callee : W.callees) {
        if (Anything[Callee] && !Anything[F])
          Anything[F] = Changed = true;
        for (const MDNode *Tag : Tags[Callee])
          Changed |= Tags[F].insert(Tag).second;
      }
  }
  for (auto &[F, W] : Local) {
    WriteSummary &S = summaries[F];
    S.anything = Anything[F];
    if (!S.anything)
      S.accessTypes.assign(Tags[F].begin(), Tags[F].end());
  }
}

} // namespace respec
