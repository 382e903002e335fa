//===- LibraryCalls.cpp - C library functions evaluated on static memory ---===//
//
// The C library functions a call of which respec evaluates, when the spec
// declares them RESPEC_PURE and their arguments (and the bytes they read) are
// static. respec computes each itself, as the C standard defines it, on the
// target's data layout (the module's: type sizes, byte order), so the build
// machine's C library plays no part and the result is the one any conforming
// target library computes:
//
//   strlen strnlen                       lengths
//   strchr strrchr memchr memrchr rawmemchr strpbrk strstr
//                                        a pointer into the first argument
//                                        (its object, at the offset found), or null
//   strspn strcspn                       counts
//   strcmp strncmp memcmp bcmp           comparisons (below)
//   abs labs llabs                       (the most negative value stays as it is)
//   ffs ffsl ffsll
//   htonl htons ntohl ntohs              by the target's byte order
//
// All of them are independent of the locale. A byte respec does not know (not
// static, outside its object) before the function's answer is decided keeps
// the call residual, as does a call whose declaration does not have the
// function's C signature.
//
// Comparisons: the standard fixes only the sign of memcmp, strcmp and strncmp
// and only whether bcmp returns zero; glibc returns a difference of bytes.
// Equal bytes give 0 everywhere. Otherwise a build-time specialization folds
// the call only when every use of its result compares it with zero (through
// the returns of unfolded callers: a qsort comparator returning strcmp's
// result), and then to -1 or 1; other uses keep the call, with a note. At run
// time (librespec-jit) the process's own function is called on copies of the
// same bytes, which gives the value the residual call would.
//
// The same holds for the residual calls, declared pure or not: LLVM's cleanup
// folds strcmp("apple", "apricot") to -1 where glibc returns -2, and respec
// makes arguments constant that were not constant to the generic build. So a
// residual call of one of these functions whose value is used other than
// compared with zero is marked nobuiltin (keepLibraryResultsExact): the C
// library computes it, as in the generic build.
//
//===----------------------------------------------------------------------===//
#include "SpecializerInternals.h"
#include "llvm/Analysis/ConstantFolding.h"
#include <cstring>

using namespace llvm;

