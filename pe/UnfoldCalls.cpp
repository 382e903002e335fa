//===- UnfoldCalls.cpp - Unfolded, devirtualized and residual calls ---------===//
//
// A call to code the specializer can see is unfolded: the callee's blocks are
// specialized in a Call context of their own, with the arguments' abstract
// values, and every return flows back to the block after the call (return
// sensitivity). A call through a static function pointer is a direct call.
// A variadic callee gets its variadic arguments laid out in memory as the ABI
// does (VariadicArguments.cpp). Calls that cannot be unfolded (external code,
// recursion that repeats its caller's static pattern, budgets) stay residual,
// and whatever the callee may reach escapes (MemoryState.h).
//
// Shared copies. Unfolding pays where the callee's work is static; a callee
// whose copies come out mostly residual (at least as many residual
// instructions of its own body as evaluated ones, and 16 or more per copy:
// SpecializeOptions::maxCopies) only multiplies code — a record stream's
// refill path, reached from every read of a reply, unfolded into each. After
// --max-copies such copies, its calls go to one variant per static argument
// pattern (the recursion machinery's), or to the generic function when no
// argument is static. The tally is per attempt, so the decision follows the
// code this specialization actually produced.
//
//===----------------------------------------------------------------------===//
#include "SpecializerInternals.h"
#include "Diagnostics.h"
#include "FunctionInfo.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace respec {
namespace detail {

//===-- Calls ------------------------------------------------------------===//

/// Whether Callee can be unfolded at call site I: the call passes an argument of
/// the declared type for every formal parameter and expects the declared return
/// type. A call site may pass more arguments than a fixed-arity callee declares:
/// C code calls `bool_t xdr_int(XDR *, int *)` through the variadic pointer type
/// `xdrproc_t` with an extra argument, which the callee never reads.
static bool unfoldableAt(const CallBase &I, const Function &Callee) {
  FunctionType *Site = I.getFunctionType(), *Defined = Callee.getFunctionType();
  if (Site == Defined)
    return true;
  if (Defined->isVarArg() || Site->getReturnType() != Defined->getReturnType() ||
      I.arg_size() < Defined->getNumParams())
    return false;
  for (unsigned A = 0; A < Defined->getNumParams(); ++A)
    if (I.getArgOperand(A)->getType() != Defined->getParamType(A))
      return false;
  return true;
}

/// A call through a function pointer (a call through an alias is direct).
static bool isIndirect(const CallBase &I) {
  return !isa<Function>(I.getCalledOperand()->stripPointerCastsAndAliases());
}

void Specializer::evaluateCall(CallBase &I) {
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return evaluateIntrinsic(*II);
  AbstractValue CalleeValue = valueOf(I.getCalledOperand());
  std::vector<AbstractValue> Args;
  for (Value *Arg : I.args())
    Args.push_back(valueOf(Arg));

  // A call through an alias (C's `__attribute__((alias))`, as dietlibc's
  // `isspace` for `__isspace_ascii`) calls its aliasee: respec takes the
  // sources it is given as the program, for an alias as for a weak function.
  Function *Callee = nullptr;
  if (CalleeValue.kind == AbstractValue::Constant)
    Callee = dyn_cast<Function>(CalleeValue.constant->stripPointerCastsAndAliases());
  if (Callee && Callee->getName() == "__respec_assume")
    return evaluateAssume(I);
  if (Callee && Callee->getName() == "__respec_static_memory")
    return evaluateStaticMemory(I);
  if (Callee && Callee->getName() == "__respec_static_variable")
    return evaluateStaticVariable(I);
  if (Callee && Callee->getName() == "__respec_variable")
    return evaluateVariableAddress(I);
  if (Callee && Callee->getName() == "__respec_fact")
    return evaluateLinkFact(I);
  if (Callee && Callee->getName().startswith("__respec_"))
    throw SpecError(I.getDebugLoc(), "unknown respec builtin '" + Callee->getName().str() + "'");
  // A function the spec declares pure or stable (EvaluateFacts.cpp).
  if (Callee && evaluateCallWithFacts(I, *Callee, Args))
    return;

  if (I.isInlineAsm()) {
    note(I, "inline assembly kept residual (treated as an unknown call)");
    return residualCall(I, Args, nullptr);
  }
  if (Callee && !Callee->isDeclaration() && unfoldableAt(I, *Callee)) {
    const FunctionInfo &CalleeInfo = info.get(Callee);
    unsigned Activations = 0;
    bool Repeats = false;
    for (const FrameState &F : state.frames)
      if (F.function == Callee) {
        ++Activations;
        Repeats |= sameArgumentPattern(F.arguments, Args);
      }
    unsigned Depth = state.frames.size() - 1;
    if (!CalleeInfo.unfoldable())
      note(I, "call to '" + Callee->getName().str() + "' kept residual: " +
                  CalleeInfo.notUnfoldableReason +
                  (CalleeInfo.notUnfoldableLoc
                       ? " at " + formatLocation(CalleeInfo.notUnfoldableLoc)
                       : std::string()));
    else if (Repeats) {
      if (Function *Variant = recursiveVariant(*Callee, Args))
        return residualCall(I, Args, Callee, Variant);
      note(I, "recursive call to '" + Callee->getName().str() +
                  "' kept residual: its static arguments repeat an enclosing call's");
    }
    else if (keepEverythingResidual || callsKeptResidual.count(Callee))
      note(I, "call to '" + Callee->getName().str() + "' kept residual: budget");
    else if (Depth >= options.maxInlineDepth || Activations >= options.maxRecursion)
      note(I, "call to '" + Callee->getName().str() +
                  "' kept residual: recursion/depth bound reached");
    else if (std::string Problem = Callee->isVarArg() ? variadicCallProblem(I, *Callee) : "";
             !Problem.empty())
      note(I, "call to '" + Callee->getName().str() + "' kept residual: " + Problem);
    else if (shareInsteadOfUnfolding(*Callee)) {
      if (Function *Variant = recursiveVariant(*Callee, Args))
        return residualCall(I, Args, Callee, Variant);
      note(I, "call to '" + Callee->getName().str() +
                  "' kept residual: its unfolded copies were mostly residual code");
    }
    else {
      if (isIndirect(I))
        ++current->stats.indirectCallsDevirtualized;
      return unfoldCall(I, *Callee, Args);
    }
  }
  residualCall(I, Args, Callee);
}

/// Whether two activations look alike to the specializer: the same static
/// arguments (a pointer to a callee's stack object counts by allocation site:
/// each level of a recursion has its own) and the same dynamic ones. Unfolding
/// such a recursion makes no progress.
bool Specializer::sameArgumentPattern(const std::vector<AbstractValue> &A,
                                      const std::vector<AbstractValue> &B) const {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I) {
    if (A[I].kind != B[I].kind)
      return false;
    if (A[I].refersToObject()) {
      const ObjectTable::Object &OA = objects.get(A[I].object), &OB = objects.get(B[I].object);
      bool SameSite = A[I].object == B[I].object || (OA.site && OA.site == OB.site);
      if (!SameSite || (A[I].kind == AbstractValue::ObjectPointer && A[I].offset != B[I].offset))
        return false;
    } else if (A[I].kind == AbstractValue::Constant && A[I].constant != B[I].constant) {
      return false;
    }
  }
  return true;
}

