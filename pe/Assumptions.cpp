//===- Assumptions.cpp - Facts stated with respec_assume() ----------------===//
//
// respec_assume(E == K) states that E equals the constant K where it is written.
// The evaluator makes three uses of it:
//
//   * E's SSA value is K from there on, in the frame that states it.
//   * When E is read from memory — a load, seen through the casts, shifts and
//     masks with which C reads `char` and `short` fields, bit-fields and their
//     promotions — the bits of the loaded cell that decide E are fixed: a pinned
//     cell holding the whole value, or, when only some bits decide E (a
//     bit-field), a partial fact whose bits a later load of the cell carries as
//     known bits (AbstractValue::knownZero/knownOne) that fold the bit-field's
//     extraction again. A volatile load still happens, and yields the fact.
//   * When the memory is reached through a pointer that is itself read from
//     memory (`a->b->c == K`), that pointer's cell is pinned as a *symbolic root*
//     named by the generic load that reads it, so a later reload of a->b finds
//     the facts behind it again.
//
// Facts are pinned cells of the MemoryState and end when the specialized code
// may write them (MemoryState.h). Every assumption is reported with the
// instructions it decided; one that decided nothing is reported as having no
// effect (a warning, an error with -Werror), never silently ignored.
//
// respec_fact("NAME") is the other way a spec states what is known: a fact
// about the client that `respec link` established from the client's symbols
// and properties (link/rules.h). It is a static 1 when the fact holds for the
// client being linked, 0 otherwise (always 0 outside `respec link`: nothing
// is known about the client then); the facts read as 1 are reported, so that
// the link can check at run time those the rules give a check for.
//
//===----------------------------------------------------------------------===//
#include "SpecializerInternals.h"
#include "Diagnostics.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;

