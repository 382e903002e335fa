//===- Reroll.cpp - Residual loops from repeated straight-line code -------===//
//
// The search is greedy, left to right in each block: at each instruction, the
// period (1..MaxPeriod) whose repetition covers most instructions wins, and
// the scan goes on after it (in the block the rewrite splits off). Windows are
// compared pairwise, neighbour with neighbour: the first pair fixes each
// constant operand's step, the others must agree. See Reroll.h.
//
//===----------------------------------------------------------------------===//
#include "Reroll.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include <optional>
#include <utility>

using namespace llvm;

namespace respec {

namespace {

/// Longest window tried, and fewest windows worth a loop.
constexpr size_t MaxPeriod = 32;
constexpr size_t MinWindows = 4;

class BlockRerolling {
public:
  BlockRerolling(BasicBlock &BB, unsigned MinInstructions) : minInstructions(MinInstructions) {
    for (Instruction &I : BB) {
      index[&I] = insts.size();
      insts.push_back(&I);
    }
  }

  /// Rerolls the best repeated run at or after the start of the block; the
  /// block after it (to continue with), or null when there is none.
  BasicBlock *rerollFirst(unsigned &Loops) {
    for (size_t Start = 0; Start < insts.size(); ++Start) {
      Run Best;
      for (size_t P = 1; P <= MaxPeriod && Start + MinWindows * P <= insts.size(); ++P) {
        Run R = repetitions(Start, P);
        if (R.windows >= MinWindows && R.covered() >= minInstructions &&
            R.covered() > Best.covered())
          Best = std::move(R);
      }
      if (Best.windows) {
        ++Loops;
        return rewrite(Best);
      }
    }
    return nullptr;
  }

private:
  unsigned minInstructions;
  std::vector<Instruction *> insts;
  DenseMap<const Instruction *, size_t> index;
  /// What an operand of a window's instruction is, the same in every window.
  struct Operand {
    enum Kind { Same, Step, Intra, Carried } kind = Same;
    APInt step;      ///< Step: constant operands move by it
    size_t from = 0; ///< Intra, Carried: position in its own / the previous window
  };
  /// Per window position and operand, fixed by the run's first pair.
  std::vector<std::vector<Operand>> operands;

  /// Windows repeating from start: `windows` iterations, the last of which is
  /// `tail` when there is one (per position its instruction, or null where it
  /// left out a pure instruction that the loop's last iteration will compute
  /// unused), otherwise a full window.
  struct Run {
    size_t start = 0, period = 0, windows = 0;
    std::vector<Instruction *> tail;
    size_t covered() const {
      if (tail.empty())
        return windows * period;
      return (windows - 1) * period + llvm::count_if(tail, [](auto *I) { return I; });
    }
  };

  static bool eligible(const Instruction &I) {
    return !I.isTerminator() && !isa<PHINode>(I) && !isa<AllocaInst>(I) && !I.isEHPad() &&
           !I.getType()->isTokenTy();
  }

  /// The body runs the first window's instructions in every iteration: their
  /// flags (nsw, inbounds, ...) and metadata (TBAA, ranges) must be each
  /// window's own.
  static bool sameAnnotations(const Instruction &I, const Instruction &J) {
    if (I.getRawSubclassOptionalData() != J.getRawSubclassOptionalData())
      return false;
    SmallVector<std::pair<unsigned, MDNode *>, 4> OfI, OfJ;
    I.getAllMetadataOtherThanDebugLoc(OfI);
    J.getAllMetadataOtherThanDebugLoc(OfJ);
    return OfI == OfJ;
  }

  /// Whether a constant operand of I may take a different value per iteration.
  static bool mayVary(const Instruction &I, unsigned Operand) {
    if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
      if (Operand == 0)
        return true;
      gep_type_iterator It = gep_type_begin(GEP);
      std::advance(It, Operand - 1);
      return !It.isStruct();
    }
    if (auto *Call = dyn_cast<CallBase>(&I))
      return Call->isArgOperand(&Call->getOperandUse(Operand)) &&
             !Call->paramHasAttr(Call->getArgOperandNo(&Call->getOperandUse(Operand)),
                                 Attribute::ImmArg);
    return !isa<SwitchInst>(I) && !isa<ShuffleVectorInst>(I);
  }

