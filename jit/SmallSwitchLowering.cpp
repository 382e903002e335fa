//===- SmallSwitchLowering.cpp - Switches as compare chains ---------------===//
//
// See SmallSwitchLowering.h. A switch in block B on value V with cases
// (c1, D1) ... (cn, Dn) and default D becomes
//
//   B:     if (V == c1) goto D1; else goto test2
//   test2: if (V == c2) goto D2; else goto test3
//   ...
//   testn: if (V == cn) goto Dn; else goto D
//
// Phis of the successors took one value from B (once per edge); every new
// edge into a successor brings that same value.
//
//===----------------------------------------------------------------------===//
#include "SmallSwitchLowering.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace respec {

static void lowerSwitch(SwitchInst &Switch) {
  BasicBlock *Block = Switch.getParent();
  Function *F = Block->getParent();
  Value *Condition = Switch.getCondition();

  DenseMap<PHINode *, Value *> FromBlock;
  for (BasicBlock *Successor : successors(Block))
    for (PHINode &Phi : Successor->phis())
      if (!FromBlock.count(&Phi))
        FromBlock[&Phi] = Phi.getIncomingValueForBlock(Block);
  for (auto &[Phi, Value] : FromBlock)
    while (Phi->getBasicBlockIndex(Block) >= 0)
      Phi->removeIncomingValue(Block, /*DeletePHIIfEmpty=*/false);

  SmallVector<std::pair<ConstantInt *, BasicBlock *>, SmallSwitchCases> Cases;
  for (auto &Case : Switch.cases())
    Cases.emplace_back(Case.getCaseValue(), Case.getCaseSuccessor());
  BasicBlock *Default = Switch.getDefaultDest();
  DebugLoc Location = Switch.getDebugLoc();
  Switch.eraseFromParent();

  BasicBlock *Test = Block;
  for (size_t I = 0; I < Cases.size(); ++I) {
    BasicBlock *Next = I + 1 < Cases.size()
                           ? BasicBlock::Create(F->getContext(), "", F, Test->getNextNode())
                           : Default;
    IRBuilder<> Builder(Test);
    Value *Equal = Builder.CreateICmpEQ(Condition, Cases[I].first);
    Builder.CreateCondBr(Equal, Cases[I].second, Next)->setDebugLoc(Location);
    for (BasicBlock *Successor : successors(Test))
      for (PHINode &Phi : Successor->phis())
        Phi.addIncoming(FromBlock.lookup(&Phi), Test);
    Test = Next;
  }
}

unsigned lowerSmallSwitches(Module &M) {
  SmallVector<SwitchInst *, 8> Small;
  for (Function &F : M)
    for (BasicBlock &B : F)
      if (auto *Switch = dyn_cast<SwitchInst>(B.getTerminator()))
        if (Switch->getNumCases() > 0 && Switch->getNumCases() <= SmallSwitchCases)
          Small.push_back(Switch);
  for (SwitchInst *Switch : Small)
    lowerSwitch(*Switch);
  return Small.size();
}

} // namespace respec