Function *RecursionVariants::get(Function &Callee, const std::vector<ArgumentBinding> &Bindings,
                                 const std::vector<StaticMemoryRange> &StaticMemory,
                                 unsigned Budget) {
  auto [It, New] = functions.try_emplace({&Callee, Bindings, StaticMemory}, nullptr);
  if (!New || functions.size() > Budget)
    return It->second;
  It->second = Function::Create(Callee.getFunctionType(), GlobalValue::InternalLinkage,
                                Callee.getName() + ".respec.recursion", Callee.getParent());
  It->second->copyAttributesFrom(&Callee);
  It->second->setLinkage(GlobalValue::InternalLinkage);
  pending.push_back({&Callee, Bindings, StaticMemory, It->second});
  return It->second;
}

std::optional<RecursionVariants::Variant> RecursionVariants::nextPending() {
  if (pending.empty())
    return std::nullopt;
  Variant Next = std::move(pending.back());
  pending.pop_back();
  return Next;
}

/// Static arguments the variant can be specialized for are those that mean
/// the same in any function: integers, functions, addresses of globals, and
/// (at run time) pointers into host memory declared static. A pointer to a
/// stack object of the caller is passed as a dynamic argument.
Function *Specializer::recursiveVariant(Function &Callee, const std::vector<AbstractValue> &Args) {
  std::vector<ArgumentBinding> Bindings(Callee.arg_size());
  bool AnyStatic = false;
  for (unsigned A = 0; A < Callee.arg_size(); ++A) {
    const AbstractValue &Arg = Args[A];
    ArgumentBinding &B = Bindings[A];
    if (Callee.getArg(A)->hasByValAttr() || !Arg.isStatic())
      continue;
    if (Arg.kind == AbstractValue::ObjectPointer) {
      const ObjectTable::Object &Obj = objects.get(Arg.object);
      if (Obj.isStack())
        continue;
      if (!Obj.global) { // host memory: its address is the base's integer
        auto *Address = dyn_cast<ConstantExpr>(Obj.base);
        if (!Address || Address->getOpcode() != Instruction::IntToPtr ||
            !Callee.getArg(A)->getType()->isPointerTy())
          continue; // stable memory (its base is a call), or an address as an integer
        B.kind = ArgumentBinding::HostMemory;
        B.value = cast<ConstantInt>(Address->getOperand(0))->getZExtValue();
        B.size = Obj.size;
        B.offset = Arg.offset;
        AnyStatic = true;
        continue;
      }
    }
    B.kind = ArgumentBinding::Constant;
    B.constant = cast<Constant>(materialize(Arg, Callee.getArg(A)->getType(), false));
    AnyStatic = true;
  }
  return AnyStatic ? variants.get(Callee, Bindings, objects.staticMemory(),
                                  options.maxRecursiveVariants)
                   : nullptr;
}

