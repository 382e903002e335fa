//===- Specializer.cpp - Online partial evaluation of LLVM IR -------------===//
//
// The algorithm is online, polyvariant block specialization over the LLVM IR of
// the spec and the generic code, in the family of LLPE and weval.
//
// A *specialized block* is a pair (original block, context). It has an abstract
// entry state: for every frame of the unfolded call stack, the abstract value of
// each SSA value live into the block, plus the partially-static memory
// (MemoryState.h). Its residual code is produced by walking the block's
// instructions over that state: an instruction whose operands are static is
// evaluated (constant folded, loads read from tracked cells or constant
// memory, branches decided, calls unfolded); otherwise a copy of it is emitted
// with the static operands materialized. Stores, external calls and volatile
// accesses are always emitted, in order: effects are never removed.
//
// A *context* records where a block is being specialized:
//   * Call(site): the block belongs to a callee unfolded at that call site. Each
//     call site is therefore specialized for its own static/dynamic pattern, and
//     the callee's returns all flow to the block after the call (FunctionInfo
//     splits blocks there), where their states meet: a call has a static result
//     when every return yields the same static value (return sensitivity).
//   * Loop(header, iteration): one unrolled iteration of a loop. At a loop header
//     the static part of the state is the iteration's key: a new key opens a new
//     iteration, a known key closes a residual loop. That unrolls loops on static
//     control, including an interpreter's `for (;;) switch (pc->op)` over a static
//     program, one residual copy per program counter, with no change to its source.
// Within one context, states reaching a block along different paths *meet*:
// values that differ become dynamic (residual phis), so code after a dynamic
// branch is not duplicated. Blocks are processed in priority order (contexts in
// creation order, blocks in reverse post-order); a block whose entry state gets
// lower is specialized again, until nothing changes.
//
// Variants. Within a context, paths that disagree on *program data* (a static
// value read from known memory, such as an interpreter's jump offsets, or a
// pointer into it) do not meet: the join block gets one variant per value, so a
// dynamic choice between two static program counters (`pc += c ? jt : jf`)
// keeps both static ("The Trick" of partial evaluation).
//
// Generalization. A loop whose iteration count depends on dynamic data would
// unroll forever. Three signs tell: the loop's own test (a branch that leaves the
// loop from a block every iteration runs) is dynamic while the static state keeps
// changing; a static loop-carried value (it carries an Origin) meets dynamic
// data in a comparison there, and changes from one iteration to the next; or,
// in an interpreter, the interpreted program comes back to a program counter
// with a different value in a slot it compares with dynamic data to choose its
// next instruction (a `jlt i, bound` of the interpreted program). Then the
// loop *site* (the loop in its call context: the same loop under another call
// still unrolls) is generalized one step; the attempt goes on in the new mode
// to find the other loops to generalize, then specialization restarts:
//   1. If the loop read static memory through loop-carried values (program
//      counters: an interpreter's pc, a format or pattern pointer), its
//      iterations are keyed on those alone; everything else that changes
//      widens. The residual code gets one block per program point, with the
//      dispatch evaluated away, and loops where the interpreted program loops:
//      the first Futamura projection on unmodified interpreters. A loop whose
//      unrolling ran out of a budget keys on the slots that cycled through few
//      values while others never repeated (a state machine's state beside its
//      step counter), as on program counters.
//   2. Otherwise, or when that does not converge either, the loop stays
//      residual: its first iteration is specialized in the state the loop is
//      entered with (peeled), then one context where every changing value
//      widens. Loops inside the peeled iteration are sites of their own.
// An undefined value is the bottom of the lattice: it never tells iterations
// apart (a temporary of one interpreted instruction carried around the loop).
// The budgets --max-unroll, --max-growth and --max-work do the same for loops
// that are merely too long; they are reported as budget hits.
//
//===----------------------------------------------------------------------===//
#include "SpecializerInternals.h"
#include "Diagnostics.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace respec {
namespace detail {

//===-- Driver -----------------------------------------------------------===//

SpecializationResult Specializer::run() {
  if (spec.isDeclaration())
    throw SpecError(spec.getSubprogram() ? spec.getSubprogram()->getFilename().str() : "",
                    "spec function '" + spec.getName().str() + "' has no body");
  if (!info.get(&spec).unfoldable())
    throw SpecError(info.get(&spec).notUnfoldableLoc,
                    "cannot specialize '" + spec.getName().str() +
                        "': " + info.get(&spec).notUnfoldableReason);
  for (;;) {
    try {
      attempt();
      break;
    } catch (RestartRequest &) {
      ++restarts;
      totalWork += attemptWork;
      if (restarts == 256 && !keepEverythingResidual) {
        keepEverythingResidual = true;
        generalizations.push_back({specLocation(), "no convergence after 256 restarts: "
                                                   "every loop and call kept residual"});
      } else if (restarts > 256 + 16) {
        throw SpecError(specLocation(), "internal error: specialization of '" +
                                            spec.getName().str() + "' does not converge");
      }
    }
  }
  finalize();
  SpecializationResult Result = collectResult();
  mergeStraightLineBlocks();
  std::string Problems;
  raw_string_ostream OS(Problems);
  if (verifyFunction(*residual, &OS))
    throw SpecError("", "internal error: specialized code does not verify: " + OS.str());
  return Result;
}

DebugLoc Specializer::specLocation() const {
  DISubprogram *SP = spec.getSubprogram();
  return SP ? DebugLoc(DILocation::get(ctx, SP->getLine(), 0, SP)) : DebugLoc();
}

void Specializer::reset() {
  if (residual)
    residual->eraseFromParent();
  residual = Function::Create(spec.getFunctionType(), GlobalValue::InternalLinkage,
                              spec.getName() + ".respec", module);
  residual->copyAttributesFrom(&spec);
  // Local again (copied attributes may say hidden, or not dso_local).
  residual->setLinkage(GlobalValue::InternalLinkage);
  residual->removeFnAttr(Attribute::NoInline);
  residual->removeFnAttr(Attribute::OptimizeNone);
  residual->setSubprogram(nullptr);
  residualEntry = BasicBlock::Create(ctx, "entry", residual);
  objects.clear();
  contexts.clear();
  contextIds.clear();
  contextPriority.clear();
  iterationIds.clear();
  iterationCounts.clear();
  variantIds.clear();
  variantCounts.clear();
  iterationsWithDynamicTest.clear();
  iterationsWithProgramDataTest.clear();
  iterationsWithOtherStaticTest.clear();
  blocks.clear();
  blocksById.clear();
  worklist.clear();
  residualInstructions = 0;
  processedBlocks = 0;
  attemptWork = 0;
  restartPending = false;
  generalizedInAttempt.clear();
  slotValuesSeen.clear();
  loopEntries.clear();
  outerOrigins.clear();
  programControlSeen.clear(); // keyed on context ids, which each attempt renumbers
  programDataWalks.clear();
  workByFunction.clear();
  copyTally.clear();
  symbolicRoots.clear();
  notes.clear();
  notedOnce.clear();
  resetExternalFacts();
}

void Specializer::attempt() {
  reset();
  for (const StaticMemoryRange &Range : staticMemory)
    if (Range.global)
      objects.get(objects.forGlobal(Range.global, layout))
          .staticRanges.push_back({Range.offset, Range.size});
    else
      objects.addHostStatic(uint64_t(Range.offset), Range.size);
  unsigned Root = internContext({});
  State Initial;
  FrameState Frame;
  Frame.function = &spec;
  for (auto [Formal, Actual] : llvm::zip(spec.args(), residual->args())) {
    Actual.setName(Formal.getName());
    Frame.env[&Formal] = boundArgument(Formal, Actual);
    // A recursive call that repeats them is the function itself (a variant).
    Frame.arguments.push_back(Frame.env[&Formal]);
  }
  Initial.frames.push_back(std::move(Frame));

  // The residual entry block only holds allocas and jumps to the specialized
  // entry block, so every specialized block may have predecessors.
  current = nullptr;
  SpecBlock &First = blockFor(&spec.getEntryBlock(), Root);
  BranchInst::Create(First.residual, residualEntry);
  First.entry = Initial;
  enqueue(First);

  while (!worklist.empty()) {
    auto It = worklist.begin();
    SpecBlock *SB = blocksById.at(It->second);
    worklist.erase(It);
    SB->queued = false;
    process(*SB);
    if (options.progress && ++processedBlocks % 2000 == 0)
      options.progress(processedBlocks, restarts);
  }
  if (restartPending)
    throw RestartRequest();
}

AbstractValue Specializer::boundArgument(Argument &Formal, Argument &Actual) {
  unsigned Index = Formal.getArgNo();
  if (Index >= bindings.size() || bindings[Index].kind == ArgumentBinding::Dynamic)
    return AbstractValue::dynamic(&Actual);
  const ArgumentBinding &B = bindings[Index];
  Type *Ty = Formal.getType();
  std::string Which = "argument " + std::to_string(Index + 1) + " of '" +
                      spec.getName().str() + "'";
  if (B.kind == ArgumentBinding::Constant)
    return fromConstant(B.constant);
  if (B.kind == ArgumentBinding::HostMemory) {
    if (!Ty->isPointerTy())
      throw SpecError("", Which + " is not a pointer: it cannot name static memory");
    if (B.size == 0 || !B.value)
      throw SpecError("", Which + ": static memory needs an address and a size");
    return AbstractValue::pointer(objects.forHostMemory(B.value, B.size, ctx), B.offset);
  }
  if (auto *IntTy = dyn_cast<IntegerType>(Ty))
    return fromConstant(ConstantInt::get(IntTy, B.value));
  if (Ty->isPointerTy())
    return fromConstant(ConstantExpr::getIntToPtr(
        ConstantInt::get(Type::getInt64Ty(ctx), B.value), Ty));
  throw SpecError("", Which + " has a type a static value cannot be given to");
}

//===-- Contexts ---------------------------------------------------------===//

unsigned Specializer::internContext(const ContextPath &Path) {
  auto [It, Inserted] = contextIds.emplace(Path, unsigned(contexts.size()));
  if (Inserted) {
    contexts.push_back(Path);
    // Priority: position of the context in a virtual fully-inlined, fully
    // unrolled reverse post-order. Callees come before the block after the call;
    // iteration k before iteration k+1; a loop before the blocks after it.
    std::vector<uint32_t> Priority;
    for (const ContextElement &E : Path) {
      if (E.kind == ContextElement::Call) {
        auto *Site = static_cast<const CallBase *>(E.site);
        Priority.push_back(info.get(Site->getFunction()).rpoIndex.lookup(Site->getParent()));
      } else {
        auto *Block = static_cast<const BasicBlock *>(E.site);
        Priority.push_back(info.get(Block->getParent()).rpoIndex.lookup(Block));
        Priority.push_back(E.iteration);
      }
    }
    contextPriority.push_back(std::move(Priority));
  }
  return It->second;
}

SpecBlock &Specializer::blockFor(BasicBlock *BB, unsigned Context) {
  auto &Slot = blocks[{BB, Context}];
  if (!Slot) {
    Slot = std::make_unique<SpecBlock>();
    Slot->id = blocksById.size();
    Slot->original = BB;
    Slot->context = Context;
    Slot->priority = contextPriority[Context];
    Slot->priority.push_back(info.get(BB->getParent()).rpoIndex.lookup(BB));
    Slot->residual = BasicBlock::Create(
        ctx, BB->getParent()->getName() + "." + (BB->hasName() ? BB->getName() : "bb"),
        residual);
    blocksById[Slot->id] = Slot.get();
  }
  return *Slot;
}

void Specializer::enqueue(SpecBlock &SB) {
  if (!SB.queued) {
    SB.queued = true;
    worklist.insert({SB.priority, SB.id});
  }
}

//===-- Block specialization ---------------------------------------------===//

void Specializer::process(SpecBlock &SB) {
  // Forget the previous version of this block.
  while (!SB.residual->empty())
    SB.residual->back().eraseFromParent();
  residualInstructions -= SB.stats.instructionsResidual;
  SB.outEdges.clear();
  SB.phis.clear();
  SB.bindingTimes.clear();
  SB.assumptions.clear();
  SB.factUses.clear();
  SB.factMerges.clear();
  SB.stats = SpecializeStats();
  SB.stats.blocksSpecialized = 1;

  current = &SB;
  state = *SB.entry;
  chargeStateCopy(SB);
  builder.emplace(SB.residual);
  blockEnded = false;

  // Dynamic values whose producer is in another residual block arrive as phis;
  // their incoming values are filled in by finalize().
  // (In the order of the generic code, not of addresses: the output must not
  // depend on where the values were allocated.)
  std::map<const Value *, Value *> EntryPhis;
  for (unsigned F = 0; F < state.frames.size(); ++F) {
    std::vector<Value *> Arriving;
    for (auto &[Original, Value] : state.frames[F].env)
      if ((Value.isDynamic() || Value.kind == AbstractValue::ObjectPointerDyn) &&
          !Value.residual)
        Arriving.push_back(Original);
    llvm::sort(Arriving, [&](Value *A, Value *B) { return definedBefore(A, B); });
    for (Value *Original : Arriving) {
      PHINode *Phi = builder->CreatePHI(Original->getType(), 2,
                                        Original->hasName() ? Original->getName() : "");
      state.frames[F].env.find(Original)->second.residual = Phi;
      SB.phis.push_back({Phi, F, Original});
      EntryPhis[Original] = Phi; // a value in several frames: the innermost's (normalizeForEntry)
    }
  }
  adoptCarriedRoots(EntryPhis);

  // At the header of an unrolled loop, static loop-carried values record where
  // they came from, so that a comparison with dynamic data can be traced back,
  // and the loop-carried pointers of this entry, so that a read of a cell
  // tells where the cell is relative to them (noteStateRead).
  const ContextPath &Path = contexts[SB.context];
  if (!Path.empty() && Path.back().kind == ContextElement::Loop &&
      Path.back().site == SB.original) {
    // (Past Origin::MaxEntry entries, values are stamped without one: their
    // reads go unnoted, which makes live-state keys coarser, nothing else.)
    uint32_t Entry = 0;
    if (loopEntries.size() < Origin::MaxEntry) {
      loopEntries.push_back(loopCarriedPointers(state));
      Entry = loopEntries.size();
    }
    for (auto &[Original, Value] : state.top().env)
      if (Value.isStatic())
        Value.origin = {SB.original, {Original, 0}, Entry, false, outerOrigin(Value.origin, SB.original)};
    for (auto &[Id, Obj] : state.memory.objects)
      for (auto &[Off, C] : Obj.cells)
        C.value.origin = {SB.original, SlotId::cell(Id, Off), Entry, true,
                          outerOrigin(C.value.origin, SB.original)};
  }

  for (Instruction &I : *SB.original) {
    if (isa<PHINode>(I))
      continue;
    evaluate(I);
    if (blockEnded)
      break;
  }
  residualInstructions += SB.stats.instructionsResidual;
  if (residualInstructions > options.maxGrowth)
    budgetExhausted("code-growth budget (--max-growth=" + std::to_string(options.maxGrowth) +
                    ")");
}

void Specializer::note(const Instruction &I, const std::string &Message) {
  if (notedOnce.insert({&I, Message}).second)
    notes.push_back({I.getDebugLoc(), Message});
}


} // namespace detail

