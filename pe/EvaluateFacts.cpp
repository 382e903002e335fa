//===- EvaluateFacts.cpp - Calls and memory a spec declares facts about ----===//
//
// What the declarations of ExternalFacts.h (the contract is there) mean to the
// evaluator:
//
//   * A call of a RESPEC_PURE function: evaluated when LibraryCalls.cpp knows
//     the function and its arguments and the memory it reads are static;
//     otherwise a residual call that forgets no memory and lets nothing escape
//     (unless it returns a pointer, which may point into what its arguments
//     reach). The residual call is marked as reading memory only, so that
//     LLVM may also move and merge it.
//   * A call of a RESPEC_STABLE function: the pointer to its stable memory,
//     an object whose loads fold (ObjectTable::forKnownMemory, or host memory
//     at run time). A call of a RESPEC_STABLE_TABLE function stays (its
//     result may be thread-local) but names its memory: the load of the table
//     pointer through it (`*__ctype_b_loc()`) is the static pointer into the
//     table object, and loads from the table at static indices fold.
//   * glibc's ctype functions (isdigit, ..., toupper, tolower) read the same
//     tables: with a static argument they fold from the declared table.
//
// Stable memory is created on its first use in an attempt, and with it a guard
// at the top of the residual entry block: the specialized function fetches
// the pointer again (`*__ctype_b_loc()`) and compares it with the one read at
// run-time specialization, or at build time compares the memory there with
// the vouched contents (memcmp, once per distinct pointer: the last pointer
// that matched and the last that did not are remembered in two private
// globals). When the check fails, the function runs its generic body instead
// (a private copy of the spec function's body, made once). Specialized code
// thus never uses a folded table that is not the one in use: a program that
// switches locale runs generic code, not wrong code. The table pointer the
// guard fetched is the base the residual code reads the table through.
//
// Every use is recorded per specialized block, so the report (and the warning
// for a fact that decided nothing) counts only code that stays.
//
//===----------------------------------------------------------------------===//
#include "SpecializerInternals.h"
#include "Diagnostics.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace respec {
namespace detail {

void Specializer::resetExternalFacts() {
  stableMemory.clear();
  stableMemoryFacts.clear();
  guardTail = guardFallback = nullptr;
  guardedFacts.clear();
}

void Specializer::noteExternalFactUse(const ExternalFact &F, ExternalFactUse::Kind Kind,
                                      const Instruction &I) {
  // A use inside a C library's inline function (glibc's toupper, from
  // <ctype.h>) is reported where the code respec was given calls it.
  const Instruction *At = &I;
  for (size_t Frame = state.frames.size(); Frame-- > 1;) {
    const FrameState &FS = state.frames[Frame];
    if (At->getFunction() != FS.function || !FS.function->hasAvailableExternallyLinkage() ||
        !FS.callSite)
      break;
    At = FS.callSite;
  }
  current->externalFactUses.push_back({Kind, F.index, At});
}

/// A call through a function pointer (a call through an alias is direct).
static bool isIndirectCall(const CallBase &I) {
  return !isa<Function>(I.getCalledOperand()->stripPointerCastsAndAliases());
}

/// A residual call of a function declared pure or stable: it writes nothing,
/// so memory is kept, and pointers passed to it escape only through a
/// pointer result.
void Specializer::residualCallWithoutEffects(CallBase &I, const std::vector<AbstractValue> &Args) {
  std::vector<AbstractValue> Ops = Args;
  Ops.push_back(valueOf(I.getCalledOperand()));
  if (isIndirectCall(I))
    ++current->stats.indirectCallsDevirtualized;
  auto *Call = cast<CallBase>(emitResidual(I, Ops, /*OperandsEscape=*/false));
  Call->setOnlyReadsMemory();
  Call->addFnAttr(Attribute::WillReturn);
  Call->addFnAttr(Attribute::NoUnwind);
  if (I.getType()->isPointerTy())
    for (const AbstractValue &A : Args)
      if (A.refersToObject()) {
        state.memory.escape(A.object);
        state.memory.escapeContents(A.object);
      }
}

bool Specializer::evaluateCallWithFacts(CallBase &I, Function &Callee,
                                        const std::vector<AbstractValue> &Args) {
  const ExternalFact *F = info.facts().about(&Callee);
  if (!F) {
    if (std::optional<AbstractValue> R = evaluateCtypeFunction(I, Callee, Args)) {
      ++current->stats.instructionsEvaluated;
      recordBindingTime(I, false);
      setValue(I, *R);
      return true;
    }
    return false;
  }
  noteExternalFactUse(*F, ExternalFactUse::Reached, I);
  switch (F->kind) {
  case ExternalFact::Pure: {
    if (!Callee.isDeclaration()) {
      noteExternalFactUse(*F, ExternalFactUse::Unfolded, I);
      return false; // unfolded: the definition says more than the fact
    }
    std::string WhyNot;
    std::optional<AbstractValue> R = evaluateCtypeFunction(I, Callee, Args);
    if (!R)
      R = evaluateLibraryCall(I, Callee, Args, WhyNot);
    if (R) {
      propagateOrigin(*R, Args);
      ++current->stats.instructionsEvaluated;
      recordBindingTime(I, false);
      setValue(I, *R);
      noteExternalFactUse(*F, ExternalFactUse::Decided, I);
      return true;
    }
    if (!WhyNot.empty())
      note(I, "call to '" + Callee.getName().str() + "' kept residual: " + WhyNot);
    // Without the fact: forgets escaped memory unless the function is known
    // to only read, and lets its pointer arguments escape.
    bool Mattered = !I.onlyReadsMemory() ||
                    (!I.getType()->isPointerTy() &&
                     llvm::any_of(Args, [&](const AbstractValue &A) {
                       return A.refersToObject() && state.memory.isPrivate(A.object);
                     }));
    residualCallWithoutEffects(I, Args);
    if (Mattered)
      noteExternalFactUse(*F, ExternalFactUse::Kept, I);
    return true;
  }
  case ExternalFact::Stable: {
    const StableMemory &M = stableMemoryOf(*F);
    if (M.object) {
      ++current->stats.instructionsEvaluated;
      recordBindingTime(I, false);
      setValue(I, AbstractValue::pointer(*M.object, 0));
      noteExternalFactUse(*F, ExternalFactUse::Kept, I);
      return true;
    }
    residualCallWithoutEffects(I, Args);
    return true;
  }
  case ExternalFact::StableTable: {
    // The call stays (its result may be thread-local); the memory behind it
    // is named by the function, for the load of the table pointer.
    residualCallWithoutEffects(I, Args);
    AbstractValue &Result = state.top().env[&I];
    Result.dynamicRoot = &Callee;
    Result.dynamicRootOffset = 0;
    return true;
  }
  }
  return false;
}

std::optional<AbstractValue> Specializer::loadThroughStableRoot(LoadInst &I,
                                                                const AbstractValue &Addr) {
  auto Root = rootOf(Addr);
  if (!Root || Root->second != 0 || !I.getType()->isPointerTy() || I.isVolatile() ||
      !I.isUnordered())
    return std::nullopt;
  auto *Fn = dyn_cast<Function>(Root->first);
  const ExternalFact *F = Fn ? info.facts().about(Fn) : nullptr;
  if (!F || F->kind != ExternalFact::StableTable)
    return std::nullopt;
  const StableMemory &M = stableMemoryOf(*F);
  if (!M.object)
    return std::nullopt;
  noteExternalFactUse(*F, ExternalFactUse::Kept, I);
  return AbstractValue::pointer(*M.object, -F->offset);
}

bool Specializer::stableMemoryMayBe(ObjectId A, ObjectId B) const {
  auto Stable = [&](ObjectId Id) { return stableMemoryFacts.count(Id) != 0; };
  return (Stable(A) && !objects.get(B).isStack()) || (Stable(B) && !objects.get(A).isStack());
}

void Specializer::noteStableMemoryRead(ObjectId Obj, const Instruction &I) {
  auto It = stableMemoryFacts.find(Obj);
  if (It != stableMemoryFacts.end())
    noteExternalFactUse(info.facts().all()[It->second], ExternalFactUse::Decided, I);
}

const Specializer::StableMemory &Specializer::stableMemoryOf(const ExternalFact &F) {
  auto [It, New] = stableMemory.try_emplace(F.index);
  StableMemory &M = It->second;
  if (!New)
    return M;
  std::string Name = "'" + F.function->getName().str() + "'";
  if (spec.isVarArg()) {
    M.unusable = "the spec function is variadic: no guard can fall back to its generic code";
    return M;
  }
  if (options.hostSymbol) {
    // Run time: this process is the program; ask fn itself.
    void *Address = options.hostSymbol(F.function->getName());
    if (!Address) {
      M.unusable = Name + " is not a symbol of this process";
      return M;
    }
    void *Pointer = reinterpret_cast<void *(*)()>(Address)();
    if (Pointer && F.kind == ExternalFact::StableTable)
      Pointer = *static_cast<void **>(Pointer);
    if (!Pointer) {
      M.unusable = Name + " returned a null pointer";
      return M;
    }
    Constant *Expected = ConstantExpr::getIntToPtr(
        ConstantInt::get(Type::getInt64Ty(ctx), reinterpret_cast<uint64_t>(Pointer)),
        PointerType::getUnqual(ctx));
    if (!guardOnEntry(F, Expected)) {
      M.unusable = "no guard can be placed on entry";
      return M;
    }
    M.object = objects.forHostMemory(reinterpret_cast<uint64_t>(Pointer) + F.offset, F.size, ctx);
  } else if (F.contents) {
    Value *Pointer = guardOnEntry(F, nullptr);
    if (!Pointer) {
      M.unusable = "no guard can be placed on entry";
      return M;
    }
    IRBuilder<> B(guardTail->getTerminator());
    Value *Base = F.offset ? B.CreateInBoundsGEP(B.getInt8Ty(), Pointer, B.getInt64(F.offset))
                           : Pointer;
    M.object = objects.forKnownMemory(Base, F.contents, F.size);
  } else {
    M.unusable = std::string("its contents are known only at run time (respec embed); to fold "
                             "them at build time, vouch for them with ") +
                 (F.kind == ExternalFact::StableTable ? "RESPEC_STABLE_TABLE_AS"
                                                      : "RESPEC_STABLE_AS");
    return M;
  }
  stableMemoryFacts[*M.object] = F.index;
  return M;
}

Function *Specializer::genericFallback() {
  std::string Name = (spec.getName() + ".respec.generic").str();
  if (Function *Existing = module.getFunction(Name))
    return Existing;
  ValueToValueMapTy Map;
  Function *Copy = CloneFunction(&spec, Map);
  Copy->setName(Name);
  Copy->setLinkage(GlobalValue::InternalLinkage);
  Copy->setVisibility(GlobalValue::DefaultVisibility);
  Copy->setDSOLocal(true);
  stripDebugInfo(*Copy); // the spec's subprogram belongs to the spec function
  return Copy;
}

/// A private pointer-sized global of the module, null at first: the guards'
/// memory of the last pointer whose memory matched (or did not).
static GlobalVariable *guardCache(Module &M, const ExternalFact &F, StringRef What) {
  std::string Name = ("respec.guard." + What + "." + F.function->getName()).str();
  if (GlobalVariable *G = M.getGlobalVariable(Name, true))
    return G;
  auto *Ptr = PointerType::getUnqual(M.getContext());
  auto *G = new GlobalVariable(M, Ptr, false, GlobalValue::InternalLinkage,
                               ConstantPointerNull::get(Ptr), Name);
  G->setAlignment(Align(8));
  return G;
}

Value *Specializer::guardOnEntry(const ExternalFact &F, Constant *Expected) {
  if (spec.isVarArg())
    return nullptr;
  if (!guardTail)
    guardTail = residualEntry;
  if (!guardFallback) {
    // The generic code gets what the specialized code stands for: parameters
    // bound at run time have their static values (a caller passes anything).
    std::vector<Value *> Args;
    for (Argument &A : residual->args()) {
      unsigned N = A.getArgNo();
      if (N >= bindings.size() || bindings[N].kind == ArgumentBinding::Dynamic)
        Args.push_back(&A);
      else if (A.getType()->isPointerTy())
        Args.push_back(ConstantExpr::getIntToPtr(
            ConstantInt::get(Type::getInt64Ty(ctx), bindings[N].value), A.getType()));
      else if (A.getType()->isIntegerTy())
        Args.push_back(ConstantInt::get(A.getType(), bindings[N].value));
      else
        return nullptr; // boundArgument() refuses it
    }
    Function *Generic = genericFallback();
    guardFallback = BasicBlock::Create(ctx, "respec.fallback", residual);
    IRBuilder<> B(guardFallback);
    CallInst *Call = B.CreateCall(Generic, Args);
    Call->setAttributes(spec.getAttributes());
    Call->setCallingConv(spec.getCallingConv());
    if (Call->getType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Call);
  }
  Instruction *Term = guardTail->getTerminator();
  BasicBlock *Next = Term->getSuccessor(0);
  IRBuilder<> B(Term);
  CallInst *Fetch = B.CreateCall(F.function->getFunctionType(), F.function, {},
                                 F.function->getName());
  Fetch->setOnlyReadsMemory();
  Fetch->addFnAttr(Attribute::WillReturn);
  Fetch->addFnAttr(Attribute::NoUnwind);
  auto *Ptr = PointerType::getUnqual(ctx);
  Value *Pointer = Fetch;
  if (F.kind == ExternalFact::StableTable) {
    // *fn(): where the generic code would not read it, fn() may be null.
    BasicBlock *Load = BasicBlock::Create(ctx, "respec.guard.load", residual, Next);
    B.CreateCondBr(B.CreateIsNull(Fetch), guardFallback, Load);
    B.SetInsertPoint(Load);
    Pointer = B.CreateAlignedLoad(Ptr, Fetch, layout.getPointerABIAlignment(0),
                                  F.function->getName() + ".table");
  }
  BasicBlock *Ok = BasicBlock::Create(ctx, "respec.guard.ok", residual, Next);
  if (Expected) {
    B.CreateCondBr(B.CreateICmpEQ(Pointer, Expected), Ok, guardFallback);
  } else {
    GlobalVariable *Matched = guardCache(module, F, "matched");
    GlobalVariable *Differs = guardCache(module, F, "differs");
    auto AtomicLoad = [&](GlobalVariable *G) {
      LoadInst *L = B.CreateAlignedLoad(Ptr, G, Align(8));
      L->setAtomic(AtomicOrdering::Monotonic);
      return L;
    };
    auto AtomicStore = [&](GlobalVariable *G) {
      B.CreateAlignedStore(Pointer, G, Align(8))->setAtomic(AtomicOrdering::Monotonic);
    };
    BasicBlock *Seen = BasicBlock::Create(ctx, "respec.guard.seen", residual, Next);
    BasicBlock *Compare = BasicBlock::Create(ctx, "respec.guard.compare", residual, Next);
    BasicBlock *Match = BasicBlock::Create(ctx, "respec.guard.match", residual, Next);
    BasicBlock *Mismatch = BasicBlock::Create(ctx, "respec.guard.mismatch", residual, Next);
    // The caches start null: a null pointer is never taken for a match.
    B.CreateCondBr(B.CreateAnd(B.CreateICmpEQ(Pointer, AtomicLoad(Matched)),
                               B.CreateIsNotNull(Pointer)),
                   Ok, Seen);
    B.SetInsertPoint(Seen);
    B.CreateCondBr(B.CreateOr(B.CreateICmpEQ(Pointer, AtomicLoad(Differs)),
                              B.CreateIsNull(Pointer)),
                   guardFallback, Compare);
    B.SetInsertPoint(Compare);
    FunctionCallee Memcmp = module.getOrInsertFunction(
        "memcmp", FunctionType::get(B.getInt32Ty(), {Ptr, Ptr, B.getInt64Ty()}, false));
    Value *Start = F.offset ? B.CreateInBoundsGEP(B.getInt8Ty(), Pointer, B.getInt64(F.offset))
                            : Pointer;
    Value *Differ = B.CreateCall(Memcmp, {Start, F.contentsGlobal, B.getInt64(F.size)});
    B.CreateCondBr(B.CreateICmpEQ(Differ, B.getInt32(0)), Match, Mismatch);
    B.SetInsertPoint(Match);
    AtomicStore(Matched);
    B.CreateBr(Ok);
    B.SetInsertPoint(Mismatch);
    AtomicStore(Differs);
    B.CreateBr(guardFallback);
  }
  Term->eraseFromParent();
  BranchInst::Create(Next, Ok);
  guardTail = Ok;
  guardedFacts.insert(F.index);
  return Pointer;
}

//===-- glibc's ctype functions --------------------------------------------===//

namespace {
struct CtypeFunction {
  const char *name;
  const char *table;  ///< the *_loc function whose table it reads
  uint16_t mask;      ///< glibc's _IS* bit (little-endian encoding); 0: a mapping
};
const CtypeFunction CtypeFunctions[] = {
    {"isupper", "__ctype_b_loc", 0x0100},  {"islower", "__ctype_b_loc", 0x0200},
    {"isalpha", "__ctype_b_loc", 0x0400},  {"isdigit", "__ctype_b_loc", 0x0800},
    {"isxdigit", "__ctype_b_loc", 0x1000}, {"isspace", "__ctype_b_loc", 0x2000},
    {"isprint", "__ctype_b_loc", 0x4000},  {"isgraph", "__ctype_b_loc", 0x8000},
    {"isblank", "__ctype_b_loc", 0x0001},  {"iscntrl", "__ctype_b_loc", 0x0002},
    {"ispunct", "__ctype_b_loc", 0x0004},  {"isalnum", "__ctype_b_loc", 0x0008},
    {"toupper", "__ctype_toupper_loc", 0}, {"tolower", "__ctype_tolower_loc", 0},
};
} // namespace

/// glibc defines each of these as a lookup in the table its *_loc function
/// returns (isdigit(c) is `(*__ctype_b_loc())[c] & _ISdigit`; toupper(c) is
/// `c >= -128 && c < 256 ? (*__ctype_toupper_loc())[c] : c`), so a declared
/// table decides a call of the function as it decides the macro.
std::optional<AbstractValue>
Specializer::evaluateCtypeFunction(CallBase &I, Function &Callee,
                                   const std::vector<AbstractValue> &Args) {
  if (!Callee.isDeclaration() || Args.size() != 1 || !I.getType()->isIntegerTy(32) ||
      !I.getArgOperand(0)->getType()->isIntegerTy(32) || !layout.isLittleEndian())
    return std::nullopt;
  const CtypeFunction *Which = nullptr;
  for (const CtypeFunction &C : CtypeFunctions)
    if (Callee.getName() == C.name)
      Which = &C;
  Triple Target(module.getTargetTriple());
  if (!Which || !Target.isOSLinux() || !Target.isGNUEnvironment())
    return std::nullopt;
  const ExternalFact *Table = info.facts().aboutName(Which->table);
  auto *C = Args[0].kind == AbstractValue::Constant ? dyn_cast<ConstantInt>(Args[0].constant)
                                                    : nullptr;
  if (!Table || Table->kind != ExternalFact::StableTable || !C ||
      Table->elementSize != (Which->mask ? 2u : 4u))
    return std::nullopt;
  int64_t Index = C->getSExtValue();
  if (!Which->mask && (Index < -128 || Index >= 256))
    return AbstractValue::of(C); // toupper and tolower return it unchanged
  int64_t At = Index * int64_t(Table->elementSize) - Table->offset;
  if (At < 0 || uint64_t(At) + Table->elementSize > Table->size)
    return std::nullopt;
  const StableMemory &M = stableMemoryOf(*Table);
  if (!M.object)
    return std::nullopt;
  Type *Element = Type::getIntNTy(ctx, Table->elementSize * 8);
  auto *Entry = dyn_cast_or_null<ConstantInt>(ConstantFoldLoadFromConst(
      objects.get(*M.object).contents, Element, APInt(64, At), layout));
  if (!Entry)
    return std::nullopt;
  uint64_t Value = Which->mask ? Entry->getZExtValue() & Which->mask : Entry->getZExtValue();
  noteExternalFactUse(*Table, ExternalFactUse::Decided, I);
  return AbstractValue::of(ConstantInt::get(I.getType(), Value));
}

//===-- The report ---------------------------------------------------------===//

std::vector<ExternalFactReport> Specializer::collectExternalFacts() const {
  const std::vector<ExternalFact> &All = info.facts().all();
  std::vector<ExternalFactReport> Out(All.size());
  using Line = std::pair<std::string, unsigned>;
  std::vector<std::map<Line, DebugLoc>> Decided(All.size()), Kept(All.size());
  for (const ExternalFact &F : All) {
    ExternalFactReport &R = Out[F.index];
    R.where = F.where;
    R.declaration = F.declaration;
    R.bundle = F.bundle;
    R.guarded = guardedFacts.count(F.index);
    if (auto It = stableMemory.find(F.index); It != stableMemory.end())
      R.unusable = It->second.unusable;
  }
  for (auto &[Key, SB] : blocks) {
    if (!SB->residual)
      continue;
    for (const ExternalFactUse &U : SB->externalFactUses) {
      ExternalFactReport &R = Out[U.fact];
      const DebugLoc &Loc = U.at->getDebugLoc();
      Line L{Loc ? Loc->getFilename().str() : "", Loc ? Loc.getLine() : 0};
      switch (U.kind) {
      case ExternalFactUse::Decided:
        Decided[U.fact].emplace(L, Loc);
        break;
      case ExternalFactUse::Kept:
        Kept[U.fact].emplace(L, Loc);
        break;
      case ExternalFactUse::Reached:
        ++R.callsReached;
        break;
      case ExternalFactUse::Unfolded:
        ++R.callsUnfolded;
        break;
      }
    }
  }
  for (size_t F = 0; F < All.size(); ++F) {
    for (auto &[L, Loc] : Decided[F])
      Out[F].decided.push_back(Loc);
    for (auto &[L, Loc] : Kept[F])
      if (!Decided[F].count(L))
        Out[F].kept.push_back(Loc);
  }
  return Out;
}

} // namespace detail
} // namespace respec
