//===- SingleTargetCalls.cpp - Dispatch left with one target --------------===//
//
// The design is in SingleTargetCalls.h: slots (a struct type and a field's
// index path) collect their targets from the module's initializers and
// stores; a call through a slot with one target is promoted, guarded, with
// LLVM's call promotion utility (the compare, both calls, the phi of their
// results).
//
//===----------------------------------------------------------------------===//
#include "SingleTargetCalls.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/CallPromotionUtils.h"
#include <map>
#include <vector>

using namespace llvm;

namespace respec::link {
namespace {

/// A field of a struct type, by its index path below the struct.
using Slot = std::pair<StructType *, std::vector<unsigned>>;

struct SlotTargets {
  SmallSetVector<Function *, 2> functions;
  bool unknown = false; ///< something other than a function is stored there
};

/// Whether values of T can hold a pointer (only those can hold a table).
static bool holdsPointers(Type *T) {
  if (T->isPointerTy())
    return true;
  if (auto *A = dyn_cast<ArrayType>(T))
    return holdsPointers(A->getElementType());
  if (auto *S = dyn_cast<StructType>(T))
    return llvm::any_of(S->elements(), holdsPointers);
  return false;
}

class SlotTable {
public:
  explicit SlotTable(Module &M) {
    for (GlobalVariable &G : M.globals())
      if (G.hasInitializer() && holdsPointers(G.getValueType()))
        addInitializer(G.getInitializer());
    for (Function &F : M)
      for (Instruction &I : instructions(F))
        if (auto *Store = dyn_cast<StoreInst>(&I))
          addStore(*Store);
  }

  /// The slot Call's function pointer is loaded from, if it is a struct's field.
  static std::optional<Slot> slotOfCall(const CallBase &Call) {
    auto *Load = dyn_cast<LoadInst>(Call.getCalledOperand());
    return Load ? slotOf(Load->getPointerOperand()) : std::nullopt;
  }

  /// The one function that slot S may hold, or null.
  Function *singleTarget(const Slot &S) const {
    auto It = slots.find(S);
    if (It == slots.end() || It->second.unknown || It->second.functions.size() != 1)
      return nullptr;
    Function *Only = It->second.functions.front();
    for (Function *F : unplaced)
      if (F != Only && F->getFunctionType() == Only->getFunctionType())
        return nullptr;
    return Only;
  }

private:
  /// The slot Address designates: a GEP into a struct with constant indices,
  /// the first of them 0 (the object itself, not one after it).
  static std::optional<Slot> slotOf(const Value *Address) {
    auto *GEP = dyn_cast<GEPOperator>(Address); // an instruction or a constant
    if (!GEP || GEP->getNumIndices() < 2)
      return std::nullopt;
    auto *Type = dyn_cast<StructType>(GEP->getSourceElementType());
    if (!Type)
      return std::nullopt;
    std::vector<unsigned> Path;
    for (const Use &Index : GEP->indices()) {
      auto *C = dyn_cast<ConstantInt>(Index);
      if (!C || C->getValue().getActiveBits() > 32)
        return std::nullopt;
      Path.push_back(C->getZExtValue());
    }
    if (Path.front() != 0)
      return std::nullopt;
    Path.erase(Path.begin());
    return Slot{Type, std::move(Path)};
  }

  /// Records the functions at every path of every struct within C.
  void addInitializer(Constant *C) {
    if (auto *S = dyn_cast<ConstantStruct>(C)) {
      std::vector<unsigned> Path;
      addFields(S->getType(), S, Path);
    }
    if (isa<ConstantStruct>(C) || isa<ConstantArray>(C))
      for (Use &Operand : C->operands())
        if (holdsPointers(Operand->getType()))
          addInitializer(cast<Constant>(Operand));
  }

  void addFields(StructType *Outer, Constant *C, std::vector<unsigned> &Path) {
    for (unsigned I = 0, N = C->getNumOperands(); I < N; ++I) {
      auto *Field = cast<Constant>(C->getOperand(I));
      if (!holdsPointers(Field->getType()))
        continue;
      Path.push_back(I);
      if (auto *F = dyn_cast<Function>(Field->stripPointerCasts()))
        slots[{Outer, Path}].functions.insert(F);
      else if (isa<ConstantStruct>(Field) || isa<ConstantArray>(Field))
        addFields(Outer, Field, Path);
      Path.pop_back();
    }
  }

  void addStore(StoreInst &Store) {
    if (!Store.getValueOperand()->getType()->isPointerTy())
      return;
    std::optional<Slot> S = slotOf(Store.getPointerOperand());
    auto *F = dyn_cast<Function>(Store.getValueOperand()->stripPointerCasts());
    if (!S) {
      // A function stored where no slot names (field 0 of a table reached
      // without a GEP, a byte offset) may be any slot's target.
      if (F)
        unplaced.insert(F);
      return;
    }
    SlotTargets &Targets = slots[*S];
    if (F)
      Targets.functions.insert(F);
    else if (!isa<ConstantPointerNull>(Store.getValueOperand()))
      Targets.unknown = true;
  }

  std::map<Slot, SlotTargets> slots;
  SmallSetVector<Function *, 4> unplaced;
};

} // namespace

IndirectCallCounts makeSingleTargetCallsDirect(Module &M) {
  SlotTable Slots(M);
  std::vector<std::pair<CallBase *, Function *>> Promotions;
  IndirectCallCounts Counts;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || Call->getCalledFunction() || Call->isInlineAsm())
        continue;
      std::optional<Slot> S = SlotTable::slotOfCall(*Call);
      if (!S)
        continue;
      ++Counts.calls;
      // (Operand bundles, such as a KCFI type check, belong to indirect calls.)
      if (Function *Target = Slots.singleTarget(*S);
          Target && !Call->isMustTailCall() && !Call->hasOperandBundles() &&
          Call->getCallingConv() == Target->getCallingConv() &&
          isLegalToPromote(*Call, Target))
        Promotions.emplace_back(Call, Target);
    }
  // Promotion splits blocks: collected first, then done.
  for (auto [Call, Target] : Promotions)
    promoteCallWithIfThenElse(*Call, Target);
  Counts.madeDirect = Promotions.size();
  return Counts;
}

} // namespace respec::link