void Specializer::residualCall(CallBase &I, const std::vector<AbstractValue> &Args,
                               Value *Callee, Function *Target) {
  std::vector<AbstractValue> Ops = Args;
  Ops.push_back(Target ? AbstractValue::of(Target) : valueOf(I.getCalledOperand()));
  if (Callee && isIndirect(I))
    ++current->stats.indirectCallsDevirtualized;
  // Code respec can see writes only what it may reach from this call site
  // (CallEffects.h), or else what its summary says (WriteSummary.h); a
  // variant writes what the generic callee does.
  auto *Visible = dyn_cast_or_null<Function>(Callee);
  if (Visible && !Visible->isDeclaration() && options.maxCallEffectsWork)
    if (std::optional<CallEffects> Effects =
            analyzeCallEffects(*Visible, Args, state.memory, objects, layout, info.facts(),
                               info.libraryInfo(), options.maxCallEffectsWork)) {
      ++current->stats.callEffectsAnalyzed;
      emitResidual(I, Ops, /*OperandsEscape=*/false);
      applyCallEffects(*Effects);
      return;
    }
  const WriteSummary *Writes = Visible ? info.writes(Visible) : nullptr;
  if (Writes && Writes->anything)
    Writes = nullptr;
  bool ReadsOnly = I.onlyReadsMemory() || (Writes && Writes->writesNothing());
  MemoryState &Mem = state.memory;
  std::vector<ObjectId> Written;
  for (unsigned A = 0; A < Args.size(); ++A) {
    if (!Args[A].refersToObject())
      continue;
    ObjectId Obj = Args[A].object;
    // The callee may read every pointer stored in the object, even through a
    // nocapture argument, and write through it (MemoryState.h).
    Mem.escapeContents(Obj);
    if (I.isByValArgument(A))
      continue; // the callee gets a copy
    if (!I.doesNotCapture(A))
      Mem.escape(Obj);
    if (!ReadsOnly && !I.onlyReadsMemory(A))
      Written.push_back(Obj);
  }
  if (!Writes)
    for (ObjectId Obj : Written)
      Mem.writeSomewhereIn(Obj, nullptr);
  // A static callee operand is materialized as the function itself: the
  // residual call is direct.
  emitResidual(I, Ops, /*OperandsEscape=*/false);
  if (ReadsOnly)
    return;
  if (Writes)
    Mem.writeTyped(Written, Writes->accessTypes);
  else
    Mem.writeUnknown(nullptr);
}

