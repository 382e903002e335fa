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

ObjectState &Specializer::objectState(ObjectId Obj) {
  auto [It, Inserted] = state.memory.objects.try_emplace(Obj);
  if (Inserted)
    It->second.escaped = true; // unknown history: assume the worst
  return It->second;
}

void Specializer::markEscaped(ObjectId Obj) {
  ObjectState &OS = objectState(Obj);
  if (OS.escaped && objects.get(Obj).isStack())
    return;
  OS.escaped = true;
  // Whatever the object points to is now reachable from outside, too.
  std::vector<ObjectId> Reached;
  for (auto &[Off, C] : OS.cells)
    if (C.value.refersToObject())
      Reached.push_back(C.value.object);
  for (ObjectId R : Reached)
    if (!objectState(R).escaped)
      markEscaped(R);
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
  uint64_t Bytes = layout.getTypeAllocSize(I.getAllocatedType()) * Size->getZExtValue();
  ObjectId Existing = objects.lookupStackSlot(&I, current->context);
  if (Existing == ~0u) {
    IRBuilder<> EntryBuilder(residualEntry, residualEntry->getFirstInsertionPt());
    AllocaInst *Slot = EntryBuilder.CreateAlloca(I.getAllocatedType(), I.getArraySize(),
                                                 I.getName());
    Slot->setAlignment(I.getAlign());
    Existing = objects.forStackSlot(&I, current->context, Slot, Bytes);
  }
  // A fresh activation: nothing is known about its contents yet.
  ObjectState &OS = state.memory.objects[Existing];
  OS.cells.clear();
  OS.escaped = false;
  ++current->stats.instructionsEvaluated;
  recordBindingTime(I, false);
  setValue(I, AbstractValue::pointer(Existing, 0));
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
  std::vector<AbstractValue> Ops = {Addr};
  emitResidual(I, Ops, /*OperandsEscape=*/false);
  if (!I.isUnordered())
    state.memory.clobberUnattributed(); // acquire: others' writes become visible
}

void Specializer::recordStore(const AbstractValue &Addr, const AbstractValue &Val,
                              uint64_t Size, bool Volatile) {
  MemoryState &Mem = state.memory;
  Cell NewCell;
  NewCell.size = Size;
  NewCell.value = Val;
  bool Known = !Volatile && Val.isStatic();
  switch (Addr.kind) {
  case AbstractValue::ObjectPointer: {
    ObjectState &OS = objectState(Addr.object);
    OS.forget(Addr.offset, Size);
    if (Known)
      OS.cells[Addr.offset] = NewCell;
    if (OS.escaped) // the same bytes may be named through a dynamic pointer
      for (auto &[Root, DB] : Mem.dynamicBases)
        DB.forgetUnpinned();
    return;
  }
  case AbstractValue::ObjectPointerDyn: {
    ObjectState &OS = objectState(Addr.object);
    OS.cells.clear();
    if (OS.escaped)
      for (auto &[Root, DB] : Mem.dynamicBases)
        DB.forgetUnpinned();
    return;
  }
  case AbstractValue::Constant:
  case AbstractValue::Dynamic:
    Mem.clobberUnattributed();
    if (Addr.isDynamic() && Addr.dynamicRoot) {
      ObjectState &DB = Mem.dynamicBases[Addr.dynamicRoot];
      DB.forget(Addr.dynamicRootOffset, Size);
      if (Known)
        DB.cells[Addr.dynamicRootOffset] = NewCell;
    }
    return;
  }
}

