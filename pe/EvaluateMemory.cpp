//===- EvaluateMemory.cpp - Loads, stores and facts on partially-static memory ---===//
//
// Stack slots, loads, stores, memcpy/memset and the two spec builtins that
// state facts about memory (respec_assume, respec_static_memory), evaluated on
// the MemoryState. Every write keeps the escape rule (MemoryState.h): a pointer
// that leaves precisely tracked memory marks its object escaped.
//
//===----------------------------------------------------------------------===//
#include "SpecializerInternals.h"
#include "Diagnostics.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace respec {
namespace detail {

ObjectId Specializer::stackObject(const Instruction *Site, unsigned Key, Type *Ty,
                                  ConstantInt *Count, Align Alignment) {
  ObjectId Existing = objects.lookupStackSlot(Site, Key, current->context);
  if (Existing != ~0u)
    return Existing;
  IRBuilder<> EntryBuilder(residualEntry, residualEntry->getFirstInsertionPt());
  AllocaInst *Slot = EntryBuilder.CreateAlloca(Ty, Count, Site->getName());
  Slot->setAlignment(Alignment);
  uint64_t Bytes = layout.getTypeAllocSize(Ty) * Count->getZExtValue();
  return objects.forStackSlot(Site, Key, current->context, Slot, Bytes);
}

void Specializer::evaluateAlloca(AllocaInst &I) {
  auto *Size = dyn_cast<ConstantInt>(I.getArraySize());
  if (!Size || !I.isStaticAlloca()) {
    // Variable-length arrays stay residual and are treated as unknown memory.
    std::vector<AbstractValue> Ops = {valueOf(I.getArraySize())};
    emitResidual(I, Ops);
    note(I, "variable-size stack allocation kept residual");
    return;
  }
  ObjectId Slot = stackObject(&I, 0, I.getAllocatedType(), Size, I.getAlign());
  // A fresh activation: nothing is known about its contents yet.
  state.memory.allocate(Slot);
  ++current->stats.instructionsEvaluated;
  recordBindingTime(I, false);
  setValue(I, AbstractValue::pointer(Slot, 0));
}

std::optional<AbstractValue> Specializer::loadFromCells(const ObjectState &Obj,
                                                        int64_t Off, Type *Ty) {
  uint64_t Size = storeSize(Ty);
  auto It = Obj.cells.upper_bound(Off);
  if (It == Obj.cells.begin())
    return std::nullopt;
  --It;
  const Cell &C = It->second;
  int64_t Start = It->first;
  if (Off + int64_t(Size) > Start + int64_t(C.size))
    return std::nullopt;
  if (Start == Off && C.size == Size && !C.value.isDynamic()) {
    if (C.value.refersToObject())
      return Ty->isPointerTy() ? std::optional(C.value) : std::nullopt;
    if (C.value.constant->getType() == Ty)
      return C.value;
  }
  if (C.value.kind != AbstractValue::Constant)
    return std::nullopt;
  if (Constant *Folded = ConstantFoldLoadFromConst(
          C.value.constant, Ty, APInt(64, Off - Start), layout)) {
    AbstractValue R = fromConstant(Folded);
    R.origin = C.value.origin;
    return R;
  }
  return std::nullopt;
}

void Specializer::evaluateLoad(LoadInst &I) {
  AbstractValue Addr = valueOf(I.getPointerOperand());
  auto Evaluated = [&](AbstractValue V) {
    ++current->stats.instructionsEvaluated;
    recordBindingTime(I, false);
    setValue(I, V);
  };
  if (!I.isVolatile() && I.isUnordered()) {
    if (Addr.kind == AbstractValue::ObjectPointer) {
      const ObjectTable::Object &Obj = objects.get(Addr.object);
      if (objects.isStaticRange(Addr.object, Addr.offset, storeSize(I.getType())))
        if (Constant *C = ConstantFoldLoadFromConst(Obj.contents, I.getType(),
                                                    APInt(64, Addr.offset), layout)) {
          AbstractValue Loaded = fromConstant(C);
          Loaded.programData = true;
          return Evaluated(Loaded);
        }
      auto It = state.memory.objects.find(Addr.object);
      if (It != state.memory.objects.end())
        if (auto V = loadFromCells(It->second, Addr.offset, I.getType()))
          return Evaluated(*V);
    } else if (Addr.isDynamic() && Addr.dynamicRoot) {
      auto It = state.memory.dynamicBases.find(Addr.dynamicRoot);
      if (It != state.memory.dynamicBases.end())
        if (auto V = loadFromCells(It->second, Addr.dynamicRootOffset, I.getType()))
          return Evaluated(*V);
    }
  }
  // A pointer in the loaded bytes that is not forwarded as the pointer its cell
  // records (read as an integer, in part, or from an unknown offset) escapes.
  if (Addr.kind == AbstractValue::ObjectPointer)
    state.memory.escapeContents(Addr.object, Addr.offset, storeSize(I.getType()));
  else if (Addr.kind == AbstractValue::ObjectPointerDyn)
    state.memory.escapeContents(Addr.object);
  std::vector<AbstractValue> Ops = {Addr};
  emitResidual(I, Ops, /*OperandsEscape=*/false);
  if (!I.isUnordered())
    state.memory.writeUnknown(nullptr); // acquire: others' writes become visible
}

void Specializer::recordWrite(const AbstractValue &Addr, uint64_t Size,
                              std::optional<Cell> Written, const MDNode *AccessType) {
  MemoryState &Mem = state.memory;
  switch (Addr.kind) {
  case AbstractValue::ObjectPointer:
    return Mem.writeObject(Addr.object, Addr.offset, Size, Written, AccessType);
  case AbstractValue::ObjectPointerDyn:
    if (Written)
      Mem.escapeValue(Written->value);
    return Mem.writeSomewhereIn(Addr.object, AccessType);
  case AbstractValue::Constant:
  case AbstractValue::Dynamic:
    if (Addr.isDynamic() && Addr.dynamicRoot)
      return Mem.writeBehindRoot(Addr.dynamicRoot, Addr.dynamicRootOffset, Size, Written,
                                 AccessType);
    if (Written)
      Mem.escapeValue(Written->value);
    return Mem.writeUnknown(AccessType);
  }
}

void Specializer::evaluateStore(StoreInst &I) {
  AbstractValue Val = valueOf(I.getValueOperand());
  AbstractValue Addr = valueOf(I.getPointerOperand());
  uint64_t Size = storeSize(I.getValueOperand()->getType());
  std::optional<Cell> Written;
  if (!I.isVolatile() && Val.isStatic())
    Written = Cell{Size, Val};
  // A pointer stays precisely known only in a recorded cell of a private
  // object; anywhere else it escapes (MemoryState.h).
  bool Recorded = Written && Addr.kind == AbstractValue::ObjectPointer &&
                  state.memory.isPrivate(Addr.object);
  Instruction *R = I.clone();
  R->setOperand(0, materialize(Val, I.getValueOperand()->getType(), !Recorded));
  R->setOperand(1, materialize(Addr, nullptr, false));
  builder->Insert(R);
  R->setDebugLoc(I.getDebugLoc());
  ++current->stats.instructionsResidual;
  recordBindingTime(I, true);
  if (Addr.kind == AbstractValue::ObjectPointer && !objects.get(Addr.object).isStack() &&
      objects.isStaticRange(Addr.object, Addr.offset, Size))
    note(I, "store to memory declared static: the specialized code assumes it does not change");
  recordWrite(Addr, Size, Written, I.getMetadata(LLVMContext::MD_tbaa));
  if (!I.isUnordered())
    state.memory.writeUnknown(nullptr);
}

void Specializer::evaluateAssume(CallBase &I) {
  recordBindingTime(I, false);
  AbstractValue Cond = valueOf(I.getArgOperand(0));
  if (Cond.kind == AbstractValue::Constant) {
    if (Cond.constant->isZeroValue())
      throw SpecError(I.getDebugLoc(),
                      "contradiction: this respec_assume() predicate is always false here");
    return;
  }
  // Peel the C front end's `!!(x)` and zero-extensions down to a comparison.
  Value *V = I.getArgOperand(0);
  bool Positive = true;
  for (;;) {
    auto *Not = dyn_cast<BinaryOperator>(V);
    if (Not && Not->getOpcode() == Instruction::Xor && isa<ConstantInt>(Not->getOperand(1)) &&
        cast<ConstantInt>(Not->getOperand(1))->isOne() && Not->getType()->isIntegerTy(1)) {
      Positive = !Positive;
      V = Not->getOperand(0);
    } else if (auto *Ext = dyn_cast<ZExtInst>(V)) {
      V = Ext->getOperand(0);
    } else if (auto *Cmp = dyn_cast<ICmpInst>(V);
               Cmp && Cmp->isEquality() && isa<ConstantInt>(Cmp->getOperand(1)) &&
               cast<ConstantInt>(Cmp->getOperand(1))->isZero() &&
               Cmp->getOperand(0)->getType()->getScalarSizeInBits() > 1 &&
               isa<ZExtInst>(Cmp->getOperand(0))) {
      if (Cmp->getPredicate() == CmpInst::ICMP_EQ)
        Positive = !Positive;
      V = Cmp->getOperand(0);
    } else {
      break;
    }
  }
  auto *Cmp = dyn_cast<ICmpInst>(V);
  bool IsEquality = Cmp && (Cmp->getPredicate() == CmpInst::ICMP_EQ) == Positive &&
                    Cmp->isEquality();
  Value *Subject = nullptr;
  AbstractValue Known;
  if (IsEquality) {
    AbstractValue L = valueOf(Cmp->getOperand(0)), R = valueOf(Cmp->getOperand(1));
    if (R.isStatic() && !L.isStatic())
      Subject = Cmp->getOperand(0), Known = R;
    else if (L.isStatic() && !R.isStatic())
      Subject = Cmp->getOperand(1), Known = L;
  }
  if (!Subject)
    throw SpecError(I.getDebugLoc(),
                    "respec_assume() cannot use this predicate: write one "
                    "`expression == constant` per respec_assume() (conjunctions as "
                    "separate calls)");
  // The compared SSA value is static from here on ...
  state.top().env[Subject] = Known;
  // ... and so is the memory cell it was loaded from.
  if (auto *Load = dyn_cast<LoadInst>(Subject)) {
    AbstractValue Addr = valueOf(Load->getPointerOperand());
    Cell Fact;
    Fact.size = storeSize(Load->getType());
    Fact.value = Known;
    Fact.pinned = true;
    Fact.accessType = Load->getMetadata(LLVMContext::MD_tbaa);
    if (Addr.kind == AbstractValue::ObjectPointer) {
      state.memory.recordFact(state.memory.object(Addr.object), Addr.offset, Fact);
    } else if (Addr.isDynamic() && (Addr.dynamicRoot || Addr.residual)) {
      Value *Root = Addr.dynamicRoot ? Addr.dynamicRoot : Addr.residual;
      state.memory.recordFact(state.memory.dynamicBases[Root], Addr.dynamicRootOffset, Fact);
    } else {
      throw SpecError(I.getDebugLoc(), "respec_assume(): the memory this predicate "
                                       "reads is not reachable by a known pointer");
    }
  }
}

void Specializer::evaluateStaticMemory(CallBase &I) {
  recordBindingTime(I, false);
  AbstractValue Ptr = valueOf(I.getArgOperand(0));
  AbstractValue Size = valueOf(I.getArgOperand(1));
  auto *Bytes = Size.kind == AbstractValue::Constant ? dyn_cast<ConstantInt>(Size.constant)
                                                      : nullptr;
  if (Ptr.kind != AbstractValue::ObjectPointer || !objects.get(Ptr.object).global || !Bytes ||
      !objects.get(Ptr.object).contents)
    throw SpecError(I.getDebugLoc(),
                    "respec_static_memory() needs the address of a global with a known "
                    "initializer and a constant size");
  ObjectTable::Object &Obj = objects.get(Ptr.object);
  if (Ptr.offset < 0 || uint64_t(Ptr.offset) + Bytes->getZExtValue() > Obj.size)
    throw SpecError(I.getDebugLoc(), "respec_static_memory(): range exceeds the object '" +
                                         Obj.global->getName().str() + "'");
  Obj.staticRanges.push_back({Ptr.offset, Bytes->getZExtValue()});
}

template <typename Fn>
static void forEachScalar(Constant *C, int64_t Base, const DataLayout &DL, Fn &&Visit) {
  Type *Ty = C->getType();
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      forEachScalar(C->getAggregateElement(I), Base + SL->getElementOffset(I), DL, Visit);
  } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    uint64_t Stride = DL.getTypeAllocSize(AT->getElementType());
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      forEachScalar(C->getAggregateElement(I), Base + int64_t(I * Stride), DL, Visit);
  } else {
    Visit(Base, C);
  }
}

