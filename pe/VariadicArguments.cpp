//===- VariadicArguments.cpp - Unfolded variadic calls and va_list ---------===//
//
// A variadic callee (snprintf, a logging function, a sum of `n` ints) is
// unfolded like any other call: what it reads with va_arg is the call site's
// actual arguments, static ones static and dynamic ones dynamic. There is no
// new abstract value for this: the arguments are put in memory exactly where
// the x86-64 System V ABI puts them, and va_start, va_arg, va_copy and va_end
// are evaluated on the partially-static memory (MemoryState.h) like any other
// memory access.
//
//   * At the call site (passVariadicArguments), two stack objects of the call
//     site and its context are created: a *register save area* of 176 bytes
//     and an *overflow area*. Each variadic argument is stored where the
//     callee's prologue would have spilled it: the first integer and pointer
//     arguments in the 8-byte general-purpose slots at 0..47 after those the
//     named parameters use, the first doubles in the 16-byte xmm slots at
//     48..175 after the named ones, the rest in 8-byte slots of the overflow
//     area, in order. The stores are emitted into the residual code, as every
//     store is (rule 1 of MemoryState.h): the residual areas hold the real
//     values, so anything that reads them at run time (a va_arg with a dynamic
//     offset in a loop kept residual, a vprintf-style callee that is called
//     rather than unfolded, which gets a pointer to the va_list) reads what the
//     generic callee would. A static argument also becomes a static cell.
//     When every read of the areas folds, the stores are dead and LLVM's
//     clean-up removes them with the areas.
//   * llvm.va_start in the unfolded callee writes the four fields of the
//     va_list, `{i32 gp_offset, i32 fp_offset, ptr overflow_arg_area,
//     ptr reg_save_area}`, with stores: the offsets past the named parameters,
//     static, and pointers to the two areas, static object pointers.
//   * clang lowers va_arg inline into loads and compares of gp_offset and
//     fp_offset and loads from the areas. With static offsets the existing
//     evaluator folds the ABI's branches and forwards the argument's cell;
//     nothing here is needed for it. LLVM's own va_arg instruction (other front
//     ends, hand-written IR) is evaluated the same way by evaluateVAArg.
//   * va_copy is a copy of the 24 bytes of the va_list (that is what it is on
//     this ABI); va_end does nothing on this ABI and is dropped.
// A va_list handed to a function that is unfolded stays a pointer to tracked
// memory and keeps folding there; handed to a residual call it escapes with
// the areas it points to, which hold the real values.
//
// The areas belong to the callee's frame (FrameState::variadic), which keeps
// them alive across blocks until the callee returns.
//
// What is not laid out keeps the call residual ("kept residual: ..."): other
// targets (their va_list is another type), arguments passed by value in memory
// (byval structs), x87 long double, __int128 and vectors, and named parameters
// of such types. The spec function itself may be variadic: its residual copy is,
// too, and a va_start there stays residual and reads the real registers.
//
//===----------------------------------------------------------------------===//
#include "SpecializerInternals.h"
#include "FunctionInfo.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace respec {

bool hasModeledVaList(const Module &M) {
  Triple T(M.getTargetTriple());
  return T.getArch() == Triple::x86_64 && !T.isOSWindows() &&
         M.getDataLayout().getPointerSize() == 8;
}

