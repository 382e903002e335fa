//===- Generalization.cpp - Branches, loop iterations and meets -------------===//
//
// Control: branches decided or kept (a kept one tells each case's edge the
// value it tested: refineOnEdge, "The Trick"), the context a successor block is
// specialized in (loop iterations keyed by the static state, join variants for
// program data), generalization of loops under dynamic control, and the meet of
// two states reaching one block. The algorithm is described in Specializer.cpp.
//
// The generalization policy, per loop site (a loop header in one call context):
// Unrolled (an iteration per static state) -> KeyedOnProgramData (an iteration
// per value of the program counters, the slots through which the loop read
// static memory; other values meet) -> Residual (the first iteration peeled in
// its entry state, then every value meets) -> ResidualUnpeeled. Program
// counters and the slots that decide an interpreted program's jumps are learned
// while unrolling (noteProgramCounter, noteProgramControl) and survive restarts.
// A loop without program counters whose unrolling runs out of a budget while
// some slots cycle through few values and others never repeat (an interpreter's
// state beside a step counter) takes the few-valued slots as its program
// counters (fewValuedSlots): keyed on its state, counters widened.
// One without such a counter, whose slots come back to their values but are
// too many together (a backtracking matcher's frames vector, where the frames
// above the current one keep stale values), is KeyedOnLiveState: keyed on the
// loop-carried values its iterations were seen to use and the cells they were
// seen to read before writing them, counters widened, the rest met. What the
// keys are made of, and what is learned for them while unrolling, is in
// IterationKeys.cpp. A work or code-growth budget that runs out again under a
// loop keyed on its live state keeps it residual (budgetSite).
//
//===----------------------------------------------------------------------===//
#include "SpecializerInternals.h"
#include "Diagnostics.h"
#include "llvm/IR/CFG.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace respec {
namespace detail {


/// Whether Block can hold the loop's own test: it runs on every iteration (it
/// dominates every latch), as the header, a `do ... while` latch or the end of a
/// short-circuit `for (...; a && b; ...)` condition do. A check inside one case
/// of an interpreter's switch is part of an instruction, not the loop's test.
static bool isLoopTestBlock(const Loop &L, const BasicBlock *Block,
                            const DominatorTree &DT) {
  SmallVector<BasicBlock *, 4> Latches;
  L.getLoopLatches(Latches);
  return llvm::all_of(Latches, [&](BasicBlock *Latch) { return DT.dominates(Block, Latch); });
}

/// A static loop-carried value compared with dynamic data in the loop's own
/// test (see isLoopTestBlock) means the trip count
/// is dynamic. The same comparison elsewhere in the body (a bounds check, an
/// early exit on bad input) says nothing about the trip count.
void Specializer::taintIfLoopTest(const CmpInst &I, const AbstractValue &A) {
  if (!A.isStatic() || !A.origin)
    return;
  const BasicBlock *Header = A.origin.header;
  if (Header->getParent() != I.getFunction())
    return;
  const FunctionInfo &FI = info.get(I.getFunction());
  const Loop *L = FI.loopWithHeader(Header);
  if (L && isLoopTestBlock(*L, I.getParent(), *FI.domTree))
    taintedSlots[Header].insert(A.origin.slot);
}

BasicBlock *Specializer::branchTo(BasicBlock *Succ, bool LastEdge) {
  // Phis of the successor read the values flowing along this edge, all at once.
  std::vector<std::pair<Value *, AbstractValue>> PhiValues;
  for (PHINode &Phi : Succ->phis())
    PhiValues.emplace_back(&Phi, valueOf(Phi.getIncomingValueForBlock(current->original), false));
  // The block's last edge takes its final state; earlier edges copy it.
  State Out = LastEdge ? std::move(state) : state;
  ValueEnv Kept;
  for (Value *V : info.get(Succ->getParent()).liveIn.lookup(Succ))
    if (auto It = Out.top().env.find(V); It != Out.top().env.end())
      Kept.insert(*It);
  for (auto &[Phi, Value] : PhiValues)
    Kept[Phi] = Value;
  Out.top().env = std::move(Kept);
  collectGarbage(Out);
  unsigned Context = contextForSuccessor(Succ, Out);
  return addEdge(Succ, std::move(Out), Context);
}

void Specializer::evaluateBranch(BranchInst &I) {
  blockEnded = true;
  if (I.isUnconditional()) {
    recordBindingTime(I, false);
    builder->CreateBr(branchTo(I.getSuccessor(0), true));
    return;
  }
  AbstractValue Cond = valueOf(I.getCondition());
  if (Cond.kind == AbstractValue::Constant && isa<ConstantInt>(Cond.constant)) {
    ++current->stats.branchesFolded;
    ++current->stats.instructionsEvaluated;
    recordBindingTime(I, false);
    noteLoopTest({I.getSuccessor(0), I.getSuccessor(1)},
                 Cond.programData ? LoopTest::ProgramData : LoopTest::OtherStatic);
    builder->CreateBr(
        branchTo(I.getSuccessor(cast<ConstantInt>(Cond.constant)->isOne() ? 0 : 1), true));
    return;
  }
  recordBindingTime(I, true);
  ++current->stats.instructionsResidual;
  Value *Residual = materialize(Cond, nullptr, false);
  noteLoopTest({I.getSuccessor(0), I.getSuccessor(1)}, LoopTest::Dynamic);
  noteProgramControl(I.getCondition(), {I.getSuccessor(0), I.getSuccessor(1)});
  // `x == C` taken (or `x != C` not taken) tells that edge what x is.
  Value *Compared = nullptr;
  ConstantInt *Known = nullptr;
  unsigned EqualEdge = 0;
  if (auto *Cmp = dyn_cast<ICmpInst>(I.getCondition()); Cmp && Cmp->isEquality()) {
    Known = dyn_cast<ConstantInt>(Cmp->getOperand(1));
    Compared = Cmp->getOperand(0);
    EqualEdge = Cmp->getPredicate() == ICmpInst::ICMP_EQ ? 0 : 1;
  }
  BasicBlock *Targets[2];
  if (Known && !valueOf(Compared).isStatic()) {
    Targets[1 - EqualEdge] = branchTo(I.getSuccessor(1 - EqualEdge), false);
    unsigned Edges = I.getSuccessor(0) == I.getSuccessor(1) ? 2 : 1;
    Targets[EqualEdge] = branchToKnowing(I.getSuccessor(EqualEdge), true, Edges, Compared, Known);
  } else {
    Targets[0] = branchTo(I.getSuccessor(0), false);
    Targets[1] = branchTo(I.getSuccessor(1), true);
  }
  builder->CreateCondBr(Residual, Targets[0], Targets[1])->setDebugLoc(I.getDebugLoc());
}

/// branchTo for an edge taken only when V equals C, with V known on it
/// (refineOnEdge) and only on it: the refinement is made in a copy of the
/// state, and the state is put back for the terminator's other edges. Edges is
/// how many edges of the terminator go to Succ: several must bring it the same
/// values (the residual terminator has one phi entry per predecessor, filled
/// from one edge: pe/Residual.cpp, finalize), so theirs are not refined.
BasicBlock *Specializer::branchToKnowing(BasicBlock *Succ, bool LastEdge, unsigned Edges,
                                         Value *V, ConstantInt *C) {
  if (Edges != 1)
    return branchTo(Succ, LastEdge);
  std::optional<State> Unrefined;
  if (!LastEdge)
    Unrefined = state;
  refineOnEdge(V, C);
  BasicBlock *Target = branchTo(Succ, true);
  if (Unrefined)
    state = std::move(*Unrefined);
  return Target;
}

/// On an edge that a residual `switch` or `x == C` takes only when V equals C,
/// V is C: "The Trick" of partial evaluation (Jones, Gomard and Sestoft, 1993,
/// ch. 12), which turns a dynamic value of a known finite set of cases into a
/// static one in each case. So an interpreter's opcode that comes from run-time
/// memory is static again inside its case: the tests on it, the tables indexed
/// by it and the values computed from it fold. A value widened from a narrower
/// one (`switch ((int)op)`) refines its source too. The value is refined in the
/// state that the edge carries (the successor's phis and live values read it
/// from there); the default edge and the others keep it dynamic.
void Specializer::refineOnEdge(Value *V, ConstantInt *C) {
  ++current->stats.edgesRefined;
  for (;;) {
    state.top().env[V] = AbstractValue::of(C);
    if (auto *Load = dyn_cast<LoadInst>(V))
      return refineLoadedMemory(*Load, C);
    auto *Widened = dyn_cast<CastInst>(V);
    if (!Widened || !(isa<ZExtInst>(Widened) || isa<SExtInst>(Widened)))
      return;
    V = Widened->getOperand(0);
    unsigned Bits = V->getType()->getIntegerBitWidth();
    APInt Narrow = C->getValue().trunc(Bits);
    APInt Back = isa<ZExtInst>(Widened) ? Narrow.zext(C->getBitWidth())
                                          : Narrow.sext(C->getBitWidth());
    // (A source no longer live has nothing to refine.)
    auto Source = state.top().env.find(V);
    if (Back != C->getValue() || Source == state.top().env.end() || Source->second.isStatic())
      return;
    C = ConstantInt::get(C->getContext(), Narrow);
  }
}

/// The memory a refined value was loaded from holds it too, if nothing can
/// have written there since: the load is in the block the branch ends and no
/// instruction after it writes memory. Then the cell is recorded as if the
/// value had been stored (no residual store: the memory already holds it), so
/// code in the case that reads the field again (`switch (s->kind)` and then a
/// helper testing `s->kind`) folds. Only memory with a known place records it:
/// a tracked object or a dynamic root; elsewhere the value stays as it was.
void Specializer::refineLoadedMemory(LoadInst &Load, ConstantInt *C) {
  if (!Load.isUnordered() || Load.getParent() != current->original)
    return;
  for (const Instruction *After = Load.getNextNode(); !After->isTerminator();
       After = After->getNextNode())
    if (After->mayWriteToMemory())
      return;
  auto Pointer = state.top().env.find(Load.getPointerOperand());
  if (Pointer == state.top().env.end())
    return;
  const AbstractValue &Addr = Pointer->second;
  if (Addr.kind != AbstractValue::ObjectPointer && !memoryRoot(Addr))
    return;
  Cell Known{storeSize(Load.getType()), AbstractValue::of(C)};
  Known.accessType = Load.getMetadata(LLVMContext::MD_tbaa);
  recordWrite(Addr, Known.size, Known, Known.accessType);
}

void Specializer::evaluateSwitch(SwitchInst &I) {
  blockEnded = true;
  AbstractValue Cond = valueOf(I.getCondition());
  if (Cond.kind == AbstractValue::Constant && isa<ConstantInt>(Cond.constant)) {
    ++current->stats.branchesFolded;
    ++current->stats.instructionsEvaluated;
    recordBindingTime(I, false);
    noteLoopTest(std::vector<BasicBlock *>(succ_begin(&I), succ_end(&I)),
                 Cond.programData ? LoopTest::ProgramData : LoopTest::OtherStatic);
    auto Case = I.findCaseValue(cast<ConstantInt>(Cond.constant));
    builder->CreateBr(branchTo(Case->getCaseSuccessor(), true));
    return;
  }
  recordBindingTime(I, true);
  ++current->stats.instructionsResidual;
  Value *Residual = materialize(Cond, I.getCondition()->getType(), false);
  noteLoopTest(std::vector<BasicBlock *>(succ_begin(&I), succ_end(&I)), LoopTest::Dynamic);
  std::vector<std::pair<ConstantInt *, BasicBlock *>> Cases;
  SmallDenseMap<BasicBlock *, unsigned, 16> EdgesTo;
  for (BasicBlock *Succ : successors(&I))
    ++EdgesTo[Succ];
  BasicBlock *Default = branchTo(I.getDefaultDest(), I.getNumCases() == 0);
  for (auto &Case : I.cases()) {
    BasicBlock *Succ = Case.getCaseSuccessor();
    unsigned Edges = EdgesTo[Succ];
    Cases.emplace_back(Case.getCaseValue(),
                       branchToKnowing(Succ, Case.getCaseIndex() + 1 == I.getNumCases(), Edges,
                                       I.getCondition(), Case.getCaseValue()));
  }
  SwitchInst *S = builder->CreateSwitch(Residual, Default, Cases.size());
  for (auto [Value, Target] : Cases)
    S->addCase(Value, Target);
  S->setDebugLoc(I.getDebugLoc());
}

//===-- Edges, meets and generalization ----------------------------------===//

BasicBlock *Specializer::addEdge(BasicBlock *Target, State Out, unsigned TargetContext) {
  SpecBlock &T = blockFor(Target, TargetContext);
  // "The Trick" for interpreters: a dynamic choice between pieces of static
  // program data (`pc += A > k ? jt : jf`) must not meet into one dynamic
  // value. Paths that disagree on program data go to separate variants of the
  // join block instead.
  if (T.entry && !info.get(Target->getParent()).loopWithHeader(Target)) {
    // (Program data is static: normalization, below, does not change it.)
    std::string Key = programCounterKey(*T.entry, Out);
    if (!Key.empty()) {
      auto [It, New] = variantIds.try_emplace({TargetContext, Target, Key}, 0);
      if (New)
        It->second = variantCounts[{TargetContext, Target}]++;
      if (It->second < options.maxUnroll) {
        ContextPath Path = contexts[TargetContext];
        Path.push_back({ContextElement::Variant, Target, It->second});
        return addEdge(Target, std::move(Out), internContext(Path));
      }
    }
  }
  std::vector<ValueEnv> Values;
  for (const FrameState &F : Out.frames)
    Values.push_back(F.env);
  current->outEdges.push_back({&T, std::move(Values)});
  // The rest, normalized, is what the edge brings to the target's entry.
  normalizeForEntry(Out);
  if (!T.entry) {
    T.entry = std::move(Out);
    enqueue(T);
  } else {
    State Met = meetStates(*T.entry, Out, closesCycle(*current->original, *Target));
    if (!(Met == *T.entry)) {
      T.entry = std::move(Met);
      enqueue(T);
    }
  }
  return T.residual;
}

/// Whether the edge From -> To may close a cycle of the generic code: To is a
/// loop header, or the edge retreats in reverse post-order (a loop with two
/// entries, which has no natural header). A meet there widens.
bool Specializer::closesCycle(const BasicBlock &From, const BasicBlock &To) const {
  const FunctionInfo &FI = info.get(To.getParent());
  if (FI.loopWithHeader(&To))
    return true;
  return From.getParent() == To.getParent() &&
         FI.rpoIndex.lookup(&To) <= FI.rpoIndex.lookup(&From);
}

LoopSite Specializer::loopSite(ArrayRef<ContextElement> Path, const BasicBlock *Header) const {
  LoopSite Site;
  Site.header = Header;
  for (const ContextElement &E : Path)
    if (E.kind == ContextElement::Call ||
        (E.kind == ContextElement::Loop && E.iteration == PeeledIteration && E.site != Header))
      Site.scope.push_back(E.site);
  return Site;
}

LoopMode Specializer::loopMode(const LoopSite &Site) const {
  if (keepEverythingResidual)
    return LoopMode::ResidualUnpeeled;
  auto It = loopModes.find(Site);
  return It == loopModes.end() ? LoopMode::Unrolled : It->second;
}

unsigned Specializer::contextForSuccessor(BasicBlock *Succ, const State &Out) {
  ContextPath Path = contexts[current->context];
  const FunctionInfo &FI = info.get(Succ->getParent());
  // Join variants last until the next loop header or loop exit, where the
  // iteration key (which includes the values they disagreed on) takes over.
  size_t End = Path.size();
  while (End > 0 && Path[End - 1].kind == ContextElement::Variant)
    --End;
  bool LeavesLoop = End > 0 && Path[End - 1].kind == ContextElement::Loop &&
                    !FI.loops->getLoopFor(static_cast<const BasicBlock *>(Path[End - 1].site))
                         ->contains(Succ);
  if (FI.loopWithHeader(Succ) || LeavesLoop)
    Path.resize(End);
  // Leaving a loop ends its iteration context.
  while (!Path.empty() && Path.back().kind == ContextElement::Loop &&
         !FI.loops->getLoopFor(static_cast<const BasicBlock *>(Path.back().site))
              ->contains(Succ))
    Path.pop_back();
  if (!FI.loopWithHeader(Succ))
    return internContext(Path);
  LoopSite Site = loopSite(Path, Succ);
  LoopMode Mode = loopMode(Site);
  if (Mode == LoopMode::ResidualUnpeeled)
    return internContext(Path);
  if (Mode == LoopMode::Residual)
    return residualLoopContext(Path, Succ);

  bool BackEdge = !Path.empty() && Path.back().kind == ContextElement::Loop &&
                  Path.back().site == Succ;
  bool DynamicTest = false, OtherStaticTest = false;
  unsigned Iteration = BackEdge ? internContext(Path) : 0;
  if (BackEdge)
    Path.pop_back();
  unsigned Parent = internContext(Path);
  if (BackEdge) {
    bool StaticallyBounded = iterationsWithProgramDataTest.count(Iteration) &&
                             walksOn(Iteration, Parent, Succ, Out);
    if (Mode == LoopMode::Unrolled && !StaticallyBounded &&
        checkTaintedSlots(Site, Iteration, Out))
      return contextForSuccessor(Succ, Out); // in the site's new mode
    DynamicTest = iterationsWithDynamicTest.count(Iteration) && !StaticallyBounded;
    OtherStaticTest = iterationsWithOtherStaticTest.count(Iteration);
  }
  // A static test beside the dynamic one (`for (i = 1; i <= 4; i++) if (p >=
  // end) return`) may end the loop soon: it unrolls while it is short (its
  // iterations so far, this one included, at most the knob).
  if (DynamicTest && OtherStaticTest) {
    auto Count = iterationCounts.find({Parent, Succ});
    DynamicTest = Count != iterationCounts.end() &&
                  Count->second > options.maxUnrollWithDynamicExit;
  }
  if (Mode == LoopMode::Unrolled && checkProgramControl(Site, Parent, Out))
    return contextForSuccessor(Succ, Out);
  // Only a loop without program counters may need its few-valued slots as keys.
  if (Mode == LoopMode::Unrolled && !programCounterSlots.count(Succ))
    noteSlotValues(Succ, Out);
  std::string Key = Mode == LoopMode::Unrolled           ? iterationKey(Out)
                    : Mode == LoopMode::KeyedOnLiveState ? liveStateKey(Succ, Out)
                                                         : slotsKey(programCounterSlots[Succ], Out);
  auto [It, New] = iterationIds.try_emplace({Parent, Succ, Key}, 0);
  // (A loop keyed on its live state has its counters widened, so its own
  // test on them is dynamic; its keys are bounded by the state it reads.)
  if (New && DynamicTest && Mode != LoopMode::KeyedOnLiveState &&
      generalize(Site, "loop under dynamic control (its test depends on run-time data "
                       "while its static state keeps changing)",
                 false)) {
    iterationIds.erase(It);
    return contextForSuccessor(Succ, Out);
  }
  if (New) {
    unsigned &Count = iterationCounts[{Parent, Succ}];
    It->second = Count++;
    if (Count > options.maxUnroll &&
        generalize(Site, "unrolling budget (--max-unroll=" + std::to_string(options.maxUnroll) +
                             ") hit",
                   true)) {
      iterationIds.erase(It);
      return contextForSuccessor(Succ, Out);
    }
  }
  Path.push_back({ContextElement::Loop, Succ, It->second});
  return internContext(Path);
}

/// A loop kept residual still runs its first iteration in the state it is
/// entered with: entering from outside, the header gets an iteration context of
/// its own (the peeled iteration), and only the back edges meet into the one
/// generalized context. So what is static on entry stays static for one
/// iteration: an interpreter's outer loop that a return instruction re-enters
/// with another frame (Lua's `goto returning`) keeps the entry frame's program
/// counter, and its inner dispatch loop is specialized for that program; the
/// re-entries run the generic loop. Costs one copy of the loop body, so a loop
/// generalized because a budget ran out (--max-work, --max-unroll) is not peeled
/// (ResidualUnpeeled).
unsigned Specializer::residualLoopContext(ContextPath &Path, BasicBlock *Header) {
  if (!Path.empty() && Path.back().kind == ContextElement::Loop && Path.back().site == Header) {
    Path.pop_back(); // the back edge of the peeled iteration
    return internContext(Path);
  }
  const Loop *L = info.get(Header->getParent()).loopWithHeader(Header);
  bool Enters = current->original->getParent() != Header->getParent() ||
                !L->contains(current->original);
  if (Enters)
    Path.push_back({ContextElement::Loop, Header, PeeledIteration});
  return internContext(Path);
}

/// The state an iteration of the loop at Header began in: its header's entry
/// in the iteration's context (null before any edge reached it).
const State *Specializer::iterationEntry(const BasicBlock *Header, unsigned Iteration) const {
  auto Found = blocks.find({const_cast<BasicBlock *>(Header), Iteration});
  return Found == blocks.end() || !Found->second->entry ? nullptr : &*Found->second->entry;
}

/// Whether it generalized Site.
bool Specializer::checkTaintedSlots(const LoopSite &Site, unsigned IterationContext,
                                    const State &Out) {
  auto Tainted = taintedSlots.find(Site.header);
  if (Tainted == taintedSlots.end())
    return false;
  const State *Entry = iterationEntry(Site.header, IterationContext);
  if (!Entry)
    return false;
  for (const SlotId &Slot : Tainted->second) {
    const AbstractValue *Before = slotValue(*Entry, Slot), *After = slotValue(Out, Slot);
    if (Before && (!After || !After->sameStatic(*Before)))
      return generalize(Site, "loop under dynamic control", false);
  }
  return false;
}

/// An interpreter's loop runs one instruction per iteration; the interpreted
/// program's own loops show as program counters seen again. Seen again with a
/// different value in a slot that the program compares with dynamic data to
/// decide where to go next (programControlSlots), the interpreted loop is
/// under dynamic control: unrolling it would never end. Whether it generalized
/// Site.
bool Specializer::checkProgramControl(const LoopSite &Site, unsigned Parent, const State &Out) {
  auto Control = programControlSlots.find(Site.header);
  auto Counters = programCounterSlots.find(Site.header);
  if (Control == programControlSlots.end() || Counters == programCounterSlots.end())
    return false;
  std::string Values = slotsKey(Control->second, Out);
  auto [It, New] = programControlSeen.try_emplace(
      {Parent, Site.header, slotsKey(Counters->second, Out)}, Values);
  if (!New && It->second != Values &&
      generalize(Site, "the interpreted program loops under dynamic control", false))
    return true;
  It->second = Values;
  return false;
}

/// Called for a conditional branch: if it is one of the loop's own tests (see
/// isLoopTestBlock; with a successor outside the loop), this iteration has a
/// test of that kind. An iteration with a dynamic test is under dynamic
/// control unless it also has one on program data: a walk over a static table
/// or list that stops early on a dynamic match (`for (c = choices; c->proc;
/// c++) if (c->value == tag) return ...`) ends where the table does, and
/// unrolling it stops by itself. A static test on other data (a counter
/// against a bound) may end the loop soon or never (`i < 1000000`): such a
/// loop unrolls for --max-unroll-dynamic-exit iterations before it counts as
/// under dynamic control.
void Specializer::noteLoopTest(ArrayRef<BasicBlock *> Successors, LoopTest Kind) {
  const BasicBlock *Block = current->original;
  const FunctionInfo &FI = info.get(Block->getParent());
  const Loop *L = FI.loops->getLoopFor(Block);
  if (!L || !isLoopTestBlock(*L, Block, *FI.domTree))
    return;
  if (llvm::all_of(Successors, [&](BasicBlock *S) { return L->contains(S); }))
    return;
  ContextPath Path = contexts[current->context];
  while (!Path.empty() && !(Path.back().kind == ContextElement::Loop &&
                            Path.back().site == L->getHeader())) {
    if (Path.back().kind == ContextElement::Call)
      return; // the loop is not unrolled in this frame
    Path.pop_back();
  }
  if (!Path.empty())
    (Kind == LoopTest::Dynamic       ? iterationsWithDynamicTest
     : Kind == LoopTest::ProgramData ? iterationsWithProgramDataTest
                                     : iterationsWithOtherStaticTest)
        .insert(internContext(Path));
}

/// Whether the iteration Iteration of the loop at Header (in the context
/// Parent), ending in Out, moves on through the program data it tests: its
/// program counters are static, not all where the iteration began, and hold
/// values no other iteration of the loop in the same parent context ended
/// with. A walk over a table or list never comes back to an entry, so its test
/// on program data bounds it. Bounded by nothing are:
///  - an interpreter whose program loops (PCRE2's match() backtracking to a
///    pattern position it has been at): it comes back;
///  - an iteration whose counter became run-time data on the way (match()
///    popping a backtracking frame from the caller's memory): it walks nowhere
///    known;
///  - an iteration that ends where it began (pcre2_match()'s loop over start
///    positions, whose pointer to the pattern stays put while the subject
///    pointer moves): it does not walk, and neither does a loop without
///    program counters.
bool Specializer::walksOn(unsigned Iteration, unsigned Parent, const BasicBlock *Header,
                          const State &Out) {
  auto Counters = programCounterSlots.find(Header);
  if (Counters == programCounterSlots.end())
    return false;
  const State *Entry = iterationEntry(Header, Iteration);
  if (!Entry)
    return false;
  bool Moved = false;
  for (const SlotId &Slot : Counters->second) {
    const AbstractValue *Before = slotValue(*Entry, Slot),
                        *After = slotValue(Out, Slot);
    if (!After || !After->isStatic())
      return false;
    Moved |= !Before || !Before->sameStatic(*After);
  }
  if (!Moved)
    return false;
  auto [It, New] =
      programDataWalks.try_emplace({Parent, Header, slotsKey(Counters->second, Out)}, Iteration);
  return New || It->second == Iteration;
}

/// Called for a residual conditional branch: a static loop-carried value
/// compared with dynamic data, where every way stays in the loop, decides where
/// the loop goes next (an interpreter running a conditional jump of its
/// program); checkProgramControl watches that value.
void Specializer::noteProgramControl(const Value *Condition, ArrayRef<BasicBlock *> Successors) {
  while (auto *Cast = dyn_cast<CastInst>(Condition))
    Condition = Cast->getOperand(0);
  auto *Compare = dyn_cast<CmpInst>(Condition);
  if (!Compare)
    return;
  const FunctionInfo &FI = info.get(current->original->getParent());
  const auto &Env = state.top().env;
  for (Value *Operand : Compare->operands()) {
    auto It = Env.find(Operand);
    if (It == Env.end() || !It->second.isStatic() || !It->second.origin)
      continue;
    const Origin &From = It->second.origin;
    const Loop *L = FI.loopWithHeader(From.header);
    if (L && L->contains(current->original) &&
        llvm::all_of(Successors, [&](BasicBlock *S) { return L->contains(S); }))
      programControlSlots[From.header].insert(From.slot);
  }
}

/// Called for a load from static memory: a loop-carried value in its address
/// is a program counter of that loop (an interpreter's pc, a format pointer).
void Specializer::noteProgramCounter(const AbstractValue &Address) {
  if (Address.origin && Address.origin.header->getParent() == current->original->getParent())
    programCounterSlots[Address.origin.header].insert(Address.origin.slot);
}

/// Program data: a static pointer into memory whose contents are known (an
/// interpreter's program counter), or a static value read from such memory
/// (its operands and jump offsets).
bool Specializer::isProgramCounter(const AbstractValue &A) const {
  if (!A.isStatic())
    return false;
  if (A.programData)
    return true;
  if (std::optional<uint64_t> Address = hostAddress(A)) // at run time, into the host's memory
    return objects.hostStatic(*Address, 1) != nullptr;
  if (A.kind != AbstractValue::ObjectPointer)
    return false;
  const ObjectTable::Object &Obj = objects.get(A.object);
  return !Obj.isStack() && (Obj.constantContents || !Obj.staticRanges.empty());
}

/// The program-counter values of Arriving that Entry disagrees on, as a key; ""
/// when they agree (the states may meet).
std::string Specializer::programCounterKey(const State &Entry, const State &Arriving) {
  std::string Key;
  raw_string_ostream OS(Key);
  for (size_t F = 0; F < Entry.frames.size() && F < Arriving.frames.size(); ++F)
    for (auto &[V, Old] : Entry.frames[F].env) {
      auto It = Arriving.frames[F].env.find(V);
      if (It != Arriving.frames[F].env.end() && isProgramCounter(Old) &&
          isProgramCounter(It->second) && !Old.sameStatic(It->second))
        OS << F << ':' << static_cast<const void *>(V) << '=' << It->second.object << '+'
           << It->second.offset << '/' << static_cast<const void *>(It->second.constant)
           << ';';
    }
  for (auto &[Id, Obj] : Entry.memory.objects) {
    auto It = Arriving.memory.objects.find(Id);
    if (It == Arriving.memory.objects.end())
      continue;
    for (auto &[Off, Old] : Obj.cells) {
      auto C = It->second.cells.find(Off);
      if (C != It->second.cells.end() && isProgramCounter(Old.value) &&
          isProgramCounter(C->second.value) && !Old.value.sameStatic(C->second.value))
        OS << '#' << Id << '+' << Off << '=' << C->second.value.object << '+'
           << C->second.value.offset << '/'
           << static_cast<const void *>(C->second.value.constant) << ';';
    }
  }
  return OS.str();
}

/// Generalizes a loop site one step. A loop that read static
/// memory through loop-carried values (an interpreter's program counter, a
/// format or pattern pointer) is first keyed on those alone: the residual code
/// gets one block per program point and loops where the interpreted program
/// loops, while the values that keep changing (the interpreted program's
/// counters and data) widen. Otherwise, or if that still does not converge, the
/// loop is kept residual: its first iteration in the state it is entered with,
/// then one context where every changing value widens; when the work budget ran
/// out (or a residual loop still did not converge), one context from the entry.
///
/// A site is generalized at most one step per attempt: once the attempt has
/// generalized it, what its old mode's iterations bring to its header is no
/// evidence about the new mode. Returns whether the site's mode changed.
bool Specializer::generalize(const LoopSite &Site, const std::string &Why, bool BudgetHit) {
  if (!generalizedInAttempt.insert(Site).second) {
    if (BudgetHit) // the counts of a mixed attempt prove nothing: start over
      throw RestartRequest();
    return false;
  }
  LoopMode &Mode = loopModes[Site];
  bool HasProgramCounter = programCounterSlots.count(Site.header);
  bool KeyedOnFewValues = false;
  if (Mode == LoopMode::Unrolled && !HasProgramCounter && BudgetHit) {
    // Unrolling ran out because some slots never repeat (step counters) while
    // others cycle through few values (the interpreter's state): key the loop
    // on the latter, as on a program counter, and let the counters widen.
    std::set<SlotId> State = fewValuedSlots(Site.header);
    if (!State.empty()) {
      programCounterSlots[Site.header] = std::move(State);
      HasProgramCounter = KeyedOnFewValues = true;
    }
  }
  if (Mode == LoopMode::Unrolled && HasProgramCounter) {
    Mode = LoopMode::KeyedOnProgramData;
  } else if (Mode == LoopMode::Unrolled && BudgetHit && stateReads.count(Site.header) &&
             !hasRunawayCounter(Site.header)) {
    // Values that come back, but too many together: dead memory (the stale
    // frames above a stack's top) tells apart states that are the same. Key
    // the loop on what its iterations read, less the counters. (A loop with a
    // runaway counter and no cycling state is simply long: kept residual.)
    counterSlots[Site.header] = movingSlots(Site.header);
    Mode = LoopMode::KeyedOnLiveState;
  } else {
    Mode = BudgetHit || !peelResidualLoops || Mode == LoopMode::Residual
               ? LoopMode::ResidualUnpeeled
               : LoopMode::Residual;
  }
  const Loop *L = info.get(Site.header->getParent()).loopWithHeader(Site.header);
  generalizations.push_back(
      {L->getStartLoc(),
       Why + (Mode == LoopMode::KeyedOnLiveState
                  ? ": loop keyed on the state its iterations read (memory they write before "
                    "reading it again, such as popped frames, and counters widened)"
              : Mode != LoopMode::KeyedOnProgramData
                  ? ": loop kept residual"
              : KeyedOnFewValues
                  ? ": loop keyed on the loop-carried values that took few values (its state), "
                    "the ones that kept changing (counters) widened"
                  : ": loop keyed on its program counter (one residual block "
                    "per program point, other loop-carried values widened)")});
  if (BudgetHit)
    ++budgetHits;
  // The attempt goes on with the site in its new mode, to find the other loops
  // that need generalizing before it starts over (Specializer::attempt): one
  // restart per round of discoveries rather than one per loop (a program with
  // many loops over budget would otherwise evaluate its prefix once per loop).
  // Its residual code is thrown away, so that it mixes both modes does not
  // matter; a site in its new mode that hits a budget again restarts at once
  // (a site now keyed on its program counters counts its iterations on from
  // where unrolling left them, so its next new key does).
  restartPending = true;
  return true;
}

/// Work is what specialization costs in time and memory: each instruction
/// evaluated, and each abstract value of a block's entry state (every
/// specialized block copies and keeps one; deep unfolding makes them large).
void Specializer::chargeWork(const Instruction &I) {
  ++workByFunction[I.getFunction()];
  if (++attemptWork > options.maxWork)
    budgetExhausted("work budget (--max-work=" + std::to_string(options.maxWork) + ")");
}

void Specializer::chargeStateCopy(const SpecBlock &SB) {
  uint64_t Values = state.memory.objects.size() + state.memory.dynamicBases.size();
  for (const FrameState &F : state.frames)
    Values += F.env.size();
  for (auto &[Id, O] : state.memory.objects)
    Values += O.cells.size();
  workByFunction[SB.original->getParent()] += Values;
  attemptWork += Values;
  if (attemptWork > options.maxWork)
    budgetExhausted("work budget (--max-work=" + std::to_string(options.maxWork) + ")");
}

/// The loop site a budget hit generalizes, given the loop that unrolled most
/// (Header, in the context Path): that loop, unless it runs inside a loop
/// keyed on its live state. Such a key is the last refinement before a loop is
/// kept residual, and it is a bet that few states are live; a budget that
/// still runs out under it (PCRE2's email pattern: the dispatch loop unrolls
/// hundreds of iterations in each of its few keys) lost the bet, so the keyed
/// loop is kept residual, where it would have been without the key.
LoopSite Specializer::budgetSite(const ContextPath &Path, const BasicBlock *Header) const {
  for (size_t I = Path.size(); I-- > 0;) // the innermost keyed loop: the least lost
    if (Path[I].kind == ContextElement::Loop) {
      LoopSite Site = loopSite(ArrayRef(Path).take_front(I),
                               static_cast<const BasicBlock *>(Path[I].site));
      if (loopMode(Site) == LoopMode::KeyedOnLiveState)
        return Site;
    }
  return loopSite(Path, Header);
}

/// A budget ran out: stop peeling residual loops (an optimization that costs a
/// copy of each loop's body), else keep residual the loop that unrolled most
/// (or the loop keyed on its live state it runs in: budgetSite), else the callee that took most work, else (when the attempts that ran out of
/// a budget have together worked too long) every loop and call; then start over.
/// A budget that runs out with everything already residual is an error.
void Specializer::budgetExhausted(const std::string &Budget) {
  if (restartPending) // this attempt's work includes loops now generalized
    throw RestartRequest();
  bool LastResort = budgetWork + attemptWork > 4 * options.maxWork;
  budgetWork += attemptWork;
  bool Peeled = llvm::any_of(
      loopModes, [](auto &Entry) { return Entry.second == LoopMode::Residual; });
  if (!LastResort && !keepEverythingResidual && Peeled) {
    peelResidualLoops = false;
    for (auto &[Site, Mode] : loopModes)
      if (Mode == LoopMode::Residual)
        Mode = LoopMode::ResidualUnpeeled;
    ++budgetHits;
    generalizations.push_back({specLocation(), Budget + " hit: residual loops no longer peeled"});
    throw RestartRequest();
  }
  if (!LastResort && !keepEverythingResidual) {
    const BasicBlock *Largest = nullptr;
    unsigned LargestParent = 0, Most = 1;
    for (auto &[Key, Count] : iterationCounts)
      if (Count > Most)
        Most = Count, LargestParent = Key.first, Largest = Key.second;
    if (Largest) {
      generalize(budgetSite(contexts[LargestParent], Largest), Budget + " hit", true);
      throw RestartRequest(); // the work budget is spent: this attempt cannot go on
    }
    const Function *Costliest = nullptr;
    uint64_t Cost = 0;
    for (auto &[F, Work] : workByFunction)
      if (F != &spec && Work > Cost && !callsKeptResidual.count(F))
        Cost = Work, Costliest = F;
    if (Costliest) {
      callsKeptResidual.insert(Costliest);
      ++budgetHits;
      generalizations.push_back({Costliest->getEntryBlock().getFirstNonPHI()->getDebugLoc(),
                                 Budget + " hit: calls to '" + Costliest->getName().str() +
                                     "' kept residual"});
      throw RestartRequest();
    }
  }
  DebugLoc SpecLoc = specLocation();
  if (keepEverythingResidual)
    throw SpecError(SpecLoc, Budget + " exceeded by '" + spec.getName().str() +
                                 "' even with every loop and call kept residual; raise it");
  keepEverythingResidual = true;
  ++budgetHits;
  generalizations.push_back({SpecLoc, Budget + " hit: every loop and call kept residual"});
  throw RestartRequest();
}

void Specializer::collectGarbage(State &S) {
  std::set<ObjectId> Reached;
  std::vector<ObjectId> Pending;
  auto Reach = [&](const AbstractValue &A) {
    if (A.refersToObject() && Reached.insert(A.object).second)
      Pending.push_back(A.object);
  };
  for (const FrameState &F : S.frames)
    for (auto &[V, A] : F.env)
      Reach(A);
  for (const FrameState &F : S.frames) // an unfolded variadic call's arguments
    if (F.variadic) {
      Reach(AbstractValue::pointer(F.variadic->registerSaveArea, 0));
      Reach(AbstractValue::pointer(F.variadic->overflowArea, 0));
    }
  for (auto &[Id, O] : S.memory.objects)
    if (!objects.get(Id).isStack())
      Reach(AbstractValue::pointer(Id, 0));
  for (auto &[Root, O] : S.memory.dynamicBases)
    for (auto &[Off, C] : O.cells)
      Reach(C.value);
  while (!Pending.empty()) {
    ObjectId Id = Pending.back();
    Pending.pop_back();
    auto It = S.memory.objects.find(Id);
    if (It != S.memory.objects.end())
      for (auto &[Off, C] : It->second.cells)
        Reach(C.value);
  }
  for (auto It = S.memory.objects.begin(); It != S.memory.objects.end();)
    It = Reached.count(It->first) ? std::next(It) : S.memory.objects.erase(It);
}

/// Whether SSA value A of a function comes before B of the same function in
/// its code: arguments in order, then instructions in reverse post-order.
bool Specializer::definedBefore(const Value *A, const Value *B) const {
  auto *ArgA = dyn_cast<Argument>(A), *ArgB = dyn_cast<Argument>(B);
  if (ArgA || ArgB)
    return ArgA && (!ArgB || ArgA->getArgNo() < ArgB->getArgNo());
  auto *IA = cast<Instruction>(A), *IB = cast<Instruction>(B);
  if (IA->getParent() == IB->getParent())
    return IA->comesBefore(IB);
  const FunctionInfo &FI = info.get(IA->getFunction());
  return FI.rpoIndex.lookup(IA->getParent()) < FI.rpoIndex.lookup(IB->getParent());
}

/// Entry states hold no residual values from other blocks: those become phis.
/// The residual function's arguments, which dominate everything, stay. What is
/// known behind another residual pointer (one loaded from memory, such as Lua's
/// `base = ci->func + 1`) moves to an SSA value that carries that pointer into
/// the block: the facts are keyed by the generic value meanwhile (a *carried
/// root*), and by its entry phi once the block is specialized
/// (adoptCarriedRoots). On each edge the carrier equals that edge's pointer, so
/// the meet of the edges' facts describes the memory behind the phi. Pointers
/// derived from the same root keep their offset from the carrier.
void Specializer::normalizeForEntry(State &N) {
  auto Stable = [&](Value *V) { return V && isStableRoot(V); };
  // The roots worth carrying: those with facts behind them, or with pointers
  // derived from them.
  std::set<Value *> Carried;
  for (auto &[Root, Facts] : N.memory.dynamicBases)
    if (!Stable(Root))
      Carried.insert(Root);
  for (const FrameState &F : N.frames)
    for (auto &[V, A] : F.env)
      if (A.isDynamic() && A.dynamicRoot && !Stable(A.dynamicRoot))
        Carried.insert(A.dynamicRoot);
  // The carrier of each: a dynamic SSA value equal to the root plus a static
  // offset; the outermost frame's, the first defined in it (so that the
  // choice, and the output, do not depend on addresses). The phi that replaces
  // a carrier must be unambiguous: a generic value that lives in several
  // frames (a function unfolded within its own unfolding: recursion) carries
  // roots only in the innermost of them, whose entry phi is the one a block's
  // start names after it (Specializer::process: later frames overwrite).
  std::map<Value *, std::pair<Value *, int64_t>> Carrier;
  if (!Carried.empty()) {
    std::map<Value *, size_t> InnermostFrame;
    for (size_t Index = 0; Index < N.frames.size(); ++Index)
      for (auto &[V, A] : N.frames[Index].env)
        InnermostFrame[V] = Index;
    for (size_t Index = 0; Index < N.frames.size(); ++Index) {
      std::map<Value *, std::pair<Value *, int64_t>> InFrame;
      for (auto &[V, A] : N.frames[Index].env) {
        if (!A.isDynamic() || InnermostFrame[V] != Index || isStableRoot(V))
          continue;
        Value *Root = A.dynamicRoot ? A.dynamicRoot : A.residual;
        if (!Carried.count(Root))
          continue;
        std::pair<Value *, int64_t> Candidate{V, A.dynamicRoot ? A.dynamicRootOffset : 0};
        auto [It, New] = InFrame.try_emplace(Root, Candidate);
        if (!New && definedBefore(V, It->second.first))
          It->second = Candidate;
      }
      for (auto &[Root, Candidate] : InFrame)
        Carrier.try_emplace(Root, Candidate);
    }
  }
  for (FrameState &F : N.frames)
    for (auto &[V, A] : F.env) {
      Value *Root = A.isDynamic() ? (A.dynamicRoot ? A.dynamicRoot : A.residual) : nullptr;
      int64_t Offset = A.dynamicRoot ? A.dynamicRootOffset : 0;
      if ((A.isDynamic() || A.kind == AbstractValue::ObjectPointerDyn) && !Stable(A.residual))
        A.residual = nullptr;
      if (Root && !Stable(Root)) {
        auto C = Carrier.find(Root);
        if (C != Carrier.end())
          A.dynamicRoot = C->second.first, A.dynamicRootOffset = Offset - C->second.second;
        else
          A.dynamicRoot = nullptr, A.dynamicRootOffset = 0;
      }
    }
  FlatMap<Value *, ObjectState> Bases;
  for (auto &[Root, Facts] : N.memory.dynamicBases) {
    if (Stable(Root)) {
      Bases.emplace(Root, std::move(Facts));
      continue;
    }
    auto C = Carrier.find(Root);
    if (C == Carrier.end())
      continue;
    ObjectState &Moved = Bases[C->second.first];
    Moved.escaped = Facts.escaped;
    for (auto &[Off, Fact] : Facts.cells)
      Moved.cells.emplace(Off - C->second.second, Fact);
  }
  N.memory.dynamicBases = std::move(Bases);
}

/// At a block's start, after its entry phis are made: carried roots
/// (normalizeForEntry) become the phis of the values that carry them.
void Specializer::adoptCarriedRoots(const std::map<const Value *, Value *> &EntryPhis) {
  auto PhiOf = [&](Value *Root) -> Value * {
    if (!Root || isStableRoot(Root))
      return Root;
    auto It = EntryPhis.find(Root);
    return It == EntryPhis.end() ? nullptr : It->second;
  };
  for (FrameState &F : state.frames)
    for (auto &[V, A] : F.env)
      if (A.dynamicRoot) {
        A.dynamicRoot = PhiOf(A.dynamicRoot);
        if (!A.dynamicRoot)
          A.dynamicRootOffset = 0;
      }
  FlatMap<Value *, ObjectState> Bases;
  for (auto &[Root, Facts] : state.memory.dynamicBases)
    if (Value *Adopted = PhiOf(Root))
      Bases.emplace(Adopted, std::move(Facts));
  state.memory.dynamicBases = std::move(Bases);
}

AbstractValue Specializer::meetValues(const AbstractValue &A, const AbstractValue &B,
                                      std::set<ObjectId> &Escaped, bool Widen) {
  // Undefined is the bottom of the lattice: any value refines it. Poison is
  // below undef (an UndefValue too), so of the two, undef is the meet: were it
  // poison, code that may use undef (an uninitialized variable read) could be
  // folded as if it were unreachable, and two meets could flip forever.
  auto Undefined = [](const AbstractValue &V) {
    return V.kind == AbstractValue::Constant && isa<UndefValue>(V.constant);
  };
  if (Undefined(A) && Undefined(B))
    return isa<PoisonValue>(A.constant) ? B : A;
  if (Undefined(A))
    return B;
  if (Undefined(B))
    return A;
  if (A.sameStatic(B) || A == B) {
    AbstractValue R = A;
    R.programData = A.programData && B.programData;
    return R;
  }
  if (A.refersToObject() && B.refersToObject() && A.object == B.object)
    return meetPointersIntoObject(A, B, Widen);
  AbstractValue R = AbstractValue::dynamic(nullptr);
  if (A.isAddressInProgram() && B.isAddressInProgram())
    R = meetAddressesInProgram(A, B, Widen);
  if (A.isDynamic() && B.isDynamic() && A.dynamicRoot == B.dynamicRoot &&
      A.dynamicRootOffset == B.dynamicRootOffset) {
    R.dynamicRoot = A.dynamicRoot;
    R.dynamicRootOffset = A.dynamicRootOffset;
  }
  if (A.refersToObject())
    Escaped.insert(A.object);
  if (B.refersToObject())
    Escaped.insert(B.object);
  return R;
}

State Specializer::meetStates(const State &A, const State &B, bool Widen) {
  State R;
  std::set<ObjectId> Escaped;
  for (size_t F = 0; F < A.frames.size(); ++F) {
    FrameState Frame;
    Frame.callSite = A.frames[F].callSite;
    Frame.function = A.frames[F].function;
    Frame.arguments = A.frames[F].arguments;
    Frame.variadic = A.frames[F].variadic;
    for (auto &[V, AV] : A.frames[F].env) {
      auto It = B.frames[F].env.find(V);
      if (It != B.frames[F].env.end())
        Frame.env[V] = meetValues(AV, It->second, Escaped, Widen);
      else if (AV.refersToObject())
        Escaped.insert(AV.object);
    }
    for (auto &[V, BV] : B.frames[F].env)
      if (!A.frames[F].env.count(V) && BV.refersToObject())
        Escaped.insert(BV.object);
    R.frames.push_back(std::move(Frame));
  }
  // A pointer that became a phi may point wherever its inputs did: those
  // objects escape in the met memory (MemoryState.h).
  R.memory = MemoryState::meet(A.memory, B.memory, Escaped, Widen);
  return R;
}


} // namespace detail
} // namespace respec