  /// Whether the window at B repeats the window at A (both of Period
  /// instructions, the run starting at Start); Record: the first pair, which
  /// fixes what each operand is.
  bool repeats(size_t Start, size_t A, size_t B, size_t Period, bool Record) {
    if (Record)
      operands.assign(Period, {});
    ArrayRef<Instruction *> WindowB = ArrayRef(insts).slice(B, Period);
    for (size_t R = 0; R < Period; ++R)
      if (!repeatsAt(Start, A, R, Period, *insts[B + R], WindowB, Record))
        return false;
    return true;
  }

  /// Whether J repeats position R of the window at A, in a window whose
  /// instruction at each position is WindowB[position] (null if left out).
  bool repeatsAt(size_t Start, size_t A, size_t R, size_t Period, Instruction &J,
                 ArrayRef<Instruction *> WindowB, bool Record) {
    auto Position = [&](Value *V, size_t Window) -> std::optional<size_t> {
      auto *I = dyn_cast<Instruction>(V);
      if (!I || I->getParent() != insts[Start]->getParent())
        return std::nullopt;
      size_t At = index.lookup(I);
      if (At < Window || At >= Window + Period)
        return std::nullopt;
      return At - Window;
    };
    auto DefinedBefore = [&](Value *V) {
      auto *I = dyn_cast<Instruction>(V);
      return !I || I->getParent() != insts[Start]->getParent() || index.lookup(I) < Start;
    };
    Instruction &I = *insts[A + R];
    if (!eligible(I) || !eligible(J) || !I.isSameOperationAs(&J) ||
        I.getNumOperands() != J.getNumOperands() || !sameAnnotations(I, J))
      return false;
    if (Record)
      operands[R].assign(I.getNumOperands(), Operand());
    for (unsigned O = 0; O < I.getNumOperands(); ++O) {
      Value *U = I.getOperand(O), *V = J.getOperand(O);
      Operand &Op = operands[R][O];
      if (Record) {
        auto *CU = dyn_cast<ConstantInt>(U), *CV = dyn_cast<ConstantInt>(V);
        if (auto At = Position(U, A)) {
          Op = {Operand::Intra, APInt(), *At};
        } else if (auto From = Position(V, A); From && DefinedBefore(U)) {
          Op = {Operand::Carried, APInt(), *From};
        } else if (CU && CV && CU->getType() == CV->getType()) {
          APInt Step = CV->getValue() - CU->getValue();
          if (!Step.isZero() && !mayVary(I, O))
            return false;
          Op = {Operand::Step, Step, 0};
        } else if (U == V && DefinedBefore(U)) {
          Op = {Operand::Same, APInt(), 0};
        } else {
          return false;
        }
      }
      switch (Op.kind) {
      case Operand::Intra: // the same position in its own window
        if (U != insts[A + Op.from] || V != WindowB[Op.from])
          return false;
        break;
      case Operand::Carried: // the previous window's value at a position
        if (V != insts[A + Op.from] || (A != Start && U != insts[A - Period + Op.from]))
          return false;
        break;
      case Operand::Step: {
        auto *CU = dyn_cast<ConstantInt>(U), *CV = dyn_cast<ConstantInt>(V);
        if (!CU || !CV || CU->getType() != CV->getType() ||
            CV->getValue() - CU->getValue() != Op.step)
          return false;
        break;
      }
      case Operand::Same:
        if (U != V)
          return false;
        break;
      }
    }
    return true;
  }

