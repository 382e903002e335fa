//===- EvaluateValues.cpp - Abstract values of instructions -----------------===//
//
// Each instruction without memory or control effects is evaluated on the
// abstract values of its operands: folded to a constant or a static pointer when
// they allow it, otherwise emitted as residual code with its static operands
// materialized (AbstractValue.h says what each kind of value means).
//
//===----------------------------------------------------------------------===//
#include "SpecializerInternals.h"
#include "Diagnostics.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace respec {
namespace detail {

//===-- Values -----------------------------------------------------------===//

AbstractValue Specializer::fromConstant(Constant *C) {
  if (C->getType()->isPointerTy()) {
    if (std::optional<AbstractValue> Host = hostConstant(C))
      return *Host;
    APInt Offset(layout.getIndexTypeSizeInBits(C->getType()), 0);
    const Value *Base = C->stripAndAccumulateConstantOffsets(layout, Offset, true);
    if (auto *G = dyn_cast<GlobalVariable>(Base))
      if (!G->isThreadLocal())
        return AbstractValue::pointer(objects.forGlobal(const_cast<GlobalVariable *>(G), layout),
                                      Offset.getSExtValue());
  }
  return AbstractValue::of(C);
}

AbstractValue Specializer::valueOf(Value *V, bool Use) {
  if (auto *C = dyn_cast<Constant>(V))
    return fromConstant(C);
  if (isa<InlineAsm>(V) || isa<MetadataAsValue>(V))
    return AbstractValue::dynamic(V);
  auto &Env = state.top().env;
  auto It = Env.find(V);
  if (It == Env.end()) {
    std::string Name;
    raw_string_ostream(Name) << *V;
    throw SpecError("", "internal error: no abstract value for " + Name);
  }
  const Origin &From = It->second.origin;
  if (Use && From && !From.cell)
    noteStateRead(From);
  return It->second;
}

Value *Specializer::materialize(const AbstractValue &A, Type *Ty, bool Escapes) {
  // An address in an integer (addressArithmetic; two of them met into one
  // object) can become a pointer again in the residual code where the
  // specializer does not see it: it escapes, whatever the use, as it did at the
  // ptrtoint before addresses had integer values.
  if (A.refersToObject() && (Escapes || (Ty && Ty->isIntegerTy())))
    state.memory.escape(A.object);
  switch (A.kind) {
  case AbstractValue::Constant:
    return A.constant;
  case AbstractValue::Dynamic:
  case AbstractValue::ObjectPointerDyn:
    return A.residual;
  case AbstractValue::ObjectPointer: {
    const ObjectTable::Object &Obj = objects.get(A.object);
    Type *I8 = Type::getInt8Ty(ctx);
    Value *Ptr;
    if (auto *Address = dyn_cast<Constant>(Obj.base))
      Ptr = A.offset ? ConstantExpr::getGetElementPtr(
                           I8, Address, ConstantInt::get(Type::getInt64Ty(ctx), A.offset))
                     : static_cast<Value *>(Address);
    else
      Ptr = !A.offset       ? Obj.base
            : inObject(A) ? builder->CreateInBoundsGEP(I8, Obj.base, builder->getInt64(A.offset))
                          : builder->CreateGEP(I8, Obj.base, builder->getInt64(A.offset));
    if (Ty && Ty->isIntegerTy())
      Ptr = builder->CreatePtrToInt(Ptr, Ty);
    return Ptr;
  }
  }
  llvm_unreachable("bad abstract value");
}

void Specializer::propagateOrigin(AbstractValue &Result, ArrayRef<AbstractValue> Operands) {
  if (!Result.isStatic())
    return;
  for (const AbstractValue &Op : Operands)
    Result.programData |= Op.programData;
  for (const AbstractValue &Op : Operands)
    if (Op.origin) {
      Result.origin = Op.origin;
      return;
    }
}
//===-- Instructions -----------------------------------------------------===//

void Specializer::evaluate(Instruction &I) {
  chargeWork(I);
  switch (I.getOpcode()) {
  case Instruction::Alloca:
    return evaluateAlloca(cast<AllocaInst>(I));
  case Instruction::Load:
    return evaluateLoad(cast<LoadInst>(I));
  case Instruction::Store:
    return evaluateStore(cast<StoreInst>(I));
  case Instruction::GetElementPtr:
    return evaluateGEP(cast<GetElementPtrInst>(I));
  case Instruction::ICmp:
  case Instruction::FCmp:
    return evaluateCompare(cast<CmpInst>(I));
  case Instruction::Call:
    return evaluateCall(cast<CallBase>(I));
  case Instruction::Ret:
    return evaluateReturn(cast<ReturnInst>(I));
  case Instruction::Br:
    return evaluateBranch(cast<BranchInst>(I));
  case Instruction::Switch:
    return evaluateSwitch(cast<SwitchInst>(I));
  case Instruction::Unreachable:
    recordBindingTime(I, true);
    builder->CreateUnreachable();
    blockEnded = true;
    return;
  case Instruction::Fence:
  case Instruction::AtomicCmpXchg:
  case Instruction::AtomicRMW: {
    std::vector<AbstractValue> Ops;
    for (Value *Op : I.operands())
      Ops.push_back(valueOf(Op));
    emitResidual(I, Ops);
    state.memory.writeUnknown(nullptr);
    return;
  }
  case Instruction::VAArg:
    return evaluateVAArg(cast<VAArgInst>(I));
  default:
    if (I.isTerminator() || I.isEHPad())
      throw SpecError(I.getDebugLoc(), std::string("unsupported instruction '") +
                                           I.getOpcodeName() + "' in specialized path");
    return evaluatePure(I);
  }
}

Instruction *Specializer::emitResidual(Instruction &I, ArrayRef<AbstractValue> Operands,
                                       bool OperandsEscape) {
  Instruction *R = I.clone();
  for (unsigned Op = 0; Op < Operands.size(); ++Op)
    R->setOperand(Op, materialize(Operands[Op], I.getOperand(Op)->getType(), OperandsEscape));
  R->setName(I.getName());
  builder->Insert(R);
  R->setDebugLoc(I.getDebugLoc());
  ++current->stats.instructionsResidual;
  recordBindingTime(I, true);
  if (!I.getType()->isVoidTy())
    setValue(I, AbstractValue::dynamic(R));
  return R;
}

/// Arithmetic, casts, selects and aggregate operations: no memory, no control.
void Specializer::evaluatePure(Instruction &I) {
  std::vector<AbstractValue> Ops;
  for (Value *Op : I.operands())
    Ops.push_back(valueOf(Op));

  if (auto *Sel = dyn_cast<SelectInst>(&I); Sel && Ops[0].kind == AbstractValue::Constant) {
    auto *Cond = dyn_cast<ConstantInt>(Ops[0].constant);
    if (Cond) {
      ++current->stats.instructionsEvaluated;
      recordBindingTime(I, false);
      return setValue(I, Cond->isOne() ? Ops[1] : Ops[2]);
    }
  }
  if (isa<FreezeInst>(I) && Ops[0].isStatic()) {
    recordBindingTime(I, false);
    return setValue(I, Ops[0]);
  }
  bool AllConstant = llvm::all_of(Ops, [](const AbstractValue &A) {
    return A.kind == AbstractValue::Constant;
  });
  if (AllConstant) {
    std::vector<Constant *> Cs;
    for (auto &A : Ops)
      Cs.push_back(A.constant);
    if (Constant *C = ConstantFoldInstOperands(&I, Cs, layout)) {
      AbstractValue R = fromConstant(C);
      propagateOrigin(R, Ops);
      ++current->stats.instructionsEvaluated;
      recordBindingTime(I, false);
      return setValue(I, R);
    }
  }
  if (std::optional<AbstractValue> Address = addressArithmetic(I, Ops)) {
    propagateOrigin(*Address, Ops);
    ++current->stats.instructionsEvaluated;
    recordBindingTime(I, false);
    return setValue(I, *Address);
  }
  // Pointer casts of static pointers keep the pointer static.
  if ((isa<BitCastInst>(I) || isa<AddrSpaceCastInst>(I)) && Ops[0].isStatic() &&
      (Ops[0].kind == AbstractValue::Constant || I.getType()->isPointerTy())) {
    recordBindingTime(I, false);
    return setValue(I, Ops[0]);
  }
  // Algebraic identities with some static operands (x & 0, x * 1, ...).
  if (llvm::any_of(Ops, [](const AbstractValue &A) { return A.kind == AbstractValue::Constant; }) &&
      !I.getType()->isPointerTy()) {
    std::vector<Value *> Vs;
    for (auto &A : Ops)
      Vs.push_back(A.kind == AbstractValue::Constant ? A.constant
                   : A.isDynamic()                   ? A.residual
                                                     : nullptr);
    if (llvm::all_of(Vs, [](Value *V) { return V; }))
      if (Value *S = simplifyInstructionWithOperands(&I, Vs, SimplifyQuery(layout)))
        if (auto *C = dyn_cast<Constant>(S)) {
          ++current->stats.instructionsEvaluated;
          recordBindingTime(I, false);
          return setValue(I, fromConstant(C));
        }
  }
  std::optional<KnownBits> Known = knownBitsOfResult(I, Ops);
  if (Known && Known->isConstant()) {
    ++current->stats.instructionsEvaluated;
    recordBindingTime(I, false);
    return setValue(I, AbstractValue::of(ConstantInt::get(I.getType(), Known->getConstant())));
  }
  emitResidual(I, Ops);
  if (Known) {
    AbstractValue &Result = state.top().env[&I];
    Result.knownZero = Known->Zero.getZExtValue();
    Result.knownOne = Known->One.getZExtValue();
  }
}

/// Addresses as integers. A pointer-width ptrtoint of a pointer into a known
/// object keeps the pointer's abstract value, so that what C computes from
/// addresses stays static: the distance between two pointers into one object
/// (`(char *)F - (char *)frames`, a frame's offset that PCRE2 keeps in its
/// frames), an address moved by a constant, and the pointer made from it again
/// (inttoptr). Anything else done with the integer is residual, and the address
/// escapes when it is materialized (materialize).
std::optional<AbstractValue> Specializer::addressArithmetic(Instruction &I,
                                                            ArrayRef<AbstractValue> Ops) {
  unsigned PointerBits = layout.getPointerSizeInBits();
  auto IsAddress = [&](unsigned Op) {
    return Ops[Op].kind == AbstractValue::ObjectPointer &&
           I.getOperand(Op)->getType()->isIntegerTy(PointerBits);
  };
  auto Offset = [&](unsigned Op) -> std::optional<int64_t> {
    if (Ops[Op].kind != AbstractValue::Constant)
      return std::nullopt;
    auto *C = dyn_cast<ConstantInt>(Ops[Op].constant);
    return C && C->getBitWidth() == PointerBits ? std::optional(C->getSExtValue()) : std::nullopt;
  };
  auto Moved = [&](const AbstractValue &A, int64_t By) {
    return AbstractValue::pointer(A.object, A.offset + By);
  };
  switch (I.getOpcode()) {
  case Instruction::PtrToInt: // (objects are in the default address space)
    if (Ops[0].kind == AbstractValue::ObjectPointer && I.getType()->isIntegerTy(PointerBits) &&
        I.getOperand(0)->getType()->getPointerAddressSpace() == 0)
      return AbstractValue::pointer(Ops[0].object, Ops[0].offset);
    break;
  case Instruction::IntToPtr:
    if (IsAddress(0) && I.getType()->getPointerAddressSpace() == 0)
      return AbstractValue::pointer(Ops[0].object, Ops[0].offset);
    break;
  case Instruction::Sub:
    if (IsAddress(0) && IsAddress(1) && Ops[0].object == Ops[1].object)
      return AbstractValue::of(ConstantInt::get(I.getType(), Ops[0].offset - Ops[1].offset, true));
    if (IsAddress(0))
      if (std::optional<int64_t> By = Offset(1))
        return Moved(Ops[0], -*By);
    break;
  case Instruction::Add:
    for (unsigned Op = 0; Op < 2; ++Op)
      if (IsAddress(Op))
        if (std::optional<int64_t> By = Offset(1 - Op))
          return Moved(Ops[Op], *By);
    break;
  default:
    break;
  }
  return std::nullopt;
}

/// The bits of an integer value that are known: all of a constant's, some of a
/// dynamic value's (a fact about a bit-field, and what was computed from it).
static std::optional<KnownBits> knownBitsOf(const AbstractValue &A, Type *Ty) {
  if (!Ty->isIntegerTy() || Ty->getIntegerBitWidth() > 64)
    return std::nullopt;
  unsigned Width = Ty->getIntegerBitWidth();
  if (A.kind == AbstractValue::Constant)
    if (auto *CI = dyn_cast<ConstantInt>(A.constant))
      return KnownBits::makeConstant(CI->getValue());
  if (A.isDynamic()) {
    KnownBits K(Width);
    K.Zero = APInt(Width, A.knownZero);
    K.One = APInt(Width, A.knownOne);
    return K;
  }
  return std::nullopt;
}

/// What is known of the bits of I's result when an operand has known bits:
/// enough, often, to fold the extraction of a bit-field a fact is about.
std::optional<KnownBits> Specializer::knownBitsOfResult(Instruction &I,
                                                        ArrayRef<AbstractValue> Ops) {
  bool AnyPartial = llvm::any_of(
      Ops, [](const AbstractValue &A) { return A.isDynamic() && (A.knownZero | A.knownOne); });
  if (!AnyPartial || !I.getType()->isIntegerTy() || I.getType()->getIntegerBitWidth() > 64)
    return std::nullopt;
  std::vector<KnownBits> K;
  for (unsigned N = 0; N < Ops.size(); ++N) {
    std::optional<KnownBits> Op = knownBitsOf(Ops[N], I.getOperand(N)->getType());
    if (!Op)
      return std::nullopt;
    K.push_back(*Op);
  }
  unsigned Width = I.getType()->getIntegerBitWidth();
  switch (I.getOpcode()) {
  case Instruction::And:
    return K[0] & K[1];
  case Instruction::Or:
    return K[0] | K[1];
  case Instruction::Xor:
    return K[0] ^ K[1];
  case Instruction::Add:
  case Instruction::Sub:
    return KnownBits::computeForAddSub(I.getOpcode() == Instruction::Add, false, K[0], K[1]);
  case Instruction::Shl:
    return KnownBits::shl(K[0], K[1]);
  case Instruction::LShr:
    return KnownBits::lshr(K[0], K[1]);
  case Instruction::AShr:
    return KnownBits::ashr(K[0], K[1]);
  case Instruction::ZExt:
    return K[0].zext(Width);
  case Instruction::SExt:
    return K[0].sext(Width);
  case Instruction::Trunc:
    return K[0].trunc(Width);
  default:
    return std::nullopt;
  }
}

/// Whether a known address is in its object, from its start to one past its end.
bool Specializer::inObject(const AbstractValue &A) const {
  return A.kind == AbstractValue::ObjectPointer && A.offset >= 0 &&
         uint64_t(A.offset) <= objects.get(A.object).size;
}

/// Whether two addresses in different objects may be equal: when one may be
/// one past its object's end and the other at its object's start (C allows
/// that equality), or either may be outside its object. A pointer into an
/// object at a run-time offset (ObjectPointerDyn, from an inbounds
/// getelementptr) is in it, anywhere from start to end; an integer met from
/// two addresses may be anywhere.
bool Specializer::addressesMayMeet(const AbstractValue &L, const AbstractValue &R,
                                   bool Pointers) const {
  auto InRange = [&](const AbstractValue &A) {
    return A.kind == AbstractValue::ObjectPointer ? inObject(A) : Pointers;
  };
  auto AtStart = [&](const AbstractValue &A) {
    return A.kind != AbstractValue::ObjectPointer || A.offset == 0;
  };
  auto AtEnd = [&](const AbstractValue &A) {
    return A.kind != AbstractValue::ObjectPointer ||
           uint64_t(A.offset) == objects.get(A.object).size;
  };
  return !InRange(L) || !InRange(R) || (AtEnd(L) && AtStart(R)) || (AtEnd(R) && AtStart(L));
}

void Specializer::evaluateCompare(CmpInst &I) {
  AbstractValue L = valueOf(I.getOperand(0)), R = valueOf(I.getOperand(1));
  auto Decide = [&](bool Result) {
    AbstractValue V = AbstractValue::of(ConstantInt::getBool(I.getType(), Result));
    propagateOrigin(V, {L, R});
    ++current->stats.instructionsEvaluated;
    recordBindingTime(I, false);
    setValue(I, V);
  };
  if (L.kind == AbstractValue::Constant && R.kind == AbstractValue::Constant) {
    if (Constant *C = ConstantFoldCompareInstOperands(I.getPredicate(), L.constant,
                                                       R.constant, layout)) {
      if (auto *CI = dyn_cast<ConstantInt>(C))
        return Decide(CI->isOne());
    }
  }
  // Pointers into known objects compare statically: same object by offset,
  // different objects or null never equal; but only where the addresses are
  // in their objects (from the start to one past the end), which an address
  // moved as an integer (addressArithmetic) need not be, and one past the end
  // of an object may be where another starts (addressesMayMeet).
  if (!I.isEquality() && L.kind == AbstractValue::ObjectPointer &&
      R.kind == AbstractValue::ObjectPointer && L.object == R.object && inObject(L) &&
      inObject(R)) {
    APInt A(64, L.offset, true), B(64, R.offset, true);
    return Decide(ICmpInst::compare(A, B, I.getPredicate()));
  }
  // Stable memory a spec declares may be a global's too (EvaluateFacts.cpp).
  bool MaybeSame = L.refersToObject() && R.refersToObject() && L.object != R.object &&
                   stableMemoryMayBe(L.object, R.object);
  if (I.isEquality() && L.refersToObject() && R.refersToObject() && !MaybeSame) {
    bool Eq = I.getPredicate() == CmpInst::ICMP_EQ;
    bool Pointers = I.getOperand(0)->getType()->isPointerTy();
    if (L.object != R.object && !addressesMayMeet(L, R, Pointers))
      return Decide(!Eq);
    if (L.object == R.object && L.kind == AbstractValue::ObjectPointer &&
        R.kind == AbstractValue::ObjectPointer)
      return Decide((L.offset == R.offset) == Eq);
  }
  if (I.isEquality()) {
    auto IsNull = [](const AbstractValue &A) {
      return A.kind == AbstractValue::Constant && A.constant->isNullValue();
    };
    bool Eq = I.getPredicate() == CmpInst::ICMP_EQ;
    if ((L.kind == AbstractValue::ObjectPointer && inObject(L) && IsNull(R)) ||
        (R.kind == AbstractValue::ObjectPointer && inObject(R) && IsNull(L)))
      return Decide(!Eq);
  }
  if (auto KL = knownBitsOf(L, I.getOperand(0)->getType()),
      KR = knownBitsOf(R, I.getOperand(1)->getType());
      KL && KR && isa<ICmpInst>(I)) {
    std::optional<bool> Known;
    switch (I.getPredicate()) {
    case CmpInst::ICMP_EQ: Known = KnownBits::eq(*KL, *KR); break;
    case CmpInst::ICMP_NE: Known = KnownBits::ne(*KL, *KR); break;
    case CmpInst::ICMP_UGT: Known = KnownBits::ugt(*KL, *KR); break;
    case CmpInst::ICMP_UGE: Known = KnownBits::uge(*KL, *KR); break;
    case CmpInst::ICMP_ULT: Known = KnownBits::ult(*KL, *KR); break;
    case CmpInst::ICMP_ULE: Known = KnownBits::ule(*KL, *KR); break;
    case CmpInst::ICMP_SGT: Known = KnownBits::sgt(*KL, *KR); break;
    case CmpInst::ICMP_SGE: Known = KnownBits::sge(*KL, *KR); break;
    case CmpInst::ICMP_SLT: Known = KnownBits::slt(*KL, *KR); break;
    case CmpInst::ICMP_SLE: Known = KnownBits::sle(*KL, *KR); break;
    default: break;
    }
    if (Known)
      return Decide(*Known);
  }
  if (L.isStatic() != R.isStatic()) {
    // A static value decides nothing here: if it was loop-carried, the loop it
    // came from is controlled by dynamic data.
    taintIfLoopTest(I, L);
    taintIfLoopTest(I, R);
  }
  std::vector<AbstractValue> Ops = {L, R};
  emitResidual(I, Ops, /*OperandsEscape=*/false);
}

/// Whether a residual index is never negative, from how it is made alone: an
/// unsigned value widened, masked, shifted right or reduced. (Not from LLVM's
/// value tracking: the residual phis are not complete while the specializer
/// runs, and their incoming values so far prove nothing.)
static bool isNonNegativeIndex(const Value *Index) {
  if (isa<ZExtInst>(Index))
    return true;
  auto *Op = dyn_cast<BinaryOperator>(Index);
  auto *C = Op ? dyn_cast<ConstantInt>(Op->getOperand(1)) : nullptr;
  if (!C)
    return false;
  switch (Op->getOpcode()) {
  case Instruction::And:
  case Instruction::URem:
    return C->getValue().isNonNegative();
  case Instruction::LShr:
    return !C->isZero();
  case Instruction::UDiv:
    return C->getValue().ugt(1);
  default:
    return false;
  }
}

/// The bytes a constant index of a getelementptr (GEP) steps at GTI, unless
/// they do not fit in 64 bits (the GEP is then evaluated as one with a
/// run-time index: its residual instruction computes what LLVM says it does).
static std::optional<int64_t> constantIndexOffset(const DataLayout &Layout,
                                                  gep_type_iterator GTI,
                                                  const ConstantInt &Index) {
  if (StructType *ST = GTI.getStructTypeOrNull())
    return int64_t(Layout.getStructLayout(ST)->getElementOffset(Index.getZExtValue()));
  TypeSize Size = Layout.getTypeAllocSize(GTI.getIndexedType());
  int64_t Bytes = 0;
  if (Size.isScalable() || Index.getValue().getSignificantBits() > 64 ||
      __builtin_mul_overflow(Index.getSExtValue(), int64_t(Size.getFixedValue()), &Bytes))
    return std::nullopt;
  return Bytes;
}

/// The lowest offset a residual inbounds getelementptr (GEP) into an object
/// may reach from Base: Base's lowest plus its constant indices' offsets, when
/// every index known only at run time is never negative (isNonNegativeIndex:
/// `p + n` with n unsigned); else none.
int64_t Specializer::lowestOffsetOfGEP(const AbstractValue &Base, Value *Residual) const {
  int64_t Lowest = Base.lowestOffsetInObject();
  auto *GEP = dyn_cast_or_null<GEPOperator>(Residual);
  if (Lowest == AbstractValue::AnywhereInObject || !GEP || GEP->getType()->isVectorTy())
    return AbstractValue::AnywhereInObject;
  unsigned IndexBits = layout.getIndexTypeSizeInBits(GEP->getType());
  gep_type_iterator GTI = gep_type_begin(GEP);
  for (unsigned Idx = 1; Idx < GEP->getNumOperands(); ++Idx, ++GTI) {
    Value *Index = GEP->getOperand(Idx);
    // A wider index is truncated (a non-negative one may not stay so); a
    // scalable type's size is only a minimum.
    if (Index->getType()->getScalarSizeInBits() > IndexBits ||
        (!GTI.isStruct() && layout.getTypeAllocSize(GTI.getIndexedType()).isScalable()))
      return AbstractValue::AnywhereInObject;
    int64_t Step = 0;
    if (auto *CI = dyn_cast<ConstantInt>(Index)) {
      std::optional<int64_t> Bytes = constantIndexOffset(layout, GTI, *CI);
      if (!Bytes)
        return AbstractValue::AnywhereInObject;
      Step = *Bytes;
    } else if (!isNonNegativeIndex(Index)) {
      return AbstractValue::AnywhereInObject;
    }
    if (__builtin_add_overflow(Lowest, Step, &Lowest))
      return AbstractValue::AnywhereInObject;
  }
  return Lowest;
}

void Specializer::evaluateGEP(GetElementPtrInst &I) {
  AbstractValue Base = valueOf(I.getPointerOperand());
  std::vector<AbstractValue> Ops = {Base};
  bool StaticIndices = true;
  int64_t Delta = 0;
  gep_type_iterator GTI = gep_type_begin(I);
  for (unsigned Idx = 1; Idx < I.getNumOperands(); ++Idx, ++GTI) {
    AbstractValue A = valueOf(I.getOperand(Idx));
    Ops.push_back(A);
    auto *CI = A.kind == AbstractValue::Constant ? dyn_cast<ConstantInt>(A.constant) : nullptr;
    std::optional<int64_t> Bytes = CI ? constantIndexOffset(layout, GTI, *CI) : std::nullopt;
    if (!Bytes || __builtin_add_overflow(Delta, *Bytes, &Delta))
      StaticIndices = false;
  }
  // An address comes from its indices before its base: `prog[pc]` is where
  // the program counter pc points (see noteProgramCounter); `choices + 1`,
  // with choices a constant address into the host's memory (at run time), is
  // where the walk over that table is.
  auto Evaluated = [&](AbstractValue R) {
    std::vector<AbstractValue> IndicesFirst(Ops.begin() + 1, Ops.end());
    IndicesFirst.push_back(Base);
    propagateOrigin(R, IndicesFirst);
    ++current->stats.instructionsEvaluated;
    recordBindingTime(I, false);
    setValue(I, R);
  };
  int64_t Offset = 0;
  if (StaticIndices && Base.kind == AbstractValue::ObjectPointer &&
      !__builtin_add_overflow(Base.offset, Delta, &Offset))
    return Evaluated(AbstractValue::pointer(Base.object, Offset));
  if (StaticIndices && Base.kind == AbstractValue::Constant) {
    std::vector<Constant *> Cs;
    for (auto &A : Ops)
      Cs.push_back(A.constant);
    if (Constant *C = ConstantFoldInstOperands(&I, Cs, layout))
      return Evaluated(fromConstant(C));
  }
  emitResidual(I, Ops, /*OperandsEscape=*/false);
  AbstractValue &Result = state.top().env[&I];
  if (Base.refersToObject() && I.isInBounds()) {
    // Still inside the same object, at an offset known only at run time.
    Result = AbstractValue::pointerDyn(Base.object, Result.residual,
                                       lowestOffsetOfGEP(Base, Result.residual));
  } else if (Base.refersToObject()) {
    state.memory.escape(Base.object);
  } else if (StaticIndices && Base.isDynamic() &&
             !__builtin_add_overflow(Base.dynamicRootOffset, Delta, &Offset)) {
    // Keep "root + static offset" so facts about *root can be found again.
    Result.dynamicRoot = Base.dynamicRoot ? Base.dynamicRoot : Base.residual;
    Result.dynamicRootOffset = Offset;
  }
  // A cursor into the running program's memory that moves forward keeps its
  // floor (HostMemory.cpp).
  if (Base.isAddressInProgram() && I.isInBounds())
    Result.lowestOffset = lowestOffsetOfGEP(Base, Result.residual);
}


} // namespace detail
} // namespace respec