void Specializer::evaluateStore(StoreInst &I) {
  AbstractValue Val = valueOf(I.getValueOperand());
  AbstractValue Addr = valueOf(I.getPointerOperand());
  // The stored pointer escapes unless it lands in a tracked, private object.
  bool IntoPrivate = Addr.refersToObject() && !objectState(Addr.object).escaped;
  Instruction *R = I.clone();
  R->setOperand(0, materialize(Val, I.getValueOperand()->getType(), !IntoPrivate));
  R->setOperand(1, materialize(Addr, nullptr, false));
  builder->Insert(R);
  R->setDebugLoc(I.getDebugLoc());
  ++current->stats.instructionsResidual;
  recordBindingTime(I, true);
  if (Addr.kind == AbstractValue::ObjectPointer && !objects.get(Addr.object).isStack() &&
      objects.isStaticRange(Addr.object, Addr.offset, storeSize(Val.constant ? Val.constant->getType() : I.getValueOperand()->getType())))
    note(I, "store to memory declared static: the specialized code assumes it does not change");
  recordStore(Addr, Val, storeSize(I.getValueOperand()->getType()), I.isVolatile());
  if (!I.isUnordered())
    state.memory.clobberUnattributed();
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
    if (Addr.kind == AbstractValue::ObjectPointer) {
      ObjectState &OS = objectState(Addr.object);
      OS.forget(Addr.offset, Fact.size);
      OS.cells[Addr.offset] = Fact;
    } else if (Addr.isDynamic() && (Addr.dynamicRoot || Addr.residual)) {
      Value *Root = Addr.dynamicRoot ? Addr.dynamicRoot : Addr.residual;
      ObjectState &DB = state.memory.dynamicBases[Root];
      DB.forget(Addr.dynamicRootOffset, Fact.size);
      DB.cells[Addr.dynamicRootOffset] = Fact;
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
  uint64_t Bytes = LenC ? LenC->getZExtValue() : 0;
  if (!LenC || Volatile || Dest.kind != AbstractValue::ObjectPointer || Bytes > 65536) {
    // Unknown extent: like a store through Dest at an unknown offset.
    AbstractValue Anywhere = Dest.refersToObject()
                                 ? AbstractValue::pointerDyn(Dest.object, nullptr)
                                 : AbstractValue::dynamic(nullptr);
    recordStore(Anywhere, AbstractValue(), 0, true);
    return;
  }
  ObjectState &OS = objectState(Dest.object);
  OS.forget(Dest.offset, Bytes);
  if (OS.escaped)
    for (auto &[Root, DB] : state.memory.dynamicBases)
      DB.forgetUnpinned();
  if (IsSet) {
    if (Src.kind == AbstractValue::Constant && Bytes)
      if (auto *Byte = dyn_cast<ConstantInt>(Src.constant)) {
        std::vector<uint8_t> Data(Bytes, uint8_t(Byte->getZExtValue()));
        OS.cells[Dest.offset] = {Bytes, AbstractValue::of(ConstantDataArray::get(ctx, Data)),
                                 false};
      }
    return;
  }
  if (Src.kind != AbstractValue::ObjectPointer || !Bytes)
    return;
  if (objects.isStaticRange(Src.object, Src.offset, Bytes)) {
    // Copy leaf by leaf: an initializer holding pointers has no byte image.
    forEachScalar(objects.get(Src.object).contents, 0, layout,
                  [&](int64_t Off, Constant *Leaf) {
                    uint64_t Size = storeSize(Leaf->getType());
                    if (Off >= Src.offset && Off + int64_t(Size) <= Src.offset + int64_t(Bytes))
                    {
                      AbstractValue Copied = fromConstant(Leaf);
                      Copied.programData = true;
                      OS.cells[Dest.offset + (Off - Src.offset)] = {Size, Copied, false};
                    }
                  });
    return;
  }
  // Copy the source's static cells that lie wholly inside the copied range.
  auto It = state.memory.objects.find(Src.object);
  if (It == state.memory.objects.end() || Src.object == Dest.object)
    return;
  for (auto &[Off, C] : It->second.cells)
    if (Off >= Src.offset && Off + int64_t(C.size) <= Src.offset + int64_t(Bytes)) {
      Cell Copy = C;
      Copy.pinned = false;
      OS.cells[Dest.offset + (Off - Src.offset)] = Copy;
    }
}


} // namespace detail
} // namespace respec