  /// Whether the loop may run I where the straight code did not: in the last
  /// iteration, for a value nothing uses. isSafeToSpeculativelyExecute judges
  /// I with the first window's operands (a divisor it sees is not zero, an
  /// address it sees is dereferenceable); the extra iteration runs it with
  /// stepped constants and carried values, which may be poison: so no memory
  /// access, no division, and no call but to an intrinsic whose operands and
  /// result may be poison (noundef would make poison undefined behaviour).
  static bool mayRunUnused(const Instruction &I) {
    if (I.mayReadOrWriteMemory() || I.isIntDivRem() || !isSafeToSpeculativelyExecute(&I))
      return false;
    auto *Call = dyn_cast<CallBase>(&I);
    return !Call || (isa<IntrinsicInst>(Call) &&
                     !Call->getAttributes().hasAttrSomewhere(Attribute::NoUndef));
  }

  /// The window after N full ones at Start when it repeats the last of them
  /// with some instructions left out that the loop may run unused (the
  /// straight code's last element skips the next element's address
  /// computation, say); empty if there is none.
  std::vector<Instruction *> tail(size_t Start, size_t Period, size_t N) {
    size_t Previous = Start + (N - 1) * Period, Next = Start + N * Period, Matched = 0;
    std::vector<Instruction *> Window(Period);
    for (size_t R = 0; R < Period; ++R) {
      if (Next + Matched < insts.size() &&
          repeatsAt(Start, Previous, R, Period, *insts[Next + Matched], Window, false))
        Window[R] = insts[Next + Matched++];
      else if (!mayRunUnused(*insts[Start + R]))
        return {};
    }
    return Matched ? Window : std::vector<Instruction *>();
  }

  /// Windows of Period instructions repeating from Start, cut where a window
  /// other than the last is used outside itself; and a tail (see above).
  Run repetitions(size_t Start, size_t Period) {
    Run Found{Start, Period, 0, {}};
    if (!repeats(Start, Start, Start + Period, Period, true))
      return Found;
    size_t N = 2;
    while (Start + (N + 1) * Period <= insts.size() &&
           repeats(Start, Start + (N - 1) * Period, Start + N * Period, Period, false))
      ++N;
    // Whether window K is used outside [its start, End): it may be used only
    // by itself and by the next window (a carried operand, checked above).
    auto UsedOutside = [&](size_t K, size_t End) {
      for (size_t R = 0; R < Period; ++R)
        for (const User *U : insts[Start + K * Period + R]->users()) {
          auto *UI = dyn_cast<Instruction>(U);
          size_t At = UI && UI->getParent() == insts[Start]->getParent() && !isa<PHINode>(UI)
                          ? index.lookup(UI)
                          : SIZE_MAX;
          if (At < Start + K * Period || At >= End)
            return true;
        }
      return false;
    };
    for (size_t K = 0; K + 1 < N; ++K)
      if (UsedOutside(K, Start + (K + 2) * Period)) {
        if (K + 1 >= MinWindows)
          Found.windows = K + 1;
        return Found;
      }
    Found.windows = N;
    std::vector<Instruction *> Tail = tail(Start, Period, N);
    size_t TailLength = llvm::count_if(Tail, [](auto *I) { return I; });
    // (A tail counts no window of its own towards MinWindows.)
    if (TailLength && N >= MinWindows && !UsedOutside(N - 1, Start + N * Period + TailLength))
      Found.windows = N + 1, Found.tail = std::move(Tail);
    return Found;
  }

