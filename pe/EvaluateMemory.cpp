//===- EvaluateMemory.cpp - Loads, stores and facts on partially-static memory ---===//
//
// Stack slots, loads, stores, memcpy/memset and respec_static_memory(),
// evaluated on the MemoryState (respec_assume() is in Assumptions.cpp). Every
// write keeps the escape rule (MemoryState.h): a pointer that leaves precisely
// tracked memory marks its object escaped.
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

/// The cell holding [Off, Off+Size) of Obj, if one does.
static const Cell *cellCovering(const ObjectState &Obj, int64_t Off, uint64_t Size,
                                int64_t &Start) {
  auto It = Obj.cells.upper_bound(Off);
  if (It == Obj.cells.begin())
    return nullptr;
  --It;
  Start = It->first;
  if (Off + int64_t(Size) > Start + int64_t(It->second.size))
    return nullptr;
  return &It->second;
}

std::optional<AbstractValue> Specializer::loadFromCell(const Cell &C, int64_t Start,
                                                       int64_t Off, Type *Ty) {
  uint64_t Size = storeSize(Ty);
  // A fact about some bits, a symbolic pointer, or a pointer into an object at
  // a run-time offset (the load stays: evaluateLoad).
  if (C.partialMask || C.value.isDynamic() || C.value.kind == AbstractValue::ObjectPointerDyn)
    return std::nullopt;
  if (Start == Off && C.size == Size) {
    // A pointer read back whole, as a pointer or as the address in an integer
    // (EvaluateValues.cpp, addressArithmetic).
    if (C.value.refersToObject())
      return Ty->isPointerTy() || (C.value.kind == AbstractValue::ObjectPointer &&
                                   Ty->isIntegerTy(layout.getPointerSizeInBits()))
                 ? std::optional(C.value)
                 : std::nullopt;
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

std::optional<std::pair<Value *, int64_t>> Specializer::rootOf(const AbstractValue &Addr) {
  if (!Addr.isDynamic())
    return std::nullopt;
  if (Addr.dynamicRoot)
    return std::make_pair(Addr.dynamicRoot, Addr.dynamicRootOffset);
  if (Addr.residual)
    return std::make_pair(Addr.residual, int64_t(0));
  return std::nullopt;
}

const Cell *Specializer::trackedCell(const AbstractValue &Addr, uint64_t Size, int64_t &Start,
                                     int64_t &Off) {
  const ObjectState *Obj = nullptr;
  if (Addr.kind == AbstractValue::ObjectPointer) {
    auto It = state.memory.objects.find(Addr.object);
    Obj = It != state.memory.objects.end() ? &It->second : nullptr;
    Off = Addr.offset;
  } else if (auto Root = memoryRoot(Addr)) {
    auto It = state.memory.dynamicBases.find(Root->first);
    Obj = It != state.memory.dynamicBases.end() ? &It->second : nullptr;
    Off = Root->second;
  }
  return Obj ? cellCovering(*Obj, Off, Size, Start) : nullptr;
}

void Specializer::evaluateLoad(LoadInst &I) {
  AbstractValue Addr = valueOf(I.getPointerOperand());
  uint64_t Size = storeSize(I.getType());
  auto Evaluated = [&](AbstractValue V) {
    ++current->stats.instructionsEvaluated;
    recordBindingTime(I, false);
    setValue(I, V);
  };
  // The table pointer behind a stable function (EvaluateFacts.cpp).
  if (std::optional<AbstractValue> Table = loadThroughStableRoot(I, Addr))
    return Evaluated(*Table);
  if (!I.isVolatile() && I.isUnordered() && Addr.kind == AbstractValue::ObjectPointer &&
      objects.isStaticRange(Addr.object, Addr.offset, Size))
    if (Constant *C = ConstantFoldLoadFromConst(objects.get(Addr.object).contents,
                                                I.getType(), APInt(64, Addr.offset), layout)) {
      AbstractValue Loaded = fromConstant(C);
      Loaded.programData = true;
      noteProgramCounter(Addr);
      noteStableMemoryRead(Addr.object, I);
      return Evaluated(Loaded);
    }
  if (!I.isVolatile() && I.isUnordered())
    if (std::optional<AbstractValue> Loaded = loadHostStatic(Addr, I.getType())) {
      noteProgramCounter(Addr); // a walk over the program's own tables
      return Evaluated(*Loaded);
    }
  int64_t Start = 0, Off = 0;
  const Cell *Tracked = trackedCell(Addr, Size, Start, Off);
  if (Tracked && !I.isVolatile() && I.isUnordered())
    if (auto V = loadFromCell(*Tracked, Start, Off, I.getType())) {
      noteFactUse(*Tracked, I);
      noteStateRead(Tracked->value.origin);
      return Evaluated(*V);
    }
  // A cell holding a pointer into an object at a run-time offset, or into the
  // running program's memory, read back whole as a pointer: the residual load
  // yields that pointer.
  bool WholePointer = Tracked && !I.isVolatile() && I.isUnordered() && Start == Off &&
                      Tracked->size == Size && !Tracked->partialMask &&
                      I.getType()->isPointerTy();
  bool PointerIntoObject =
      WholePointer && Tracked->value.kind == AbstractValue::ObjectPointerDyn;
  bool AddressInProgram = WholePointer && Tracked->value.isAddressInProgram();
  // A pointer in the loaded bytes that is not forwarded as the pointer its cell
  // records (read as an integer, in part, or from an unknown offset) escapes.
  if (!PointerIntoObject && Addr.kind == AbstractValue::ObjectPointer)
    state.memory.escapeContents(Addr.object, Addr.offset, Size);
  else if (!PointerIntoObject && Addr.kind == AbstractValue::ObjectPointerDyn)
    state.memory.escapeContents(Addr.object, Addr.lowestOffset);
  std::vector<AbstractValue> Ops = {Addr};
  emitResidual(I, Ops, /*OperandsEscape=*/false);
  if (PointerIntoObject) {
    AbstractValue &Loaded = state.top().env[&I];
    Loaded = AbstractValue::pointerDyn(Tracked->value.object, Loaded.residual,
                                       Tracked->value.lowestOffset);
    noteStateRead(Tracked->value.origin);
  } else if (AddressInProgram) {
    state.top().env[&I].lowestOffset = Tracked->value.lowestOffset;
  }
  if (Tracked && Tracked->pinned && Start == Off && Tracked->size == Size)
    applyFactToResidualLoad(*Tracked, I);
  // An atomic access stronger than unordered may synchronize with another
  // thread, whose writes become visible. A volatile access orders only
  // volatile accesses: like LLVM's alias analysis, it clobbers nothing else.
  if (isStrongerThanUnordered(I.getOrdering()))
    state.memory.writeUnknown(nullptr);
}

void Specializer::recordWrite(const AbstractValue &Addr, uint64_t Size,
                              std::optional<Cell> Written, const MDNode *AccessType) {
  MemoryState &Mem = state.memory;
  switch (Addr.kind) {
  case AbstractValue::ObjectPointer:
    if (Size == UnknownExtent)
      return Mem.writeSomewhereIn(Addr.object, AccessType, Addr.offset);
    return Mem.writeObject(Addr.object, Addr.offset, Size, Written, AccessType);
  case AbstractValue::ObjectPointerDyn:
    if (Written)
      Mem.escapeValue(Written->value);
    return Mem.writeSomewhereIn(Addr.object, AccessType, Addr.lowestOffset);
  case AbstractValue::Constant:
  case AbstractValue::Dynamic:
    if (auto Root = memoryRoot(Addr))
      return Mem.writeBehindRoot(Root->first, Root->second, Size, Written, AccessType,
                                 {hostRoot(), Addr.lowestOffset});
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
  if (!I.isVolatile() && Val.isStatic()) {
    Written = Cell{Size, Val};
  } else if (!I.isVolatile() && I.getValueOperand()->getType()->isPointerTy()) {
    // A cell holds no residual value: the pointer is read back by a load.
    if (Val.kind == AbstractValue::ObjectPointerDyn)
      Written = Cell{Size, AbstractValue::pointerDyn(Val.object, nullptr, Val.lowestOffset)};
    else if (Val.isAddressInProgram())
      Written = Cell{Size, AbstractValue::addressAtLeast(Val.lowestOffset)};
  }
  if (Written)
    Written->accessType = I.getMetadata(LLVMContext::MD_tbaa); // see WriteSummary.h
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
  std::optional<uint64_t> HostAddress = hostAddress(Addr);
  if ((Addr.kind == AbstractValue::ObjectPointer && !objects.get(Addr.object).isStack() &&
       objects.isStaticRange(Addr.object, Addr.offset, Size)) ||
      (HostAddress && objects.hostStatic(*HostAddress, Size)))
    note(I, "store to memory declared static: the specialized code assumes it does not change");
  recordWrite(Addr, Size, Written, I.getMetadata(LLVMContext::MD_tbaa));
  if (isStrongerThanUnordered(I.getOrdering())) // see evaluateLoad
    state.memory.writeUnknown(nullptr);
}

void Specializer::evaluateStaticMemory(CallBase &I) {
  recordBindingTime(I, false);
  AbstractValue Ptr = valueOf(I.getArgOperand(0));
  AbstractValue Size = valueOf(I.getArgOperand(1));
  auto *Bytes = Size.kind == AbstractValue::Constant ? dyn_cast<ConstantInt>(Size.constant)
                                                      : nullptr;
  if (Bytes && declareHostStatic(Ptr, Bytes->getZExtValue()))
    return;
  if (Ptr.kind != AbstractValue::ObjectPointer || !objects.get(Ptr.object).global || !Bytes ||
      !objects.get(Ptr.object).contents)
    throw SpecError(I.getDebugLoc(),
                    options.host ? "respec_static_memory() needs an address in the program "
                                   "(or a global's) and a constant size"
                                 : "respec_static_memory() needs the address of a global with "
                                   "a known initializer and a constant size");
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
                     Dest.kind == AbstractValue::ObjectPointer && Mem.isPrivate(Dest.object);
  if (!IsSet && Src.refersToObject() && !CopiesCells) {
    if (Src.kind == AbstractValue::ObjectPointer && KnownExtent)
      Mem.escapeContents(Src.object, Src.offset, Bytes);
    else
      Mem.escapeContents(Src.object);
  }

  // What it writes: memcpy carries no access type, so it may alias any fact.
  if (!KnownExtent || Dest.kind != AbstractValue::ObjectPointer) {
    // From the destination on, at least (a write below it is undefined).
    AbstractValue Anywhere =
        Dest.refersToObject()
            ? AbstractValue::pointerDyn(Dest.object, nullptr, Dest.lowestOffsetInObject())
            : Dest;
    recordWrite(Anywhere, KnownExtent ? Bytes : UnknownExtent, std::nullopt, nullptr);
    return;
  }
  // The source's static cells wholly inside the copied range, read before the
  // write: within one object (memmove) the ranges may overlap.
  std::vector<std::pair<int64_t, Cell>> Copied;
  if (CopiesCells)
    if (auto It = Mem.objects.find(Src.object); It != Mem.objects.end())
      for (auto &[Off, C] : It->second.cells)
        if (Off >= Src.offset && Off + int64_t(C.size) <= Src.offset + int64_t(Bytes))
          Copied.emplace_back(Dest.offset + (Off - Src.offset), Cell{C.size, C.value});
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
  if (std::optional<Cell> Static = hostStaticCell(Src, Bytes)) {
    OS.cells[Dest.offset] = *Static;
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
  for (auto &[Off, C] : Copied)
    OS.cells[Off] = C;
}

} // namespace detail
} // namespace respec