void Specializer::evaluateMemoryIntrinsic(IntrinsicInst &I) {
  AbstractValue Dest = valueOf(I.getArgOperand(0));
  AbstractValue Src = valueOf(I.getArgOperand(1));
  AbstractValue Len = valueOf(I.getArgOperand(2));
  std::vector<AbstractValue> Ops;
  for (Value *Op : I.operands())
    Ops.push_back(valueOf(Op));
  emitResidual(I, Ops, /*OperandsEscape=*/false);
  auto *LenC = Len.kind == AbstractValue::Constant ? dyn_cast<ConstantInt>(Len.constant)
                                                    : nullptr;
  bool IsSet = isa<MemSetInst>(I) || I.getIntrinsicID() == Intrinsic::memset_inline;
  bool Volatile = cast<ConstantInt>(I.getArgOperand(3))->isOne();
  recordTransfer(Dest, Src, LenC, IsSet, Volatile);
}

void Specializer::recordTransfer(const AbstractValue &Dest, const AbstractValue &Src,
                                 ConstantInt *LenC, bool IsSet, bool Volatile) {
  uint64_t Bytes = LenC ? LenC->getZExtValue() : 0;
  bool KnownExtent = LenC && !Volatile && Bytes <= 65536;
  MemoryState &Mem = state.memory;

  // What the copy reads: pointers in the source bytes stay known only when
  // they land, cell for cell, in a private object (MemoryState.h).
  bool CopiesCells = !IsSet && KnownExtent && Bytes && Src.kind == AbstractValue::ObjectPointer &&
                     Dest.kind == AbstractValue::ObjectPointer && Src.object != Dest.object &&
                     Mem.isPrivate(Dest.object);
  if (!IsSet && Src.refersToObject() && !CopiesCells) {
    if (Src.kind == AbstractValue::ObjectPointer && KnownExtent)
      Mem.escapeContents(Src.object, Src.offset, Bytes);
    else
      Mem.escapeContents(Src.object);
  }

  // What it writes: memcpy carries no access type, so it may alias any fact.
  if (!KnownExtent || Dest.kind != AbstractValue::ObjectPointer) {
    AbstractValue Anywhere = Dest.refersToObject()
                                 ? AbstractValue::pointerDyn(Dest.object, nullptr)
                                 : Dest;
    if (!KnownExtent && Anywhere.isDynamic())
      Anywhere.dynamicRoot = nullptr; // unknown extent: not one range behind the root
    recordWrite(Anywhere, Bytes, std::nullopt, nullptr);
    return;
  }
  Mem.writeObject(Dest.object, Dest.offset, Bytes, std::nullopt, nullptr);
  ObjectState &OS = Mem.object(Dest.object);
  if (IsSet) {
    if (Src.kind == AbstractValue::Constant && Bytes)
      if (auto *Byte = dyn_cast<ConstantInt>(Src.constant)) {
        std::vector<uint8_t> Data(Bytes, uint8_t(Byte->getZExtValue()));
        OS.cells[Dest.offset] = {Bytes, AbstractValue::of(ConstantDataArray::get(ctx, Data))};
      }
    return;
  }
  if (Src.kind != AbstractValue::ObjectPointer || !Bytes)
    return;
  if (objects.isStaticRange(Src.object, Src.offset, Bytes)) {
    // Copy leaf by leaf: an initializer holding pointers has no byte image.
    // (Pointers in initializers point to globals, which are never private.)
    forEachScalar(objects.get(Src.object).contents, 0, layout,
                  [&](int64_t Off, Constant *Leaf) {
                    uint64_t Size = storeSize(Leaf->getType());
                    if (Off >= Src.offset && Off + int64_t(Size) <= Src.offset + int64_t(Bytes))
                    {
                      AbstractValue Copied = fromConstant(Leaf);
                      Copied.programData = true;
                      OS.cells[Dest.offset + (Off - Src.offset)] = {Size, Copied};
                    }
                  });
    return;
  }
  if (!CopiesCells)
    return;
  // Copy the source's static cells that lie wholly inside the copied range.
  auto It = Mem.objects.find(Src.object);
  if (It == Mem.objects.end())
    return;
  for (auto &[Off, C] : It->second.cells)
    if (Off >= Src.offset && Off + int64_t(C.size) <= Src.offset + int64_t(Bytes))
      OS.cells[Dest.offset + (Off - Src.offset)] = {C.size, C.value};
}

} // namespace detail
} // namespace respec
