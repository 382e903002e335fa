//===- Residual.cpp - The residual function ---------------------------------===//
//
// After the worklist is empty: dead residual blocks are dropped, the phis of
// values arriving from other residual blocks are wired, straight-line chains
// are merged, and the statistics of the blocks that remain are summed.
//
//===----------------------------------------------------------------------===//
#include "SpecializerInternals.h"
#include "Diagnostics.h"
#include "llvm/IR/CFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace respec {
namespace detail {

//===-- Finishing --------------------------------------------------------===//

void Specializer::finalize() {
  std::map<BasicBlock *, SpecBlock *> ByResidual;
  for (auto &[Key, SB] : blocks)
    ByResidual[SB->residual] = SB.get();

  // Dead blocks (all their predecessors were re-specialized away) go first.
  std::vector<BasicBlock *> Dead;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock &BB : *residual)
      if (&BB != residualEntry && pred_empty(&BB) &&
          std::find(Dead.begin(), Dead.end(), &BB) == Dead.end()) {
        Dead.push_back(&BB);
        // Its successors lose a predecessor; detach so the scan sees it.
        if (Instruction *T = BB.getTerminator())
          T->eraseFromParent();
        Changed = true;
      }
  }
  for (BasicBlock *BB : Dead) {
    SpecBlock *SB = ByResidual[BB];
    for (PhiSlot &P : SB->phis)
      P.phi->replaceAllUsesWith(PoisonValue::get(P.phi->getType()));
    SB->residual = nullptr;
    SB->phis.clear();
    BB->dropAllReferences();
  }
  for (BasicBlock *BB : Dead)
    BB->eraseFromParent();

  for (auto &[Key, SB] : blocks) {
    if (!SB->residual)
      continue;
    for (PhiSlot &P : SB->phis) {
      // A switch with several cases to this block is one predecessor per
      // edge: every edge from it must bring one and the same value.
      DenseMap<BasicBlock *, Value *> FromPredecessor;
      for (BasicBlock *Pred : predecessors(SB->residual)) {
        if (Value *Known = FromPredecessor.lookup(Pred)) {
          P.phi->addIncoming(Known, Pred);
          continue;
        }
        SpecBlock *From = ByResidual.at(Pred);
        auto Edge = llvm::find_if(From->outEdges,
                                  [&](const OutEdge &E) { return E.target == SB.get(); });
        assert(Edge != From->outEdges.end() && "residual edge without a recorded state");
        const auto &Env = Edge->values[P.frame];
        auto It = Env.find(P.original);
        if (It == Env.end())
          throw SpecError("", "internal error: value missing on a residual edge");
        builder.emplace(Pred->getTerminator());
        Value *Incoming = materialize(It->second, P.phi->getType(), false);
        FromPredecessor[Pred] = Incoming;
        P.phi->addIncoming(Incoming, Pred);
      }
    }
  }
  keepLibraryResultsExact(); // LibraryCalls.cpp
}

/// Every (block, context) pair has a residual block of its own, so residual
/// code comes as chains of blocks joined by unconditional branches (a call
/// unfolded, a branch folded) with single-entry phis. Folding the chains here
/// is linear and leaves the cleanup passes about a third of the blocks (126 -> 47
/// for a libpcap `tcp port 80` filter).
void Specializer::mergeStraightLineBlocks() {
  for (BasicBlock &BB : make_early_inc_range(*residual))
    MergeBlockIntoPredecessor(&BB);
}

SpecializationResult Specializer::collectResult() {
  SpecializationResult R;
  R.residual = residual;
  collectHostStatic(R);
  R.factsRelied = factsRelied;
  std::set<const Function *> Reached;
  for (auto &[Key, SB] : blocks) {
    if (!SB->residual)
      continue;
    const SpecializeStats &S = SB->stats;
    R.stats.instructionsEvaluated += S.instructionsEvaluated;
    R.stats.instructionsResidual += S.instructionsResidual;
    R.stats.branchesFolded += S.branchesFolded;
    R.stats.callsUnfolded += S.callsUnfolded;
    R.stats.indirectCallsDevirtualized += S.indirectCallsDevirtualized;
    R.stats.callEffectsAnalyzed += S.callEffectsAnalyzed;
    R.stats.edgesRefined += S.edgesRefined;
    R.stats.blocksSpecialized += S.blocksSpecialized;
    for (auto [I, Residual] : SB->bindingTimes) {
      BindingTime &BT = R.bindingTimes[I];
      (Residual ? BT.residual : BT.evaluated) += 1;
      Reached.insert(I->getFunction());
    }
  }
  for (const Function *F : Reached)
    R.stats.instructionsBefore += F->getInstructionCount();
  for (auto &[Key, Count] : iterationCounts)
    R.stats.loopIterationsUnrolled += Count;
  for (auto &[Site, Mode] : loopModes)
    switch (Mode) {
    case LoopMode::KeyedOnProgramData: ++R.stats.loopsKeyedOnProgramData; break;
    case LoopMode::KeyedOnLiveState: ++R.stats.loopsKeyedOnLiveState; break;
    default: ++R.stats.loopsKeptResidual; break;
    }
  R.stats.budgetHits = budgetHits;
  R.stats.restarts = restarts;
  R.stats.work = totalWork + attemptWork;
  R.notes = generalizations;
  R.notes.insert(R.notes.end(), notes.begin(), notes.end());
  R.assumptions = collectAssumptions();
  R.externalFacts = collectExternalFacts();
  return R;
}

/// Every respec_assume() the live residual code went through, with the source
/// lines whose values its fact decided.
std::vector<Assumption> Specializer::collectAssumptions() const {
  auto Line = [](const DebugLoc &L) {
    return std::make_pair(L ? L->getFilename().str() : std::string(), L ? L.getLine() : 0u);
  };
  std::map<const Instruction *, std::map<std::pair<std::string, unsigned>, DebugLoc>> Uses;
  std::vector<std::pair<const Instruction *, const Instruction *>> Merges;
  for (auto &[Key, SB] : blocks) {
    if (!SB->residual)
      continue;
    for (const Instruction *A : SB->assumptions)
      Uses[A];
    for (auto [A, User] : SB->factUses)
      if (User->getDebugLoc())
        Uses[A].emplace(Line(User->getDebugLoc()), User->getDebugLoc());
    Merges.insert(Merges.end(), SB->factMerges.begin(), SB->factMerges.end());
  }
  // A fact merged into an earlier one about the same cell decides for both.
  for (unsigned Round = 0; Round < Merges.size(); ++Round)
    for (auto [Later, Earlier] : Merges) {
      auto &Into = Uses[Earlier];
      for (auto &Use : Uses[Later])
        Into.insert(Use);
    }
  std::vector<Assumption> Out;
  for (auto &[A, Lines] : Uses) {
    Assumption Entry{A->getDebugLoc(), {}};
    for (auto &[L, Loc] : Lines)
      Entry.usedAt.push_back(Loc);
    Out.push_back(std::move(Entry));
  }
  llvm::sort(Out, [&](const Assumption &X, const Assumption &Y) {
    return std::make_tuple(Line(X.loc), X.loc ? X.loc.getCol() : 0u) <
           std::make_tuple(Line(Y.loc), Y.loc ? Y.loc.getCol() : 0u);
  });
  return Out;
}


} // namespace detail
} // namespace respec
