//===- ExternalFacts.cpp - Facts a spec declares about external code ------===//
//
// respec sees the code it is given; the C library and other external code it
// calls are opaque, and a residual call of unknown code forgets memory and lets
// its arguments escape (MemoryState.h). A spec may declare what it knows about
// such functions, at file scope (include/respec/respec.h):
//
// RESPEC_PURE(fn)
//   Contract: fn has no side effects (writes no memory, errno included; does no
//   I/O), always returns, for any arguments (respec may evaluate it on paths a
//   run does not take), and its result depends only on its argument values and
//   on the memory reachable from its pointer arguments — not on their addresses,
//   except that a pointer result may point into that memory.
//   Meaning: a residual call of fn forgets nothing and lets nothing escape; only
//   when fn returns a pointer do the objects its arguments reach escape (the
//   result may point into them). With static arguments over static memory, a
//   call of a C library function respec knows is evaluated at specialization
//   time (LibraryCalls.cpp lists them: string and memory functions, abs, byte
//   order, ffs). respec computes them itself, by the C standard, on the target's
//   data layout; where the standard leaves the result open (the magnitude of
//   memcmp, strcmp, strncmp; the sign of bcmp), a build-time specialization
//   folds only a zero result or one whose every use tests only what the
//   standard fixes, and a run-time one calls the process's own function on the
//   same bytes. Other pure functions, and calls whose arguments are dynamic,
//   stay calls. A function respec has the definition of is unfolded as usual.
//
// RESPEC_STABLE(fn, nbytes) / RESPEC_STABLE_AS(fn, contents)
//   Contract: fn takes no arguments, has no side effects and returns a pointer;
//   throughout each call of a specialized function it returns the same pointer
//   (in that thread), and the nbytes bytes at any pointer it returns never
//   change. Meaning: loads of those bytes are evaluated away and the call
//   becomes that pointer.
//
// RESPEC_STABLE_TABLE(fn, first, count) / RESPEC_STABLE_TABLE_AS(fn, first, contents)
//   Contract: fn takes no arguments, has no side effects and returns a pointer
//   to a pointer T (the address may differ between threads: glibc's
//   __ctype_b_loc returns a thread-local one); throughout each call of a
//   specialized function *fn() is the same T, and the count elements T[first],
//   ..., T[first + count - 1] (of the type T points to) never change for a given
//   T. Meaning: T[i] for a static i in that range is evaluated away, and the
//   residual code reads the table through T fetched once on entry.
//
// Where the contents come from:
//   * at run time (librespec-jit), respec calls fn in its own process (the
//     program's) and reads the memory;
//   * at build time only the _AS forms fold: the spec vouches for the contents
//     (an array of exactly the declared size; respec/libc.h's
//     RESPEC_C_LOCALE_CTYPE() vouches for glibc's "C" locale ctype tables).
// What is folded is then checked, not merely assumed: every specialized
// function that folded stable memory starts with a guard that fetches the
// pointer again and runs the spec's generic code instead when it differs —
// from the pointer read at run time, or, at build time, when the memory there
// does not hold the vouched contents (compared once per distinct pointer; the
// guard remembers the last pointer that matched and the last that did not).
// What remains assumed is the part no guard can check cheaply: the memory at a
// pointer fn returns does not change, and fn returns the same pointer
// throughout one specialized call. The generic build of the spec compares the
// vouched contents with the real memory once at startup (unless
// RESPEC_NO_CHECKS) and aborts with the declaration's file:line if they differ.
//
// Misuse is an error at the declaration: not a function, a stable function
// that takes arguments or does not return a pointer, a stable function respec
// has the definition of (it sees what it does), vouched contents of the wrong
// size, two declarations about one function; an unknown name is clang's error.
// `respec explain` lists each fact with the lines it decided; a fact that
// decided nothing in any spec function is a warning (an error with -Werror).
//
//===----------------------------------------------------------------------===//
#include "ExternalFacts.h"
#include "Diagnostics.h"
#include "llvm/IR/Constants.h"

using namespace llvm;