/// Escapes first: a pointer the callee lets out may be written through from
/// pointers the caller does not track, in the same call.
void Specializer::applyCallEffects(const CallEffects &Effects) {
  MemoryState &Mem = state.memory;
  for (ObjectId Obj : Effects.escapes)
    Mem.escape(Obj);
  for (auto &[Obj, Writes] : Effects.objects) {
    for (auto [Offset, Size, AccessType] : Writes.ranges)
      Mem.mayWrite(Obj, Offset, Size, AccessType);
    if (!Writes.somewhere.empty())
      Mem.mayWriteSomewhere(Obj, std::vector<const MDNode *>(Writes.somewhere.begin(),
                                                             Writes.somewhere.end()));
  }
  if (!Effects.unknownWrites.empty())
    Mem.writeTyped({}, std::vector<const MDNode *>(Effects.unknownWrites.begin(),
                                                   Effects.unknownWrites.end()));
}

/// A by-value (byval) argument is a copy the callee owns: unfolding the callee
/// on the caller's object would apply its writes to the caller's object. The
/// copy is a stack object of the call site, filled by a residual memcpy.
AbstractValue Specializer::copyByValueArgument(CallBase &I, unsigned ArgNo,
                                               const AbstractValue &Actual) {
  Type *Ty = I.getParamByValType(ArgNo);
  Align Alignment = I.getParamAlign(ArgNo).value_or(layout.getABITypeAlign(Ty));
  ObjectId Copy = stackObject(&I, ArgNo + 1, Ty, builder->getInt32(1), Alignment);
  state.memory.allocate(Copy);
  AbstractValue CopyPointer = AbstractValue::pointer(Copy, 0);
  ConstantInt *Bytes = builder->getInt64(layout.getTypeAllocSize(Ty));
  builder->CreateMemCpy(materialize(CopyPointer, nullptr, false), Alignment,
                        materialize(Actual, nullptr, false), Alignment, Bytes);
  ++current->stats.instructionsResidual;
  recordTransfer(CopyPointer, Actual, Bytes, /*IsSet=*/false, /*Volatile=*/false);
  return CopyPointer;
}

bool Specializer::shareInsteadOfUnfolding(const Function &Callee) const {
  auto It = copyTally.find(&Callee);
  if (!options.maxCopies || It == copyTally.end())
    return false;
  const CopyTally &T = It->second;
  return T.copies >= options.maxCopies && T.residual >= T.evaluated &&
         T.residual >= uint64_t(options.sharedCopyResidual) * T.copies;
}