/// Moves the body of From (a specialized variant) into the declaration Into.
static void installVariantBody(Function &From, Function &Into) {
  Into.splice(Into.end(), &From);
  for (auto [Old, New] : llvm::zip(From.args(), Into.args())) {
    New.setName(Old.getName());
    Old.replaceAllUsesWith(&New);
  }
  From.eraseFromParent();
}

/// The spec function, then every recursive variant its residual code (or a
/// variant's) calls, each specialized like a spec whose constant arguments are
/// bound; their statistics, notes and binding times count as the spec's.
SpecializationResult specialize(Function &Spec, const ModuleInfo &Info,
                                const SpecializeOptions &Options,
                                const std::vector<ArgumentBinding> &Bindings) {
  detail::RecursionVariants Variants;
  SpecializationResult Result = detail::Specializer(Spec, Info, Options, Bindings, Variants).run();
  while (auto Pending = Variants.nextPending()) {
    SpecializationResult Variant =
        detail::Specializer(*Pending->generic, Info, Options, Pending->bindings, Variants,
                            Pending->staticMemory)
            .run();
    installVariantBody(*Variant.residual, *Pending->function);
    Result.variants.push_back(Pending->function);
    Result.stats += Variant.stats;
    ++Result.stats.recursiveVariants;
    for (auto &[I, BT] : Variant.bindingTimes) {
      Result.bindingTimes[I].evaluated += BT.evaluated;
      Result.bindingTimes[I].residual += BT.residual;
    }
    Result.notes.insert(Result.notes.end(), Variant.notes.begin(), Variant.notes.end());
    Result.assumptions.insert(Result.assumptions.end(), Variant.assumptions.begin(),
                              Variant.assumptions.end());
    Result.hostStaticMemory.insert(Result.hostStaticMemory.end(),
                                   Variant.hostStaticMemory.begin(),
                                   Variant.hostStaticMemory.end());
  }
  // Variants are specialized on their caller's static memory too: once each.
  llvm::sort(Result.hostStaticMemory);
  Result.hostStaticMemory.erase(
      std::unique(Result.hostStaticMemory.begin(), Result.hostStaticMemory.end()),
      Result.hostStaticMemory.end());
  return Result;
}

} // namespace respec