namespace respec {
namespace detail {

std::optional<uint8_t> Specializer::staticByte(const AbstractValue &P, int64_t Index) {
  if (P.kind != AbstractValue::ObjectPointer)
    return std::nullopt;
  int64_t Off = P.offset + Index;
  const ObjectTable::Object &O = objects.get(P.object);
  if (objects.isStaticRange(P.object, Off, 1)) {
    if (auto *Data = dyn_cast<ConstantDataSequential>(O.contents))
      if (Data->getElementByteSize() == 1 && uint64_t(Off) < Data->getNumElements())
        return uint8_t(Data->getElementAsInteger(Off));
    if (auto *Byte = dyn_cast_or_null<ConstantInt>(ConstantFoldLoadFromConst(
            O.contents, Type::getInt8Ty(ctx), APInt(64, Off), layout)))
      return uint8_t(Byte->getZExtValue());
    return std::nullopt;
  }
  int64_t Start = 0, CellOff = 0;
  if (const Cell *C = trackedCell(AbstractValue::pointer(P.object, Off), 1, Start, CellOff))
    if (auto V = loadFromCell(*C, Start, CellOff, Type::getInt8Ty(ctx)))
      if (V->kind == AbstractValue::Constant)
        if (auto *Byte = dyn_cast<ConstantInt>(V->constant))
          return uint8_t(Byte->getZExtValue());
  return std::nullopt;
}

bool Specializer::onlyComparedWithZero(const Value *V, bool SignMatters, unsigned Depth) const {
  for (const User *U : V->users()) {
    if (auto *Cmp = dyn_cast<ICmpInst>(U)) {
      const Value *Other = Cmp->getOperand(0) == V ? Cmp->getOperand(1) : Cmp->getOperand(0);
      auto *Zero = dyn_cast<Constant>(Other);
      if (!Zero || !Zero->isNullValue() || (!SignMatters && Cmp->isSigned()))
        return false;
      continue;
    }
    // Returned from an unfolded callee: what its call site's users do with it.
    if (isa<ReturnInst>(U) && Depth + 1 < state.frames.size()) {
      const FrameState &Callee = state.frames[state.frames.size() - 1 - Depth];
      if (Callee.callSite && cast<Instruction>(U)->getFunction() == Callee.function &&
          onlyComparedWithZero(Callee.callSite, SignMatters, Depth + 1))
        continue;
    }
    return false;
  }
  return true;
}

namespace {
/// The C signatures respec checks a declaration against: 'p' a pointer, 'i'
/// an integer (of the target's width for it), 'v' nothing.
struct LibraryFunction {
  const char *name;
  char result;
  const char *params;
};
const LibraryFunction LibraryFunctions[] = {
    {"strlen", 'i', "p"},    {"strnlen", 'i', "pi"},   {"strchr", 'p', "pi"},
    {"strrchr", 'p', "pi"},  {"memchr", 'p', "pii"},   {"memrchr", 'p', "pii"},
    {"rawmemchr", 'p', "pi"}, {"strpbrk", 'p', "pp"},  {"strstr", 'p', "pp"},
    {"strspn", 'i', "pp"},   {"strcspn", 'i', "pp"},   {"strcmp", 'i', "pp"},
    {"strncmp", 'i', "ppi"}, {"memcmp", 'i', "ppi"},   {"bcmp", 'i', "ppi"},
    {"abs", 'i', "i"},       {"labs", 'i', "i"},       {"llabs", 'i', "i"},
    {"ffs", 'i', "i"},       {"ffsl", 'i', "i"},       {"ffsll", 'i', "i"},
    {"htonl", 'i', "i"},     {"htons", 'i', "i"},      {"ntohl", 'i', "i"},
    {"ntohs", 'i', "i"},
};

bool hasSignature(const CallBase &I, const LibraryFunction &L) {
  Type *R = I.getType();
  if ((L.result == 'p') != R->isPointerTy() || (L.result == 'i' && !R->isIntegerTy()))
    return false;
  if (I.arg_size() != strlen(L.params))
    return false;
  for (unsigned A = 0; A < I.arg_size(); ++A) {
    Type *T = I.getArgOperand(A)->getType();
    if (L.params[A] == 'p' ? !T->isPointerTy() : !T->isIntegerTy() || T->getIntegerBitWidth() > 64)
      return false;
  }
  return true;
}

/// Reads a C string (up to Limit bytes, without its terminator) or gives up.
template <typename ByteFn>
std::optional<std::string> cString(ByteFn &&Byte, uint64_t Limit = UINT64_MAX) {
  std::string S;
  for (uint64_t I = 0; I < Limit; ++I) {
    std::optional<uint8_t> B = Byte(I);
    if (!B)
      return std::nullopt;
    if (*B == 0)
      break;
    S.push_back(char(*B));
    if (S.size() > (1u << 24))
      return std::nullopt;
  }
  return S;
}
} // namespace

std::optional<AbstractValue>
Specializer::evaluateLibraryCall(CallBase &I, Function &Callee,
                                 const std::vector<AbstractValue> &Args, std::string &WhyNot) {
  StringRef Name = Callee.getName();
  const LibraryFunction *L = nullptr;
  for (const LibraryFunction &Candidate : LibraryFunctions)
    if (Name == Candidate.name)
      L = &Candidate;
  bool AllStatic = llvm::all_of(Args, [](const AbstractValue &A) { return A.isStatic(); });
  if (!L) {
    if (AllStatic)
      WhyNot = "declared pure, but it is not a C library function respec evaluates "
               "(include/respec/respec.h lists them)";
    return std::nullopt;
  }
  if (!hasSignature(I, *L)) {
    if (AllStatic)
      WhyNot = "declared pure, but its declaration is not the C library's " + Name.str() + "()";
    return std::nullopt;
  }
  if (!AllStatic)
    return std::nullopt;

  auto Integer = [&](unsigned A) -> std::optional<APInt> {
    if (auto *C = dyn_cast_or_null<ConstantInt>(Args[A].constant))
      return C->getValue();
    return std::nullopt;
  };
  auto ByteOf = [&](unsigned A) {
    return [this, &Args, A](uint64_t Index) { return staticByte(Args[A], int64_t(Index)); };
  };
  auto Result = [&](uint64_t V) {
    return AbstractValue::of(ConstantInt::get(I.getType(), V));
  };
  auto Found = [&](unsigned A, uint64_t Index) {
    return AbstractValue::pointer(Args[A].object, Args[A].offset + int64_t(Index));
  };
  auto Null = [&] { return fromConstant(ConstantPointerNull::get(cast<PointerType>(I.getType()))); };
  // Pointer arguments must point into objects whose bytes respec may know.
  for (unsigned A = 0; A < Args.size(); ++A)
    if (L->params[A] == 'p' && Args[A].kind != AbstractValue::ObjectPointer)
      return std::nullopt;

  // Integer functions.
  if (Name == "abs" || Name == "labs" || Name == "llabs") {
    std::optional<APInt> V = Integer(0);
    if (!V || V->getBitWidth() != I.getType()->getIntegerBitWidth())
      return std::nullopt;
    return AbstractValue::of(ConstantInt::get(I.getType(), V->isNegative() ? -*V : *V));
  }
  if (Name.startswith("ffs")) {
    std::optional<APInt> V = Integer(0);
    return V ? std::optional(Result(V->isZero() ? 0 : V->countTrailingZeros() + 1))
             : std::nullopt;
  }
  if (Name == "htonl" || Name == "ntohl" || Name == "htons" || Name == "ntohs") {
    std::optional<APInt> V = Integer(0);
    unsigned Width = Name.endswith("l") ? 32 : 16;
    if (!V || V->getBitWidth() != Width || I.getType()->getIntegerBitWidth() != Width)
      return std::nullopt;
    return AbstractValue::of(
        ConstantInt::get(I.getType(), layout.isLittleEndian() ? V->byteSwap() : *V));
  }

  // Lengths and searches.
  if (Name == "strlen" || Name == "strnlen") {
    uint64_t Limit = UINT64_MAX;
    if (Name == "strnlen") {
      std::optional<APInt> N = Integer(1);
      if (!N)
        return std::nullopt;
      Limit = N->getZExtValue();
    }
    std::optional<std::string> S = cString(ByteOf(0), Limit);
    return S ? std::optional(Result(S->size())) : std::nullopt;
  }
  if (Name == "strchr" || Name == "strrchr") {
    std::optional<APInt> C = Integer(1);
    std::optional<std::string> S = cString(ByteOf(0));
    if (!C || !S)
      return std::nullopt;
    char Wanted = char(C->getZExtValue());
    size_t At = Wanted == 0 ? S->size() : Name == "strchr" ? S->find(Wanted) : S->rfind(Wanted);
    return At == std::string::npos ? Null() : Found(0, At);
  }
  if (Name == "memchr" || Name == "rawmemchr" || Name == "memrchr") {
    std::optional<APInt> C = Integer(1);
    std::optional<APInt> N = Name == "rawmemchr" ? std::optional(APInt(64, 1u << 24)) : Integer(2);
    if (!C || !N)
      return std::nullopt;
    uint8_t Wanted = uint8_t(C->getZExtValue());
    uint64_t Count = N->getZExtValue();
    auto Byte = ByteOf(0);
    for (uint64_t K = 0; K < Count; ++K) {
      uint64_t Index = Name == "memrchr" ? Count - 1 - K : K;
      std::optional<uint8_t> B = Byte(Index);
      if (!B)
        return std::nullopt;
      if (*B == Wanted)
        return Found(0, Index);
    }
    return Name == "rawmemchr" ? std::nullopt : std::optional(Null());
  }
  if (Name == "strspn" || Name == "strcspn" || Name == "strpbrk") {
    std::optional<std::string> Set = cString(ByteOf(1));
    if (!Set)
      return std::nullopt;
    bool Accept = Name == "strspn";
    auto Byte = ByteOf(0);
    for (uint64_t K = 0;; ++K) {
      std::optional<uint8_t> B = Byte(K);
      if (!B)
        return std::nullopt;
      bool InSet = *B != 0 && Set->find(char(*B)) != std::string::npos;
      if (*B == 0 || InSet != Accept) {
        if (Name == "strpbrk")
          return *B == 0 ? Null() : Found(0, K);
        return Result(K);
      }
    }
  }
  if (Name == "strstr") {
    std::optional<std::string> Needle = cString(ByteOf(1));
    if (!Needle)
      return std::nullopt;
    // The haystack as far as it is known; an occurrence in it, or its end,
    // decides.
    std::string Hay;
    bool Ended = false;
    for (auto Byte = ByteOf(0); Hay.size() <= (1u << 24);) {
      std::optional<uint8_t> B = Byte(Hay.size());
      if (!B || *B == 0) {
        Ended = B.has_value();
        break;
      }
      Hay.push_back(char(*B));
    }
    size_t At = Hay.find(*Needle);
    if (At != std::string::npos)
      return Found(0, At);
    return Ended ? std::optional(Null()) : std::nullopt;
  }

  // Comparisons: where the first difference is, and what the standard fixes.
  bool Bytes = Name == "memcmp" || Name == "bcmp";
  std::optional<uint64_t> Limit;
  if (Name != "strcmp") {
    std::optional<APInt> N = Integer(2);
    if (!N)
      return std::nullopt;
    Limit = N->getZExtValue();
  }
  std::string A, B; // the bytes compared, through the first difference
  int Order = 0;
  auto ByteA = ByteOf(0), ByteB = ByteOf(1);
  for (uint64_t K = 0; !Limit || K < *Limit; ++K) {
    std::optional<uint8_t> X = ByteA(K), Y = ByteB(K);
    if (!X || !Y)
      return std::nullopt;
    A.push_back(char(*X));
    B.push_back(char(*Y));
    if (*X != *Y) {
      Order = *X < *Y ? -1 : 1;
      break;
    }
    if (!Bytes && *X == 0)
      break;
    if (A.size() > (1u << 24))
      return std::nullopt;
  }
  if (Order == 0)
    return Result(0);
  if (options.hostSymbol) {
    // In the program's process: its own function on the same bytes. memcmp
    // and bcmp are given all of them, as the residual call would be.
    if (void *Address = options.hostSymbol(Name)) {
      if (Bytes)
        for (uint64_t K = A.size(); K < *Limit; ++K) {
          std::optional<uint8_t> X = ByteA(K), Y = ByteB(K);
          if (!X || !Y)
            return std::nullopt;
          A.push_back(char(*X));
          B.push_back(char(*Y));
        }
      int Value;
      if (Bytes)
        Value = reinterpret_cast<int (*)(const void *, const void *, size_t)>(Address)(
            A.data(), B.data(), A.size());
      else if (Name == "strncmp")
        Value = reinterpret_cast<int (*)(const char *, const char *, size_t)>(Address)(
            A.c_str(), B.c_str(), A.size());
      else
        Value = reinterpret_cast<int (*)(const char *, const char *)>(Address)(A.c_str(),
                                                                               B.c_str());
      return AbstractValue::of(ConstantInt::getSigned(I.getType(), Value));
    }
  }
  if (onlyComparedWithZero(&I, /*SignMatters=*/Name != "bcmp"))
    return AbstractValue::of(ConstantInt::getSigned(I.getType(), Order));
  WhyNot = "the C standard fixes only " +
           std::string(Name == "bcmp" ? "whether its result is zero" : "the sign of its result") +
           ", and a use of the result depends on more";
  return std::nullopt;
}

/// Whether every user of V, in the residual code, compares it with zero.
static bool comparedWithZeroOnly(const Value *V, bool SignMatters) {
  return llvm::all_of(V->users(), [&](const User *U) {
    auto *Cmp = dyn_cast<ICmpInst>(U);
    if (!Cmp || (!SignMatters && Cmp->isSigned()))
      return false;
    const Value *Other = Cmp->getOperand(0) == V ? Cmp->getOperand(1) : Cmp->getOperand(0);
    auto *Zero = dyn_cast<Constant>(Other);
    return Zero && Zero->isNullValue();
  });
}

void Specializer::keepLibraryResultsExact() {
  for (BasicBlock &BB : *residual)
    for (Instruction &I : BB) {
      auto *Call = dyn_cast<CallInst>(&I);
      Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee || !Callee->isDeclaration())
        continue;
      StringRef Name = Callee->getName();
      if ((Name == "strcmp" || Name == "strncmp" || Name == "memcmp" || Name == "bcmp") &&
          !comparedWithZeroOnly(Call, Name != "bcmp"))
        Call->addFnAttr(Attribute::NoBuiltin);
    }
}

} // namespace detail
} // namespace respec