namespace respec {
namespace detail {

/// How each bit of V comes from the bits of one loaded integer, through zext,
/// sext, trunc, shifts by constants and masks: Sources[i] is the bit of the
/// load's value that V's bit i equals, or -1 when V's bit i is always 0.
/// Returns the load, or null when V is not such a function of one.
static LoadInst *bitSources(Value *V, std::vector<int> &Sources) {
  using namespace PatternMatch;
  unsigned Width = V->getType()->getIntegerBitWidth();
  if (auto *Load = dyn_cast<LoadInst>(V)) {
    Sources.resize(Width);
    for (unsigned B = 0; B < Width; ++B)
      Sources[B] = int(B);
    return Load;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !I->getType()->isIntegerTy() || I->getNumOperands() == 0 ||
      !I->getOperand(0)->getType()->isIntegerTy())
    return nullptr;
  std::vector<int> In;
  LoadInst *Load = bitSources(I->getOperand(0), In);
  if (!Load)
    return nullptr;
  unsigned InWidth = In.size();
  const APInt *C = nullptr;
  Sources.assign(Width, -1);
  if (isa<ZExtInst>(I) || isa<SExtInst>(I) || isa<TruncInst>(I)) {
    for (unsigned B = 0; B < Width; ++B)
      Sources[B] = B < InWidth ? In[B] : isa<SExtInst>(I) ? In[InWidth - 1] : -1;
  } else if (match(I, m_LShr(m_Value(), m_APInt(C))) && C->ult(Width)) {
    for (unsigned B = 0; B + C->getZExtValue() < Width; ++B)
      Sources[B] = In[B + C->getZExtValue()];
  } else if (match(I, m_AShr(m_Value(), m_APInt(C))) && C->ult(Width)) {
    for (unsigned B = 0; B < Width; ++B)
      Sources[B] = In[std::min<uint64_t>(B + C->getZExtValue(), Width - 1)];
  } else if (match(I, m_Shl(m_Value(), m_APInt(C))) && C->ult(Width)) {
    for (unsigned B = C->getZExtValue(); B < Width; ++B)
      Sources[B] = In[B - C->getZExtValue()];
  } else if (match(I, m_And(m_Value(), m_APInt(C)))) {
    for (unsigned B = 0; B < Width; ++B)
      Sources[B] = (*C)[B] ? In[B] : -1;
  } else {
    return nullptr;
  }
  return Load;
}

static uint64_t maskOfWidth(unsigned Bits) {
  return Bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
}

bool Specializer::isStableRoot(const Value *V) const {
  if (V == hostRoot()) // the running program's memory (HostMemory.cpp)
    return true;
  if (auto *A = dyn_cast<Argument>(V))
    return A->getParent() == residual;
  if (auto *F = dyn_cast<Function>(V)) { // the memory behind a RESPEC_STABLE_TABLE function
    const ExternalFact *Fact = info.facts().about(F);
    return Fact && Fact->kind == ExternalFact::StableTable;
  }
  return symbolicRoots.count(V);
}

/// Where the memory GenericPointer points to is tracked: an object, or the
/// memory behind a root (an argument, or a pointer an assumption chain named).
std::optional<Specializer::FactPlace> Specializer::factPlace(Value *GenericPointer,
                                                             const CallBase &Assume) {
  if (!isa<Constant>(GenericPointer) && !state.top().env.count(GenericPointer))
    return std::nullopt;
  AbstractValue A = valueOf(GenericPointer);
  if (A.kind == AbstractValue::ObjectPointer)
    return FactPlace{A.object, nullptr, A.offset};
  if (auto Root = memoryRoot(A); Root && isStableRoot(Root->first))
    return FactPlace{std::nullopt, Root->first, Root->second};
  // A pointer read from memory behind a known pointer: pin it as a symbolic
  // root named by the generic load that reads it.
  APInt Offset(layout.getIndexTypeSizeInBits(GenericPointer->getType()), 0);
  Value *Base = GenericPointer->stripAndAccumulateConstantOffsets(layout, Offset, true);
  auto *PointerLoad = dyn_cast<LoadInst>(Base);
  if (!PointerLoad || !PointerLoad->isUnordered())
    return std::nullopt;
  std::optional<FactPlace> Parent = factPlace(PointerLoad->getPointerOperand(), Assume);
  if (!Parent)
    return std::nullopt;
  // Stated again (an assumption in a loop): the name now means the pointer
  // read here; what was known behind an earlier one is no longer found by it.
  if (auto Old = state.memory.dynamicBases.find(PointerLoad);
      Old != state.memory.dynamicBases.end())
    state.memory.dynamicBases.erase(Old);
  for (FrameState &F : state.frames)
    for (auto &[V, Value] : F.env)
      if (Value.dynamicRoot == PointerLoad)
        Value.dynamicRoot = nullptr, Value.dynamicRootOffset = 0;
  symbolicRoots.insert(PointerLoad);
  Cell Pointer;
  Pointer.size = storeSize(PointerLoad->getType());
  Pointer.value = AbstractValue::dynamic(nullptr);
  Pointer.value.dynamicRoot = PointerLoad;
  Pointer.pinned = true;
  Pointer.accessType = PointerLoad->getMetadata(LLVMContext::MD_tbaa);
  Pointer.statedBy = &Assume;
  recordFactAt(*Parent, Pointer);
  // Values computed from the pointer in this block name it too.
  for (auto &[V, Value] : state.top().env)
    if (V == PointerLoad && Value.isDynamic() && !Value.dynamicRoot)
      Value.dynamicRoot = PointerLoad, Value.dynamicRootOffset = 0;
  return FactPlace{std::nullopt, PointerLoad, Offset.getSExtValue()};
}

void Specializer::recordFactAt(const FactPlace &Place, const Cell &Fact) {
  MemoryState &Mem = state.memory;
  ObjectState &Into = Place.object ? Mem.object(*Place.object) : Mem.dynamicBases[Place.root];
  // Facts about other bits of the same cell (two bit-fields of one storage
  // unit) add up.
  auto Old = Into.cells.find(Place.offset);
  if (Fact.partialMask && Old != Into.cells.end() && Old->second.pinned &&
      Old->second.partialMask && Old->second.size == Fact.size &&
      Old->second.accessType == Fact.accessType) {
    uint64_t OldBits = cast<ConstantInt>(Old->second.value.constant)->getZExtValue();
    uint64_t NewBits = cast<ConstantInt>(Fact.value.constant)->getZExtValue();
    Cell Both = Fact;
    Both.partialMask = Old->second.partialMask | Fact.partialMask;
    Both.value = AbstractValue::of(ConstantInt::get(
        Fact.value.constant->getType(),
        (OldBits & Old->second.partialMask & ~Fact.partialMask) | (NewBits & Fact.partialMask)));
    if (Both.partialMask == maskOfWidth(Fact.size * 8))
      Both.partialMask = 0;
    current->factMerges.emplace_back(Fact.statedBy, Old->second.statedBy);
    Mem.recordFact(Into, Place.offset, Both);
    return;
  }
  Mem.recordFact(Into, Place.offset, Fact);
}

/// Instructions other than the predicate's own that use a value the assumption
/// makes static (they read it after the assumption, in its frame).
void Specializer::noteValueUses(const CallBase &Assume, const Value *V,
                                const std::set<const Value *> &Predicate) {
  for (const User *U : V->users())
    if (auto *UserInst = dyn_cast<Instruction>(U); UserInst && !Predicate.count(UserInst))
      current->factUses.emplace_back(&Assume, UserInst);
}

void Specializer::noteFactUse(const Cell &C, const Instruction &User) {
  if (C.pinned && C.statedBy)
    current->factUses.emplace_back(C.statedBy, &User);
}

/// A residual load of a cell a fact is about: a volatile load yields the
/// fact, a bit-field's load carries the known bits, and a pointer an
/// assumption chain named carries its name.
void Specializer::applyFactToResidualLoad(const Cell &Fact, LoadInst &I) {
  AbstractValue &Result = state.top().env[&I];
  Type *Ty = I.getType();
  if (Fact.value.isDynamic()) {
    if (Ty->isPointerTy() && Fact.value.dynamicRoot) {
      Result.dynamicRoot = Fact.value.dynamicRoot;
      Result.dynamicRootOffset = 0;
    }
    return;
  }
  auto *Bits = dyn_cast_or_null<ConstantInt>(Fact.value.kind == AbstractValue::Constant
                                                 ? Fact.value.constant
                                                 : nullptr);
  if (Fact.partialMask && Bits && Bits->getType() == Ty) {
    Result.knownOne = Bits->getZExtValue() & Fact.partialMask;
    Result.knownZero = ~Bits->getZExtValue() & Fact.partialMask;
    noteFactUse(Fact, I);
  } else if (!Fact.partialMask && I.isVolatile() &&
             (Fact.value.refersToObject() ? Ty->isPointerTy()
                                          : Fact.value.constant->getType() == Ty)) {
    Result = Fact.value;
    noteFactUse(Fact, I);
  }
}

void Specializer::evaluateAssume(CallBase &I) {
  recordBindingTime(I, false);
  current->assumptions.push_back(&I);
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
  std::set<const Value *> Predicate = {V}; // what computes the predicate itself
  for (;; Predicate.insert(V)) {
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
  } else if (auto *Bit = dyn_cast<TruncInst>(V);
             Bit && Bit->getType()->isIntegerTy(1) && !valueOf(Bit).isStatic()) {
    // A C bool is tested as its low bit (`b == 0` is `!(trunc b to i1)`):
    // that bit is the subject, known to be what the predicate says.
    Subject = Bit, Known = AbstractValue::of(ConstantInt::get(Bit->getType(), Positive));
  }
  if (!Subject)
    throw SpecError(I.getDebugLoc(),
                    "respec_assume() cannot use this predicate: write one "
                    "`expression == constant` per respec_assume() (conjunctions as "
                    "separate calls)");
  // The compared SSA value is static from here on ...
  state.top().env[Subject] = Known;
  noteValueUses(I, Subject, Predicate);

  // ... and so are the bits of the memory cell it was read from.
  Cell Fact;
  Fact.pinned = true;
  Fact.statedBy = &I;
  LoadInst *Load = nullptr;
  std::vector<int> Sources;
  auto *KnownInt = Known.kind == AbstractValue::Constant ? dyn_cast<ConstantInt>(Known.constant)
                                                         : nullptr;
  if (KnownInt && KnownInt->getBitWidth() <= 64)
    Load = bitSources(Subject, Sources);
  if (Load && Load->getType()->getIntegerBitWidth() <= 64) {
    unsigned Width = Load->getType()->getIntegerBitWidth();
    uint64_t Mask = 0, Bits = 0;
    for (unsigned B = 0; B < Sources.size(); ++B) {
      bool Bit = KnownInt->getValue()[B];
      int From = Sources[B];
      if (From < 0 ? Bit : (Mask >> From & 1) && (Bits >> From & 1) != Bit)
        throw SpecError(I.getDebugLoc(), "contradiction: this respec_assume() predicate can "
                                         "never hold (no value of the field gives it)");
      if (From >= 0)
        Mask |= uint64_t(1) << From, Bits |= uint64_t(Bit) << From;
    }
    Fact.value = AbstractValue::of(ConstantInt::get(Load->getType(), Bits));
    Fact.partialMask = Mask == maskOfWidth(Width) ? 0 : Mask;
    for (Value *Step = Subject; Step != Load; Step = cast<Instruction>(Step)->getOperand(0))
      Predicate.insert(Step);
    if (Load != Subject)
      noteValueUses(I, Load, Predicate);
    if (auto It = state.top().env.find(Load); It != state.top().env.end()) {
      if (!Fact.partialMask)
        It->second = Fact.value;
      else if (It->second.isDynamic())
        It->second.knownOne = Bits & Mask, It->second.knownZero = ~Bits & Mask;
    }
  } else if ((Load = dyn_cast<LoadInst>(Subject))) {
    Fact.value = Known;
  } else {
    return; // a fact about a computed value: the SSA value only
  }
  Fact.size = storeSize(Load->getType());
  Fact.accessType = Load->getMetadata(LLVMContext::MD_tbaa);
  std::optional<FactPlace> Place = factPlace(Load->getPointerOperand(), I);
  if (!Place)
    throw SpecError(I.getDebugLoc(), "respec_assume(): the memory this predicate "
                                     "reads is not reachable by a known pointer");
  recordFactAt(*Place, Fact);
}

void Specializer::evaluateLinkFact(CallBase &I) {
  StringRef Name;
  if (!getConstantStringInfo(I.getArgOperand(0), Name))
    throw SpecError(I.getDebugLoc(), "respec_fact() needs a string literal");
  recordBindingTime(I, false);
  bool Holds = options.facts.count(Name.str()) != 0;
  if (Holds)
    factsRelied.insert(Name.str());
  setValue(I, AbstractValue::of(ConstantInt::get(I.getType(), Holds)));
}

} // namespace detail
} // namespace respec