namespace detail {

namespace {

// The System V x86-64 va_list and register save area.
constexpr int64_t GPOffsetField = 0, FPOffsetField = 4, OverflowAreaField = 8,
                  RegSaveAreaField = 16, VaListSize = 24;
constexpr unsigned GPRegisters = 6, FPRegisters = 8;
constexpr int64_t GPSlot = 8, FPSlot = 16, StackSlot = 8;
constexpr int64_t FPAreaStart = GPRegisters * GPSlot; // 48
constexpr int64_t RegSaveAreaSize = FPAreaStart + FPRegisters * FPSlot; // 176
// Stack objects of the call site are keyed by argument number + 1 for by-value
// copies (UnfoldCalls.cpp); the areas take keys no argument number reaches.
constexpr unsigned RegSaveAreaKey = ~0u - 1, OverflowAreaKey = ~0u - 2;

enum class ArgClass { GP, FP, None };

ArgClass classify(Type *Ty) {
  if (Ty->isPointerTy() || Ty->isIntegerTy(32) || Ty->isIntegerTy(64))
    return ArgClass::GP;
  if (Ty->isDoubleTy() || Ty->isFloatTy())
    return ArgClass::FP;
  return ArgClass::None;
}

std::string typeName(Type *Ty) {
  std::string S;
  raw_string_ostream OS(S);
  Ty->print(OS);
  return OS.str();
}

struct Placement {
  unsigned argument;
  bool inRegisters; ///< register save area, else overflow area
  int64_t offset;
};

struct VariadicLayout {
  uint32_t gpOffset = 0, fpOffset = FPAreaStart;
  std::vector<Placement> placements;
  int64_t overflowBytes = 0;
  std::string problem; ///< why the call cannot be laid out; empty if it can
};

/// Where the ABI puts each variadic argument of I: registers are assigned per
/// IR argument, in order (clang has already split small structs into scalars
/// and passed the rest byval when the registers left could not hold them all).
VariadicLayout layOut(const CallBase &I, const Function &Callee) {
  VariadicLayout L;
  unsigned GP = 0, FP = 0;
  for (const Argument &A : Callee.args()) {
    // A named char or short (C passes them as i8/i16 signext) takes a register
    // all the same; variadic ones are promoted to int by C.
    Type *Ty = A.getType();
    ArgClass C = Ty->isIntegerTy() && Ty->getIntegerBitWidth() <= 64 ? ArgClass::GP : classify(Ty);
    if (C == ArgClass::None || A.hasPassPointeeByValueCopyAttr()) {
      L.problem = "named parameter of a type whose place respec does not lay out (" +
                  typeName(A.getType()) + ")";
      return L;
    }
    (C == ArgClass::GP ? GP : FP)++;
  }
  L.gpOffset = std::min(GP, GPRegisters) * GPSlot;
  L.fpOffset = FPAreaStart + std::min(FP, FPRegisters) * FPSlot;
  for (unsigned N = Callee.arg_size(); N < I.arg_size(); ++N) {
    Type *Ty = I.getArgOperand(N)->getType();
    ArgClass C = classify(Ty);
    if (C == ArgClass::None || I.isPassPointeeByValueArgument(N)) {
      L.problem = "variadic argument of a type whose place respec does not lay out (" +
                  (I.isPassPointeeByValueArgument(N) ? "by value in memory" : typeName(Ty)) +
                  ")";
      return L;
    }
    if (C == ArgClass::GP && GP < GPRegisters)
      L.placements.push_back({N, true, int64_t(GP++) * GPSlot});
    else if (C == ArgClass::FP && FP < FPRegisters)
      L.placements.push_back({N, true, FPAreaStart + int64_t(FP++) * FPSlot});
    else {
      L.placements.push_back({N, false, L.overflowBytes});
      L.overflowBytes += StackSlot;
    }
  }
  return L;
}

} // namespace

std::string Specializer::variadicCallProblem(const CallBase &I, const Function &Callee) const {
  if (!hasModeledVaList(module))
    return "variadic function (respec models va_list on x86-64 System V only)";
  return layOut(I, Callee).problem;
}

VariadicFrame Specializer::passVariadicArguments(CallBase &I, const Function &Callee,
                                                 const std::vector<AbstractValue> &Args) {
  VariadicLayout L = layOut(I, Callee);
  Type *I8 = Type::getInt8Ty(ctx), *I64 = Type::getInt64Ty(ctx);
  VariadicFrame Frame;
  Frame.gpOffset = L.gpOffset;
  Frame.fpOffset = L.fpOffset;
  Frame.registerSaveArea = stackObject(&I, RegSaveAreaKey, ArrayType::get(I8, RegSaveAreaSize),
                                       builder->getInt32(1), Align(16));
  // A call with nothing in memory still gets a (small) overflow area: va_start
  // points overflow_arg_area somewhere, as the generic callee does.
  Frame.overflowArea = stackObject(&I, OverflowAreaKey,
                                   ArrayType::get(I64, std::max<int64_t>(L.overflowBytes, StackSlot) /
                                                           StackSlot),
                                   builder->getInt32(1), Align(16));
  objects.get(Frame.registerSaveArea).base->setName("va.reg_save_area");
  objects.get(Frame.overflowArea).base->setName("va.overflow_arg_area");
  state.memory.allocate(Frame.registerSaveArea);
  state.memory.allocate(Frame.overflowArea);
  for (const Placement &P : L.placements)
    storeAt(AbstractValue::pointer(P.inRegisters ? Frame.registerSaveArea : Frame.overflowArea,
                                   P.offset),
            Args[P.argument], I.getArgOperand(P.argument)->getType());
  return Frame;
}

AbstractValue Specializer::offsetPointer(const AbstractValue &P, int64_t Delta) {
  if (P.kind == AbstractValue::ObjectPointer)
    return AbstractValue::pointer(P.object, P.offset + Delta);
  Value *Moved =
      builder->CreateConstGEP1_64(Type::getInt8Ty(ctx), materialize(P, nullptr, false), Delta);
  if (P.kind == AbstractValue::ObjectPointerDyn)
    return AbstractValue::pointerDyn(P.object, Moved);
  AbstractValue R = AbstractValue::dynamic(Moved);
  if (auto Root = rootOf(P)) {
    R.dynamicRoot = Root->first;
    R.dynamicRootOffset = Root->second + Delta;
  }
  return R;
}

AbstractValue Specializer::loadAt(const AbstractValue &Addr, Type *Ty) {
  uint64_t Size = storeSize(Ty);
  int64_t Start = 0, Off = 0;
  if (const Cell *Tracked = trackedCell(Addr, Size, Start, Off))
    if (auto V = loadFromCell(*Tracked, Start, Off, Ty))
      return *V;
  // As evaluateLoad: pointers in bytes read untracked escape.
  if (Addr.kind == AbstractValue::ObjectPointer)
    state.memory.escapeContents(Addr.object, Addr.offset, Size);
  else if (Addr.kind == AbstractValue::ObjectPointerDyn)
    state.memory.escapeContents(Addr.object);
  LoadInst *L = builder->CreateAlignedLoad(Ty, materialize(Addr, nullptr, false),
                                           layout.getABITypeAlign(Ty));
  ++current->stats.instructionsResidual;
  return AbstractValue::dynamic(L);
}

void Specializer::storeAt(const AbstractValue &Addr, const AbstractValue &Val, Type *Ty) {
  uint64_t Size = storeSize(Ty);
  std::optional<Cell> Written;
  if (Val.isStatic())
    Written = Cell{Size, Val};
  // As evaluateStore: a pointer stays known only in a recorded cell of a
  // private object (MemoryState.h).
  bool Recorded = Written && Addr.kind == AbstractValue::ObjectPointer &&
                  state.memory.isPrivate(Addr.object);
  builder->CreateAlignedStore(materialize(Val, Ty, !Recorded), materialize(Addr, nullptr, false),
                              layout.getABITypeAlign(Ty));
  ++current->stats.instructionsResidual;
  recordWrite(Addr, Size, Written, nullptr);
}

void Specializer::evaluateVAStart(IntrinsicInst &I) {
  std::optional<VariadicFrame> Frame = state.top().variadic;
  if (!Frame) {
    // va_start in the spec function itself: its residual copy is variadic and
    // va_start there fills the va_list from the real registers.
    std::vector<AbstractValue> Args = {valueOf(I.getArgOperand(0))};
    return residualCall(I, Args, nullptr);
  }
  recordBindingTime(I, true);
  AbstractValue List = valueOf(I.getArgOperand(0));
  Type *I32 = Type::getInt32Ty(ctx), *Ptr = PointerType::getUnqual(ctx);
  storeAt(offsetPointer(List, GPOffsetField), fromConstant(ConstantInt::get(I32, Frame->gpOffset)),
          I32);
  storeAt(offsetPointer(List, FPOffsetField), fromConstant(ConstantInt::get(I32, Frame->fpOffset)),
          I32);
  storeAt(offsetPointer(List, OverflowAreaField), AbstractValue::pointer(Frame->overflowArea, 0),
          Ptr);
  storeAt(offsetPointer(List, RegSaveAreaField),
          AbstractValue::pointer(Frame->registerSaveArea, 0), Ptr);
}

/// Emitted as the memcpy it is on this ABI (the code generator lowers it so),
/// which later passes can see through, unlike the intrinsic.
void Specializer::evaluateVACopy(IntrinsicInst &I) {
  AbstractValue Dest = valueOf(I.getArgOperand(0)), Src = valueOf(I.getArgOperand(1));
  recordBindingTime(I, true);
  ConstantInt *Bytes = builder->getInt64(VaListSize);
  builder->CreateMemCpy(materialize(Dest, nullptr, false), Align(8),
                        materialize(Src, nullptr, false), Align(8), Bytes)
      ->setDebugLoc(I.getDebugLoc());
  ++current->stats.instructionsResidual;
  recordTransfer(Dest, Src, Bytes, /*IsSet=*/false, /*Volatile=*/false);
}

void Specializer::evaluateVAArg(VAArgInst &I) {
  AbstractValue List = valueOf(I.getPointerOperand());
  Type *Ty = I.getType();
  ArgClass C = classify(Ty);
  // The fields the ABI's algorithm reads, when they are all static.
  auto StaticField = [&](int64_t Field, Type *FieldTy) -> std::optional<AbstractValue> {
    int64_t Start = 0, Off = 0;
    if (List.kind != AbstractValue::ObjectPointer)
      return std::nullopt;
    const Cell *Tracked = trackedCell(offsetPointer(List, Field), storeSize(FieldTy), Start, Off);
    std::optional<AbstractValue> V =
        Tracked ? loadFromCell(*Tracked, Start, Off, FieldTy) : std::nullopt;
    return V && V->isStatic() ? V : std::nullopt;
  };
  Type *I32 = Type::getInt32Ty(ctx), *Ptr = PointerType::getUnqual(ctx);
  std::optional<AbstractValue> Offset =
      C == ArgClass::None ? std::nullopt
                          : StaticField(C == ArgClass::GP ? GPOffsetField : FPOffsetField, I32);
  auto *OffsetC = Offset && Offset->kind == AbstractValue::Constant
                      ? dyn_cast<ConstantInt>(Offset->constant)
                      : nullptr;
  int64_t Limit = C == ArgClass::GP ? FPAreaStart - GPSlot : RegSaveAreaSize - FPSlot;
  bool InRegisters = OffsetC && OffsetC->getSExtValue() <= Limit;
  std::optional<AbstractValue> Area =
      OffsetC ? StaticField(InRegisters ? RegSaveAreaField : OverflowAreaField, Ptr)
              : std::nullopt;
  if (!Area || Area->kind != AbstractValue::ObjectPointer) {
    // Not decided statically: the residual va_arg reads the va_list and the
    // areas it points to (which hold the real values) and writes the va_list.
    std::vector<AbstractValue> Ops = {List};
    if (List.refersToObject())
      state.memory.escapeContents(List.object);
    emitResidual(I, Ops, /*OperandsEscape=*/false);
    recordWrite(List, VaListSize, std::nullopt, nullptr);
    return;
  }
  recordBindingTime(I, true);
  ++current->stats.instructionsEvaluated;
  AbstractValue Result;
  if (InRegisters) {
    int64_t Off = OffsetC->getSExtValue();
    Result = loadAt(offsetPointer(*Area, Off), Ty);
    storeAt(offsetPointer(List, C == ArgClass::GP ? GPOffsetField : FPOffsetField),
            fromConstant(ConstantInt::get(I32, Off + (C == ArgClass::GP ? GPSlot : FPSlot))), I32);
  } else {
    Result = loadAt(*Area, Ty);
    storeAt(offsetPointer(List, OverflowAreaField), offsetPointer(*Area, StackSlot), Ptr);
  }
  setValue(I, Result);
}

} // namespace detail
} // namespace respec