  BasicBlock *rewrite(const Run &Run) {
    size_t Start = Run.start, Period = Run.period, End = Start + Run.covered();
    repeats(Start, Start, Start + Period, Period, true); // this run's operands
    Instruction *First = insts[Start], *After = insts[End];
    BasicBlock *Before = First->getParent();
    BasicBlock *Body = Before->splitBasicBlock(First, "respec.reroll");
    BasicBlock *Exit = Body->splitBasicBlock(After, "respec.reroll.exit");

    // The first window is the body; constants become c0 + k * step, carried
    // operands phis of the previous iteration's value.
    IRBuilder<> B(Body, Body->begin());
    PHINode *K = B.CreatePHI(B.getInt64Ty(), 2, "respec.k");
    std::vector<std::pair<PHINode *, Instruction *>> Carried;
    for (size_t R = 0; R < Period; ++R) {
      Instruction *I = insts[Start + R];
      for (unsigned O = 0; O < I->getNumOperands(); ++O) {
        const Operand &Op = operands[R][O];
        if (Op.kind == Operand::Carried) {
          B.SetInsertPoint(Body, Body->getFirstInsertionPt());
          PHINode *Phi = B.CreatePHI(I->getOperand(O)->getType(), 2);
          Phi->addIncoming(I->getOperand(O), Before);
          Carried.emplace_back(Phi, insts[Start + Op.from]);
          I->setOperand(O, Phi);
        } else if (Op.kind == Operand::Step && !Op.step.isZero()) {
          auto *C = cast<ConstantInt>(I->getOperand(O));
          B.SetInsertPoint(I);
          Value *Iteration = B.CreateZExtOrTrunc(K, C->getType());
          I->setOperand(O, B.CreateAdd(C, B.CreateMul(Iteration, B.getInt(Op.step))));
        }
      }
    }
    // After the loop, the last window's values are the body's; but those the
    // code after it needs that are pure functions of invariants and constants
    // (addresses, mostly) move after the loop instead, so that no value of
    // the body is live after it (the loop vectorizer gives up on such values).
    size_t LastStart = Start + (Run.windows - 1) * Period;
    std::vector<Instruction *> Last = Run.tail;
    if (Last.empty())
      Last.assign(insts.begin() + LastStart, insts.begin() + LastStart + Period);
    std::vector<bool> Movable(Period), Moved(Period);
    for (size_t R = 0; R < Period; ++R)
      Movable[R] = Last[R] && !Last[R]->mayReadOrWriteMemory() &&
                   !Last[R]->mayHaveSideEffects() &&
                   llvm::all_of(operands[R], [&](const Operand &Op) {
                     return Op.kind != Operand::Carried &&
                            (Op.kind != Operand::Intra || Movable[Op.from]);
                   });
    for (size_t R = Period; R-- > 0;) {
      Moved[R] = Moved[R] || (Movable[R] && llvm::any_of(Last[R]->users(), [&](User *U) {
                                return cast<Instruction>(U)->getParent() != Body;
                              }));
      if (Moved[R])
        for (const Operand &Op : operands[R])
          if (Op.kind == Operand::Intra)
            Moved[Op.from] = true;
    }
    SmallPtrSet<Instruction *, 8> Kept;
    Instruction *AfterLoop = &*Exit->getFirstInsertionPt();
    for (size_t R = 0; R < Period; ++R)
      if (Moved[R])
        Last[R]->moveBefore(AfterLoop), Kept.insert(Last[R]);
      else if (Last[R])
        Last[R]->replaceAllUsesWith(insts[Start + R]);
    for (size_t At = Start + Period; At < End; ++At)
      if (!Kept.contains(insts[At]))
        insts[At]->dropAllReferences();
    for (size_t At = End; At-- > Start + Period;)
      if (!Kept.contains(insts[At]))
        insts[At]->eraseFromParent();

    Body->getTerminator()->eraseFromParent();
    B.SetInsertPoint(Body);
    Value *Next = B.CreateAdd(K, B.getInt64(1), "respec.k.next", /*HasNUW=*/true);
    B.CreateCondBr(B.CreateICmpULT(Next, B.getInt64(Run.windows)), Body, Exit);
    K->addIncoming(B.getInt64(0), Before);
    K->addIncoming(Next, Body);
    for (auto [Phi, Value] : Carried)
      Phi->addIncoming(Value, Body);
    return Exit;
  }
};

} // namespace

unsigned rerollRepeatedCode(Function &F, unsigned MinInstructions) {
  unsigned Loops = 0;
  if (MinInstructions == 0)
    return 0;
  std::vector<BasicBlock *> Pending;
  for (BasicBlock &BB : F)
    if (BB.size() >= MinInstructions)
      Pending.push_back(&BB);
  while (!Pending.empty()) {
    BasicBlock *BB = Pending.back();
    Pending.pop_back();
    if (BasicBlock *Rest = BlockRerolling(*BB, MinInstructions).rerollFirst(Loops))
      if (Rest->size() >= MinInstructions)
        Pending.push_back(Rest);
  }
  return Loops;
}

} // namespace respec