namespace respec {

namespace {
constexpr const char *AnnotationPrefix = "respec.";
constexpr unsigned BundleCLocaleCtype = 1;

/// C library functions with effects a pure function may not have: declaring
/// one pure is an error, not a fact.
const char *const NotPure[] = {
    // write memory through an argument
    "memcpy", "memmove", "memset", "bzero", "explicit_bzero", "strcpy", "strncpy", "stpcpy",
    "stpncpy", "strcat", "strncat", "strtok", "strtok_r", "strsep", "sprintf", "snprintf",
    "vsprintf", "vsnprintf", "qsort", "memccpy",
    // set errno, or depend on state other than their arguments
    "strtol", "strtoul", "strtoll", "strtoull", "strtoimax", "strtoumax", "strtod", "strtof",
    "strtold", "atoi", "atol", "atoll", "atof", "getenv", "secure_getenv", "strerror",
    "strcoll", "strxfrm", "setlocale", "localeconv", "rand", "random", "time", "clock",
    // allocate, do I/O, end the program
    "malloc", "calloc", "realloc", "free", "strdup", "strndup", "printf", "fprintf",
    "vprintf", "vfprintf", "puts", "fputs", "putchar", "fputc", "putc", "fwrite", "fread",
    "fgets", "getchar", "read", "write", "exit", "abort", "srand", "srandom"};
} // namespace

static std::string stringOf(Constant *C) {
  auto *G = dyn_cast_or_null<GlobalVariable>(C ? C->stripPointerCasts() : nullptr);
  if (!G || !G->hasInitializer())
    return "";
  auto *Data = dyn_cast<ConstantDataArray>(G->getInitializer());
  return Data && Data->isCString() ? Data->getAsCString().str() : "";
}

static int64_t integerField(Constant *Fields, unsigned Index) {
  auto *CI = dyn_cast_or_null<ConstantInt>(Fields->getAggregateElement(Index));
  return CI ? CI->getSExtValue() : 0;
}

bool ExternalFacts::isDeclarationGlobal(const GlobalVariable &V) {
  auto *Ty = dyn_cast<StructType>(V.getValueType());
  return Ty && Ty->hasName() && Ty->getName().startswith("struct.respec_fact_");
}

const ExternalFact *ExternalFacts::aboutName(StringRef Name) const {
  for (const ExternalFact &F : facts)
    if (F.function->getName() == Name)
      return &F;
  return nullptr;
}

ExternalFacts::ExternalFacts(Module &M) {
  GlobalVariable *Annotations = M.getGlobalVariable("llvm.global.annotations");
  if (!Annotations || !Annotations->hasInitializer())
    return;
  auto *Array = dyn_cast<ConstantArray>(Annotations->getInitializer());
  if (!Array)
    return;
  for (Value *Entry : Array->operands()) {
    auto *Fields = dyn_cast<ConstantStruct>(Entry);
    if (!Fields || Fields->getNumOperands() < 4)
      continue;
    std::string Annotation = stringOf(Fields->getOperand(1));
    if (!StringRef(Annotation).startswith(AnnotationPrefix) || Annotation == "respec.specialize")
      continue;
    std::string File = stringOf(Fields->getOperand(2));
    auto *Line = dyn_cast<ConstantInt>(Fields->getOperand(3));
    std::string Where = displayPath("", File) +
                        (Line ? ":" + std::to_string(Line->getZExtValue()) : std::string());
    ExternalFact Fact;
    StringRef Kind = StringRef(Annotation).drop_front(strlen(AnnotationPrefix));
    if (Kind == "pure")
      Fact.kind = ExternalFact::Pure;
    else if (Kind == "stable")
      Fact.kind = ExternalFact::Stable;
    else if (Kind == "stable_table")
      Fact.kind = ExternalFact::StableTable;
    else
      throw SpecError(Where, "unknown respec declaration '" + Annotation + "'");
    auto *Declared = dyn_cast<GlobalVariable>(Fields->getOperand(0)->stripPointerCasts());
    if (!Declared || !Declared->hasInitializer() || !isDeclarationGlobal(*Declared))
      throw SpecError(Where, "'" + Annotation + "' annotates something that is not a respec "
                             "declaration: write RESPEC_PURE(fn), RESPEC_STABLE(fn, n), ...");
    Constant *Init = Declared->getInitializer();
    Constant *Target = Init->getAggregateElement(0u);
    Target = Target ? cast<Constant>(Target->stripPointerCastsAndAliases()) : nullptr;
    const char *Macro = Fact.kind == ExternalFact::Pure     ? "RESPEC_PURE"
                        : Fact.kind == ExternalFact::Stable ? "RESPEC_STABLE"
                                                            : "RESPEC_STABLE_TABLE";
    auto *F = dyn_cast_or_null<Function>(Target);
    if (!F) {
      std::string Name = Target && Target->hasName() ? "'" + Target->getName().str() + "'"
                                                     : "its argument";
      throw SpecError(Where, std::string(Macro) + ": " + Name + " is not a function");
    }
    std::string Name = F->getName().str();
    Fact.function = F;
    Fact.where = Where;
    int64_t First = integerField(Init, 1), Count = integerField(Init, 2),
            Element = integerField(Init, 3), ContentsSize = integerField(Init, 5);
    Constant *Contents = Init->getAggregateElement(4);
    if (Contents && !Contents->isNullValue()) {
      Fact.contentsGlobal = dyn_cast<GlobalVariable>(Contents->stripPointerCasts());
      if (!Fact.contentsGlobal || !Fact.contentsGlobal->isConstant() ||
          !Fact.contentsGlobal->hasDefinitiveInitializer())
        throw SpecError(Where, std::string(Macro) + "_AS(" + Name +
                                   "): the contents must be a const array of the spec");
      Fact.contents = Fact.contentsGlobal->getInitializer();
    }
    if (integerField(Init, 6) & BundleCLocaleCtype)
      Fact.bundle = "RESPEC_C_LOCALE_CTYPE()";
    std::string As = Fact.contents ? "_AS" : "";
    std::string ContentsName = Fact.contentsGlobal ? Fact.contentsGlobal->getName().str() : "";

    FunctionType *Ty = F->getFunctionType();
    switch (Fact.kind) {
    case ExternalFact::Pure:
      Fact.declaration = "RESPEC_PURE(" + Name + ")";
      if (Ty->getReturnType()->isVoidTy())
        throw SpecError(Where, Fact.declaration + ": '" + Name +
                                   "' returns nothing: a pure function's only effect is its "
                                   "result");
      if (F->isDeclaration() && llvm::is_contained(NotPure, Name))
        throw SpecError(Where, Fact.declaration + ": the C library's '" + Name +
                                   "' is not pure (it writes memory, sets errno, depends on "
                                   "other state or does I/O)");
      break;
    case ExternalFact::Stable:
    case ExternalFact::StableTable: {
      bool Table = Fact.kind == ExternalFact::StableTable;
      Fact.declaration =
          std::string(Macro) + As + "(" + Name +
          (Table ? ", " + std::to_string(First) : std::string()) +
          (Fact.contents ? ", " + ContentsName : ", " + std::to_string(Count)) + ")";
      if (Ty->getNumParams() != 0 || Ty->isVarArg())
        throw SpecError(Where, Fact.declaration + ": '" + Name + "' takes arguments; a " +
                                   "stable function takes none");
      if (!Ty->getReturnType()->isPointerTy())
        throw SpecError(Where, Fact.declaration + ": '" + Name +
                                   "' does not return a pointer");
      if (!F->isDeclaration())
        throw SpecError(Where, Fact.declaration + ": respec has the definition of '" + Name +
                                   "' and unfolds it; declare stable memory of the code it "
                                   "is given with respec_static_memory()");
      if (Count <= 0 || Element <= 0)
        throw SpecError(Where, Fact.declaration + ": the stable memory is empty (a function "
                                                  "whose pointer alone is stable, like "
                                                  "__errno_location, needs no declaration)");
      Fact.elementSize = uint64_t(Element);
      Fact.offset = Table ? First * Element : 0;
      Fact.size = uint64_t(Count) * uint64_t(Element);
      if (Fact.contents &&
          (uint64_t(ContentsSize) != Fact.size ||
           M.getDataLayout().getTypeAllocSize(Fact.contents->getType()) != Fact.size))
        throw SpecError(Where, Fact.declaration + ": the contents have " +
                                   std::to_string(ContentsSize) + " bytes; the stable memory has " +
                                   std::to_string(Fact.size));
      break;
    }
    }
    if (const ExternalFact *Earlier = about(F))
      throw SpecError(Where, Fact.declaration + ": '" + Name + "' is declared already, at " +
                                 Earlier->where);
    Fact.index = facts.size();
    byFunction[F] = Fact.index;
    facts.push_back(std::move(Fact));
  }
}

} // namespace respec