void Specializer::unfoldCall(CallBase &I, Function &Callee,
                             const std::vector<AbstractValue> &Args) {
  ++copyTally[&Callee].copies;
  ++current->stats.callsUnfolded;
  ++current->stats.instructionsEvaluated;
  recordBindingTime(I, false);
  FrameState Frame;
  Frame.callSite = &I;
  Frame.function = &Callee;
  Frame.arguments = Args;
  for (auto [Formal, Actual] : llvm::zip(Callee.args(), Args))
    Frame.env[&Formal] = I.isByValArgument(Formal.getArgNo())
                             ? copyByValueArgument(I, Formal.getArgNo(), Actual)
                             : Actual;
  if (Callee.isVarArg())
    Frame.variadic = passVariadicArguments(I, Callee, Args);
  // The caller keeps only what is live after the call.
  BasicBlock *Continuation = I.getParent()->getSingleSuccessor();
  const auto &Live = info.get(I.getFunction()).liveIn.lookup(Continuation);
  ValueEnv Kept;
  for (Value *V : Live)
    if (V != &I)
      if (auto It = state.top().env.find(V); It != state.top().env.end())
        Kept.insert(*It);
  state.top().env = std::move(Kept);
  State Out = state;
  Out.frames.push_back(std::move(Frame));
  ContextPath Path = contexts[current->context];
  Path.push_back({ContextElement::Call, &I, 0});
  builder->CreateBr(addEdge(&Callee.getEntryBlock(), std::move(Out), internContext(Path)));
  blockEnded = true;
}

void Specializer::evaluateIntrinsic(IntrinsicInst &I) {
  switch (I.getIntrinsicID()) {
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::var_annotation:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::donothing:
    return;
  case Intrinsic::ptr_annotation:
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
    recordBindingTime(I, false);
    return setValue(I, valueOf(I.getArgOperand(0)));
  case Intrinsic::expect:
    recordBindingTime(I, false);
    return setValue(I, valueOf(I.getArgOperand(0)));
  case Intrinsic::memcpy:
  case Intrinsic::memmove:
  case Intrinsic::memset:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memset_inline:
    return evaluateMemoryIntrinsic(I);
  // Elsewhere a va_list is another type, and these stay calls.
  case Intrinsic::vastart:
    if (hasModeledVaList(module))
      return evaluateVAStart(I);
    break;
  case Intrinsic::vacopy:
    if (hasModeledVaList(module))
      return evaluateVACopy(I);
    break;
  case Intrinsic::vaend:
    if (hasModeledVaList(module))
      return recordBindingTime(I, false); // does nothing on x86-64
    break;
  default:
    break;
  }
  std::vector<AbstractValue> Args;
  std::vector<Constant *> Cs;
  for (Value *Arg : I.args()) {
    Args.push_back(valueOf(Arg));
    if (Args.back().kind == AbstractValue::Constant)
      Cs.push_back(Args.back().constant);
  }
  if (Cs.size() == Args.size() && canConstantFoldCallTo(&I, I.getCalledFunction()))
    if (Constant *C = ConstantFoldCall(&I, I.getCalledFunction(), Cs)) {
      AbstractValue R = fromConstant(C);
      propagateOrigin(R, Args);
      ++current->stats.instructionsEvaluated;
      recordBindingTime(I, false);
      return setValue(I, R);
    }
  residualCall(I, Args, nullptr);
}

/// Calls Visit(offset, leaf) for every scalar inside an aggregate constant.
//===-- Control ----------------------------------------------------------===//

void Specializer::evaluateReturn(ReturnInst &I) {
  recordBindingTime(I, state.frames.size() == 1);
  AbstractValue Result;
  if (Value *RV = I.getReturnValue())
    Result = valueOf(RV);
  if (state.frames.size() == 1) {
    if (I.getReturnValue())
      builder->CreateRet(materialize(Result, I.getReturnValue()->getType(), true));
    else
      builder->CreateRetVoid();
    ++current->stats.instructionsResidual;
    blockEnded = true;
    return;
  }
  const CallBase *Site = state.top().callSite;
  State Out = state;
  Out.frames.pop_back();
  if (!Site->getType()->isVoidTy())
    Out.top().env[const_cast<CallBase *>(Site)] = Result;
  ContextPath Path = contexts[current->context];
  while (!(Path.back().kind == ContextElement::Call && Path.back().site == Site))
    Path.pop_back();
  Path.pop_back();
  ++current->stats.instructionsEvaluated;
  builder->CreateBr(addEdge(const_cast<BasicBlock *>(Site->getParent()->getSingleSuccessor()),
                            std::move(Out), internContext(Path)));
  blockEnded = true;
}


} // namespace detail
} // namespace respec
