//===- FunctionInfo.cpp - Canonical shape and analyses per function -------===//
#include "FunctionInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/ADT/PostOrderIterator.h"
#include <set>

using namespace llvm;

namespace respec {

bool ModuleInfo::isUnfoldableCallSite(const CallBase &Call) {
  if (Call.isInlineAsm() || isa<IntrinsicInst>(Call))
    return false;
  const Function *Callee = Call.getCalledFunction();
  return !Callee || !Callee->isDeclaration();
}

static void promoteScalars(Function &F) {
  DominatorTree DT(F);
  std::vector<AllocaInst *> Promotable;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && isAllocaPromotable(AI))
      Promotable.push_back(AI);
  if (!Promotable.empty())
    PromoteMemToReg(Promotable, DT);
}

static void splitAfterUnfoldableCalls(Function &F) {
  std::vector<Instruction *> SplitPoints;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I); Call && isa<CallInst>(Call) &&
                                             ModuleInfo::isUnfoldableCallSite(*Call))
      SplitPoints.push_back(Call->getNextNode());
  for (Instruction *At : SplitPoints)
    SplitBlock(At->getParent(), At);
}

static void findNotUnfoldable(Function &F, FunctionInfo &Info) {
  auto Reject = [&](const char *Why, const Instruction *I) {
    if (Info.notUnfoldableReason.empty()) {
      Info.notUnfoldableReason = Why;
      if (I)
        Info.notUnfoldableLoc = I->getDebugLoc();
    }
  };
  bool VaList = hasModeledVaList(*F.getParent());
  if (F.isVarArg() && !VaList)
    Reject("variadic function (respec models va_list on x86-64 System V only)", nullptr);
  for (Instruction &I : instructions(F)) {
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      if (Call->hasFnAttr(Attribute::ReturnsTwice) ||
          (Call->getCalledFunction() &&
           Call->getCalledFunction()->hasFnAttribute(Attribute::ReturnsTwice)))
        Reject("calls setjmp (returns twice)", &I);
      if (isa<CallBrInst>(I))
        Reject("asm goto", &I);
      if (isa<InvokeInst>(I))
        Reject("exception handling (invoke)", &I);
    }
    if (isa<IndirectBrInst>(I))
      Reject("computed goto (indirectbr)", &I);
    if (isa<VAArgInst>(I) && !VaList)
      Reject("va_arg (respec models va_list on x86-64 System V only)", &I);
  }
}

/// Live-in sets by the classic backward dataflow over SSA.
static void computeLiveness(Function &F, FunctionInfo &Info) {
  DenseMap<const Value *, unsigned> Number;
  for (Argument &A : F.args())
    Number[&A] = Number.size();
  for (Instruction &I : instructions(F))
    Number[&I] = Number.size();
  auto Tracked = [](const Value *V) { return isa<Instruction>(V) || isa<Argument>(V); };

  DenseMap<const BasicBlock *, std::set<Value *>> LiveIn;
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (BasicBlock *BB : post_order(&F)) {
      std::set<Value *> Live;
      for (BasicBlock *Succ : successors(BB)) {
        for (Value *V : LiveIn[Succ])
          if (!(isa<PHINode>(V) && cast<PHINode>(V)->getParent() == Succ))
            Live.insert(V);
        for (PHINode &Phi : Succ->phis()) {
          Value *In = Phi.getIncomingValueForBlock(BB);
          if (Tracked(In))
            Live.insert(In);
        }
      }
      for (Instruction &I : llvm::reverse(*BB)) {
        Live.erase(&I);
        if (isa<PHINode>(I))
          continue;
        for (Value *Op : I.operands())
          if (Tracked(Op))
            Live.insert(Op);
      }
      for (PHINode &Phi : BB->phis())
        Live.insert(&Phi);
      if (Live != LiveIn[BB]) {
        LiveIn[BB] = std::move(Live);
        Changed = true;
      }
    }
  }
  for (auto &[BB, Set] : LiveIn) {
    std::vector<Value *> Ordered(Set.begin(), Set.end());
    llvm::sort(Ordered, [&](Value *A, Value *B) { return Number[A] < Number[B]; });
    Info.liveIn[BB] = std::move(Ordered);
  }
}

ModuleInfo::ModuleInfo(Module &M) {
  externalFacts = ExternalFacts(M);
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    promoteScalars(F);
    splitAfterUnfoldableCalls(F);
    auto Info = std::make_unique<FunctionInfo>();
    Info->function = &F;
    unsigned Index = 0;
    for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
      Info->rpoIndex[BB] = Index++;
    Info->domTree = std::make_unique<DominatorTree>(F);
    Info->loops = std::make_unique<LoopInfo>(*Info->domTree);
    computeLiveness(F, *Info);
    findNotUnfoldable(F, *Info);
    infos[&F] = std::move(Info);
  }
  writeSummaries = std::make_unique<WriteSummaries>(M, externalFacts);
  libraryImpl = std::make_unique<TargetLibraryInfoImpl>(Triple(M.getTargetTriple()));
  library = std::make_unique<TargetLibraryInfo>(*libraryImpl);
}

} // namespace respec
