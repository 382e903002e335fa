//===- HostMemory.cpp - Specializing on the running program's own memory ----===//
//
// Run-time specialization (respec/jit.h) specializes code for the process it
// runs in, on state that process holds now: a client handle, the operations
// table it points to, the buffers behind it. With SpecializeOptions::host set
// (HostProgram.h), the abstract state speaks of that process:
//
// Addresses. A static pointer into the program is a constant address (an
//   inttoptr), so address arithmetic and comparisons fold like any constant.
//   The generic code's mutable variables are the program's own: a reference
//   to one becomes its address in the program, so the residual code shares
//   it, file-static or not. Conversely an address at which the program holds
//   a function of the generic code becomes that function (a call through it
//   unfolds), and one inside a constant variable becomes that variable
//   (loads fold from its initializer, which is its contents).
//
// Cells. The program's memory is one escaped region behind the *host root*, a
//   null pointer: an address is its offset from it. A store through a constant
//   address records a cell there, as behind any dynamic root (MemoryState.h),
//   and a later load from that address forwards the value — until a write the
//   specializer cannot place (through a dynamic pointer, by code it cannot
//   see, into an escaped object) forgets it. The specialized code thereby only
//   forwards what it stored itself; other threads writing the same bytes
//   meanwhile would be a data race in the generic program too.
//
// Cursors. An address carries itself as its lowest (AbstractValue.h); where
//   two addresses meet, the pointer is dynamic but no lower than the lower of
//   them, and stays so while it only moves forward (getelementptr inbounds by
//   indices never negative). A write through it forgets the cells at and above
//   that address only: the position and operation of a stream whose buffer
//   follows them in one allocation stay known while the stream's cursor
//   writes the buffer (an XDR stream inside its RPC client handle).
//
// Static memory. respec_static_memory(p, n) at an address declares those bytes
//   fixed while the specialized code runs: they are copied now, once, and
//   loads from them fold from the copy. respec_static_variable("file.c:name")
//   does the same for a variable of the generic code by its name (a
//   file-static one cannot be named otherwise from a spec), and
//   respec_variable("file.c:name") is its address, so a predicate can say
//   that a pointer holds it (build time as well). The copies go
//   back to the caller (SpecializationResult::hostStaticMemory), who must not
//   run the code once the program's bytes differ from them: respec_jit checks
//   them before it hands out cached code. What loads from them is program
//   data, as what loads from a static object is at build time: a constant
//   address into them is a program counter (Generalization.cpp), and so is a
//   loop-carried one that a load goes through; a walk over the program's own
//   table that stops on a run-time match (XDR's xdr_union over its arms)
//   unrolls into one test per entry, and the exits keep the entry they
//   stopped at (a direct call to its routine).
//
// Without SpecializeOptions::host (build time) none of this applies: constant
// addresses are opaque, and respec_static_variable() declares the variable's
// initializer, like respec_static_memory() on its address.
//
//===----------------------------------------------------------------------===//
#include "SpecializerInternals.h"
#include "Diagnostics.h"
#include "Driver.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/ValueTracking.h"

using namespace llvm;

namespace respec {
namespace detail {

/// Addresses below this are not the program's memory (the null page).
static constexpr uint64_t LowestHostAddress = 4096;

std::optional<uint64_t> Specializer::hostAddress(const AbstractValue &A) const {
  if (!options.host || A.kind != AbstractValue::Constant || !A.constant->getType()->isPointerTy())
    return std::nullopt;
  auto *Address = dyn_cast_or_null<ConstantInt>(ConstantFoldConstant(
      ConstantExpr::getPtrToInt(A.constant, Type::getInt64Ty(ctx)), layout));
  if (!Address || Address->getZExtValue() < LowestHostAddress)
    return std::nullopt;
  return Address->getZExtValue();
}

Value *Specializer::hostRoot() const {
  return ConstantPointerNull::get(PointerType::getUnqual(ctx));
}

std::optional<std::pair<Value *, int64_t>> Specializer::memoryRoot(const AbstractValue &Addr) {
  if (auto Root = rootOf(Addr))
    return Root;
  if (auto Address = hostAddress(Addr))
    return std::make_pair(hostRoot(), int64_t(*Address));
  return std::nullopt;
}

AbstractValue Specializer::fromHostAddress(uint64_t Address) {
  uint64_t Offset = 0;
  if (GlobalValue *Symbol = options.host->symbolAt(Address, Offset)) {
    if (auto *F = dyn_cast<Function>(Symbol); F && Offset == 0)
      return AbstractValue::of(F);
    if (auto *G = dyn_cast<GlobalVariable>(Symbol); G && G->isConstant() && !G->isThreadLocal())
      return AbstractValue::pointer(objects.forGlobal(G, layout), int64_t(Offset));
  }
  return AbstractValue::addressInProgram(
      ConstantExpr::getIntToPtr(ConstantInt::get(Type::getInt64Ty(ctx), Address),
                                PointerType::getUnqual(ctx)),
      int64_t(Address));
}

std::optional<AbstractValue> Specializer::hostConstant(Constant *C) {
  if (!options.host)
    return std::nullopt;
  APInt Offset(layout.getIndexTypeSizeInBits(C->getType()), 0);
  const Value *Base = C->stripAndAccumulateConstantOffsets(layout, Offset, true);
  if (auto *G = dyn_cast<GlobalVariable>(Base)) {
    if (G->isConstant() || G->isThreadLocal())
      return std::nullopt;
    if (std::optional<uint64_t> Address = options.host->addressOf(*G)) {
      uint64_t At = *Address + Offset.getSExtValue();
      return AbstractValue::addressInProgram(
          ConstantExpr::getIntToPtr(ConstantInt::get(Type::getInt64Ty(ctx), At), C->getType()),
          int64_t(At));
    }
    return std::nullopt;
  }
  if (isa<GlobalValue>(Base))
    return std::nullopt;
  if (std::optional<uint64_t> Address = hostAddress(AbstractValue::of(C)))
    return fromHostAddress(*Address);
  return std::nullopt;
}

std::optional<AbstractValue> Specializer::loadHostStatic(const AbstractValue &Addr, Type *Ty) {
  std::optional<uint64_t> Address = hostAddress(Addr);
  if (!Address || !Ty->isSized())
    return std::nullopt;
  uint64_t Size = storeSize(Ty);
  const ObjectTable::HostRange *Range = objects.hostStatic(*Address, Size);
  if (!Range)
    return std::nullopt;
  ArrayRef<uint8_t> Bytes(Range->bytes.data() + (*Address - Range->address), Size);
  AbstractValue Loaded;
  if (Ty->isPointerTy()) {
    uint64_t Pointer = 0;
    memcpy(&Pointer, Bytes.data(), std::min<uint64_t>(Size, sizeof Pointer));
    Loaded = Pointer ? fromHostAddress(Pointer)
                     : AbstractValue::of(ConstantPointerNull::get(cast<PointerType>(Ty)));
  } else {
    Constant *Image = ConstantDataArray::get(ctx, Bytes);
    Constant *C = ConstantFoldLoadFromConst(Image, Ty, APInt(64, 0), layout);
    if (!C)
      return std::nullopt;
    Loaded = fromConstant(C);
  }
  Loaded.programData = true;
  return Loaded;
}

std::optional<Cell> Specializer::hostStaticCell(const AbstractValue &Src, uint64_t Size) {
  std::optional<uint64_t> Address = hostAddress(Src);
  const ObjectTable::HostRange *Range = Address ? objects.hostStatic(*Address, Size) : nullptr;
  if (!Range || !Size)
    return std::nullopt;
  ArrayRef<uint8_t> Bytes(Range->bytes.data() + (*Address - Range->address), Size);
  AbstractValue Copied = AbstractValue::of(ConstantDataArray::get(ctx, Bytes));
  Copied.programData = true;
  return Cell{Size, Copied};
}

bool Specializer::declareHostStatic(const AbstractValue &Ptr, uint64_t Size) {
  std::optional<uint64_t> Address = hostAddress(Ptr);
  if (!Address)
    return false;
  objects.addHostStatic(*Address, Size);
  return true;
}

/// The string a constant pointer argument points to, if it is a C string.
static std::optional<StringRef> constantString(Value *V) {
  StringRef S;
  if (!getConstantStringInfo(V, S))
    return std::nullopt;
  return S;
}

GlobalVariable *Specializer::variableNamed(StringRef Builtin, StringRef Spelled,
                                           const CallBase &I) {
  std::vector<GlobalVariable *> Found = variablesNamed(module, Spelled);
  if (Found.size() == 1)
    return Found.front();
  std::string Call = Builtin.str() + "(\"" + Spelled.str() + "\")";
  throw SpecError(I.getDebugLoc(),
                  Found.empty()
                      ? Call + ": the generic code has no such variable (a file-static "
                               "one is named \"file.c:name\")"
                      : Call + ": " + std::to_string(Found.size()) +
                            " variables have that name; say whose file (\"file.c:" +
                            (Spelled.contains(':') ? Spelled.rsplit(':').second : Spelled).str() + "\")");
}

/// The string literal naming a variable, a builtin's argument.
StringRef Specializer::spelledVariable(StringRef Builtin, const CallBase &I) {
  std::optional<StringRef> Spelled = constantString(I.getArgOperand(0));
  if (!Spelled)
    throw SpecError(I.getDebugLoc(), Builtin.str() + "() needs a string literal");
  return *Spelled;
}

void Specializer::evaluateVariableAddress(CallBase &I) {
  recordBindingTime(I, false);
  StringRef Spelled = spelledVariable("respec_variable", I);
  GlobalVariable *G = variableNamed("respec_variable", Spelled, I);
  // At run time a mutable variable is the program's (hostConstant); a
  // constant one is the generic code's, its contents the program's too.
  if (options.host && !G->isConstant() && !options.host->addressOf(*G))
    throw SpecError(I.getDebugLoc(), "respec_variable(\"" + Spelled.str() +
                                         "\"): the program holds no such variable (its symbol "
                                         "table is stripped, or it was optimized away)");
  setValue(I, valueOf(G));
}

void Specializer::evaluateStaticVariable(CallBase &I) {
  recordBindingTime(I, false);
  StringRef Spelled = spelledVariable("respec_static_variable", I);
  GlobalVariable *G = variableNamed("respec_static_variable", Spelled, I);
  uint64_t Size = layout.getTypeAllocSize(G->getValueType());
  if (options.host) {
    std::optional<uint64_t> Address = options.host->addressOf(*G);
    if (!Address)
      throw SpecError(I.getDebugLoc(), "respec_static_variable(\"" + Spelled.str() +
                                           "\"): the program holds no such variable (its "
                                           "symbol table is stripped, or it was optimized "
                                           "away)");
    objects.addHostStatic(*Address, Size);
    return;
  }
  ObjectTable::Object &Obj = objects.get(objects.forGlobal(G, layout));
  if (!Obj.contents)
    throw SpecError(I.getDebugLoc(), "respec_static_variable(\"" + Spelled.str() +
                                         "\"): the variable has no known initializer");
  Obj.staticRanges.push_back({0, Size});
}

void Specializer::collectHostStatic(SpecializationResult &Result) const {
  for (const ObjectTable::HostRange &R : objects.hostStaticRanges())
    Result.hostStaticMemory.emplace_back(R.address, R.bytes);
}

} // namespace detail
} // namespace respec
