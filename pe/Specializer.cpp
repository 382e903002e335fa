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
// unroll forever. Two signs tell: the loop's own test (a branch that leaves the
// loop from a block every iteration runs) is dynamic while the static state keeps
// changing; or a static loop-carried value (it carries an Origin) meets dynamic
// data in a comparison there, and changes from one iteration to the next. Then
// the loop is under dynamic control: its header is marked dynamic (no iteration
// contexts, all loop-carried values meet) and specialization restarts. The
// budgets --max-unroll and --max-growth do the same for loops that are merely
// too long; they are reported as budget hits.
//
//===----------------------------------------------------------------------===//
#include "Specializer.h"
#include "Diagnostics.h"
#include "FlatMap.h"
#include "MemoryState.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include <optional>
#include <set>

using namespace llvm;

namespace respec {
namespace {

//===-- States and contexts ----------------------------------------------===//

/// Each SSA value's abstract value, in one frame.
using ValueEnv = FlatMap<Value *, AbstractValue>;

struct FrameState {
  const CallBase *callSite = nullptr; ///< null for the spec function itself
  const Function *function = nullptr;
  std::vector<AbstractValue> arguments; ///< as passed: bounds recursion
  ValueEnv env;
};



struct State {
  std::vector<FrameState> frames;
  MemoryState memory;

  FrameState &top() { return frames.back(); }
  bool operator==(const State &O) const {
    if (frames.size() != O.frames.size() || !(memory == O.memory))
      return false;
    for (size_t I = 0; I < frames.size(); ++I)
      if (frames[I].env != O.frames[I].env)
        return false;
    return true;
  }
};

bool operator==(const FrameState &A, const FrameState &B) { return A.env == B.env; }

struct ContextElement {
  enum Kind : uint8_t { Call, Loop, Variant } kind;
  const void *site;   ///< CallBase*, loop header or join BasicBlock*
  unsigned iteration; ///< Loop: iteration number; Variant: variant number
  bool operator<(const ContextElement &O) const {
    return std::tie(kind, site, iteration) < std::tie(O.kind, O.site, O.iteration);
  }
};
using ContextPath = std::vector<ContextElement>;

/// Restart specialization from scratch with more loop headers generalized.
struct RestartRequest {};

struct SpecBlock;

struct OutEdge {
  SpecBlock *target;
  /// Each frame's values at the end of the residual predecessor, not
  /// normalized: finalize() wires them into the target's phis.
  std::vector<ValueEnv> values;
};

struct PhiSlot {
  PHINode *phi;
  unsigned frame;
  Value *original;
};

struct SpecBlock {
  unsigned id = 0;
  BasicBlock *original = nullptr;
  unsigned context = 0;
  std::vector<uint32_t> priority;
  std::optional<State> entry;
  BasicBlock *residual = nullptr;
  // Results of the latest specialization of this block.
  std::vector<OutEdge> outEdges;
  std::vector<PhiSlot> phis;
  std::vector<std::pair<const Instruction *, bool>> bindingTimes; // (inst, residual)
  SpecializeStats stats;
  bool queued = false;
};

//===-- The specializer --------------------------------------------------===//

class Specializer {
public:
  Specializer(Function &Spec, const ModuleInfo &Info, const SpecializeOptions &Options,
              const std::vector<ArgumentBinding> &Bindings)
      : spec(Spec), info(Info), options(Options), bindings(Bindings),
        module(*Spec.getParent()), layout(module.getDataLayout()), ctx(module.getContext()) {}

  SpecializationResult run();

private:
  Function &spec;
  const ModuleInfo &info;
  const SpecializeOptions &options;
  const std::vector<ArgumentBinding> &bindings;
  Module &module;
  const DataLayout &layout;
  LLVMContext &ctx;

  // Survive restarts.
  std::set<const BasicBlock *> dynamicHeaders;
  std::map<const BasicBlock *, std::set<SlotId>> taintedSlots;
  std::vector<Note> generalizations; ///< why loops were kept residual
  unsigned restarts = 0;
  unsigned budgetHits = 0;

  // Per attempt.
  std::vector<Note> notes; ///< constructs kept residual, from the final attempt
  std::set<std::pair<const void *, std::string>> notedOnce;
  Function *residual = nullptr;
  BasicBlock *residualEntry = nullptr;
  ObjectTable objects;
  std::vector<ContextPath> contexts;
  std::map<ContextPath, unsigned> contextIds;
  std::vector<std::vector<uint32_t>> contextPriority;
  std::map<std::tuple<unsigned, const BasicBlock *, std::string>, unsigned> iterationIds;
  std::map<std::pair<unsigned, const BasicBlock *>, unsigned> iterationCounts;
  /// Variants of a join block kept apart because they disagree on program
  /// data: (context, block, key) -> variant number.
  std::map<std::tuple<unsigned, const BasicBlock *, std::string>, unsigned> variantIds;
  std::map<std::pair<unsigned, const BasicBlock *>, unsigned> variantCounts;
  /// Iteration contexts whose loop test (in the header or a latch) was dynamic.
  std::set<unsigned> iterationsWithDynamicTest;
  std::map<std::pair<const BasicBlock *, unsigned>, std::unique_ptr<SpecBlock>> blocks;
  std::set<std::pair<std::vector<uint32_t>, unsigned>> worklist;
  std::map<unsigned, SpecBlock *> blocksById;
  unsigned residualInstructions = 0;
  unsigned processedBlocks = 0;

  // Current block being specialized.
  SpecBlock *current = nullptr;
  State state;
  std::optional<IRBuilder<>> builder;
  bool blockEnded = false;

  void attempt();
  void reset();
  AbstractValue boundArgument(Argument &Formal, Argument &Actual);
  void finalize();
  SpecializationResult collectResult();
  void mergeStraightLineBlocks();

  // Contexts and blocks.
  unsigned internContext(const ContextPath &Path);
  SpecBlock &blockFor(BasicBlock *BB, unsigned Context);
  void enqueue(SpecBlock &SB);
  void process(SpecBlock &SB);

  // Edges.
  BasicBlock *addEdge(BasicBlock *Target, State Out, unsigned TargetContext);
  BasicBlock *branchTo(BasicBlock *Succ, bool LastEdge);
  unsigned contextForSuccessor(BasicBlock *Succ, const State &Out);
  std::string iterationKey(const State &S);
  void checkTaintedSlots(const BasicBlock *Header, unsigned IterationContext,
                         const State &Out);
  void noteDynamicLoopTest(ArrayRef<BasicBlock *> Successors);
  bool isProgramCounter(const AbstractValue &A) const;
  std::string programCounterKey(const State &Entry, const State &Arriving);
  void markHeaderDynamic(const BasicBlock *Header, const std::string &Why, bool BudgetHit);
  void collectGarbage(State &S);
  void normalizeForEntry(State &S);
  static State meetStates(const State &A, const State &B);
  static AbstractValue meetValues(const AbstractValue &A, const AbstractValue &B,
                                  std::set<ObjectId> &Escaped);

  // Values.
  AbstractValue valueOf(Value *V);
  AbstractValue fromConstant(Constant *C);
  Value *materialize(const AbstractValue &A, Type *Ty, bool Escapes);
  void markEscaped(ObjectId Obj);
  ObjectState &objectState(ObjectId Obj);
  void setValue(Instruction &I, AbstractValue A) { state.top().env[&I] = A; }
  void propagateOrigin(AbstractValue &Result, ArrayRef<AbstractValue> Operands);
  void taintIfLoopTest(const CmpInst &I, const AbstractValue &A);

  // Instructions.
  void evaluate(Instruction &I);
  Instruction *emitResidual(Instruction &I, ArrayRef<AbstractValue> Operands,
                            bool OperandsEscape = true);
  void evaluatePure(Instruction &I);
  void evaluateCompare(CmpInst &I);
  void evaluateGEP(GetElementPtrInst &I);
  void evaluateLoad(LoadInst &I);
  void evaluateStore(StoreInst &I);
  void evaluateAlloca(AllocaInst &I);
  void evaluateCall(CallBase &I);
  void evaluateIntrinsic(IntrinsicInst &I);
  void evaluateMemoryIntrinsic(IntrinsicInst &I);
  void evaluateAssume(CallBase &I);
  void evaluateStaticMemory(CallBase &I);
  void residualCall(CallBase &I, const std::vector<AbstractValue> &Args,
                    Value *Callee);
  bool sameArgumentPattern(const std::vector<AbstractValue> &A,
                           const std::vector<AbstractValue> &B) const;
  void unfoldCall(CallBase &I, Function &Callee, const std::vector<AbstractValue> &Args);
  void evaluateReturn(ReturnInst &I);
  void evaluateBranch(BranchInst &I);
  void evaluateSwitch(SwitchInst &I);
  std::optional<AbstractValue> loadFromCells(const ObjectState &Obj, int64_t Off,
                                             Type *Ty);
  void recordStore(const AbstractValue &Addr, const AbstractValue &Val, uint64_t Size,
                   bool Volatile);
  void note(const Instruction &I, const std::string &Message);
  void recordBindingTime(const Instruction &I, bool Residual) {
    current->bindingTimes.emplace_back(&I, Residual);
  }
  uint64_t storeSize(Type *Ty) const { return layout.getTypeStoreSize(Ty); }
};

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
      if (restarts > 256)
        throw SpecError(spec.getSubprogram() ? formatLocation(DILocation::get(
                                                   ctx, spec.getSubprogram()->getLine(),
                                                   0, spec.getSubprogram()))
                                             : "",
                        "specialization of '" + spec.getName().str() +
                            "' did not converge after 256 generalizations");
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

void Specializer::reset() {
  if (residual)
    residual->eraseFromParent();
  residual = Function::Create(spec.getFunctionType(), GlobalValue::InternalLinkage,
                              spec.getName() + ".respec", module);
  residual->copyAttributesFrom(&spec);
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
  blocks.clear();
  blocksById.clear();
  worklist.clear();
  residualInstructions = 0;
  processedBlocks = 0;
  notes.clear();
  notedOnce.clear();
}

void Specializer::attempt() {
  reset();
  unsigned Root = internContext({});
  State Initial;
  FrameState Frame;
  Frame.function = &spec;
  for (auto [Formal, Actual] : llvm::zip(spec.args(), residual->args())) {
    Actual.setName(Formal.getName());
    Frame.env[&Formal] = boundArgument(Formal, Actual);
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
}

AbstractValue Specializer::boundArgument(Argument &Formal, Argument &Actual) {
  unsigned Index = Formal.getArgNo();
  if (Index >= bindings.size() || bindings[Index].kind == ArgumentBinding::Dynamic)
    return AbstractValue::dynamic(&Actual);
  const ArgumentBinding &B = bindings[Index];
  Type *Ty = Formal.getType();
  std::string Which = "argument " + std::to_string(Index + 1) + " of '" +
                      spec.getName().str() + "'";
  if (B.kind == ArgumentBinding::HostMemory) {
    if (!Ty->isPointerTy())
      throw SpecError("", Which + " is not a pointer: it cannot name static memory");
    if (B.size == 0 || !B.value)
      throw SpecError("", Which + ": static memory needs an address and a size");
    return AbstractValue::pointer(objects.forHostMemory(B.value, B.size, ctx), 0);
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
  SB.stats = SpecializeStats();
  SB.stats.blocksSpecialized = 1;

  current = &SB;
  state = *SB.entry;
  builder.emplace(SB.residual);
  blockEnded = false;

  // Dynamic values whose producer is in another residual block arrive as phis;
  // their incoming values are filled in by finalize().
  for (unsigned F = 0; F < state.frames.size(); ++F)
    for (auto &[Original, Value] : state.frames[F].env)
      if ((Value.isDynamic() || Value.kind == AbstractValue::ObjectPointerDyn) &&
          !Value.residual) {
        PHINode *Phi = builder->CreatePHI(Original->getType(), 2,
                                          Original->hasName() ? Original->getName() : "");
        Value.residual = Phi;
        SB.phis.push_back({Phi, F, Original});
      }

  // At the header of an unrolled loop, static loop-carried values record where
  // they came from, so that a comparison with dynamic data can be traced back.
  const ContextPath &Path = contexts[SB.context];
  if (!Path.empty() && Path.back().kind == ContextElement::Loop &&
      Path.back().site == SB.original) {
    for (auto &[Original, Value] : state.top().env)
      if (Value.isStatic())
        Value.origin = {SB.original, {Original, 0}};
    for (auto &[Id, Obj] : state.memory.objects)
      for (auto &[Off, C] : Obj.cells)
        C.value.origin = {SB.original, {reinterpret_cast<const void *>(uintptr_t(Id) + 1), Off}};
  }

  for (Instruction &I : *SB.original) {
    if (isa<PHINode>(I))
      continue;
    evaluate(I);
    if (blockEnded)
      break;
  }
  residualInstructions += SB.stats.instructionsResidual;
  if (residualInstructions > options.maxGrowth) {
    // Keep the loop with the most unrolled iterations residual instead.
    const BasicBlock *Largest = nullptr;
    unsigned Most = 0;
    for (auto &[Key, Count] : iterationCounts)
      if (Count > Most)
        Most = Count, Largest = Key.second;
    if (!Largest)
      throw SpecError(SB.original->getTerminator()->getDebugLoc(),
                      "code-growth budget exceeded (" + std::to_string(options.maxGrowth) +
                          " residual instructions) with no loop left to keep residual; "
                          "raise --max-growth");
    markHeaderDynamic(Largest,
                      "code-growth budget (--max-growth=" +
                          std::to_string(options.maxGrowth) + ") hit: loop kept residual",
                      true);
  }
}

void Specializer::note(const Instruction &I, const std::string &Message) {
  if (notedOnce.insert({&I, Message}).second)
    notes.push_back({I.getDebugLoc(), Message});
}

//===-- Values -----------------------------------------------------------===//

AbstractValue Specializer::fromConstant(Constant *C) {
  if (C->getType()->isPointerTy()) {
    APInt Offset(layout.getIndexTypeSizeInBits(C->getType()), 0);
    const Value *Base = C->stripAndAccumulateConstantOffsets(layout, Offset, true);
    if (auto *G = dyn_cast<GlobalVariable>(Base))
      if (!G->isThreadLocal())
        return AbstractValue::pointer(objects.forGlobal(const_cast<GlobalVariable *>(G), layout),
                                      Offset.getSExtValue());
  }
  return AbstractValue::of(C);
}

AbstractValue Specializer::valueOf(Value *V) {
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
  return It->second;
}

ObjectState &Specializer::objectState(ObjectId Obj) {
  auto [It, Inserted] = state.memory.objects.try_emplace(Obj);
  if (Inserted)
    It->second.escaped = true; // unknown history: assume the worst
  return It->second;
}

void Specializer::markEscaped(ObjectId Obj) {
  ObjectState &OS = objectState(Obj);
  if (OS.escaped && objects.get(Obj).isStack())
    return;
  OS.escaped = true;
  // Whatever the object points to is now reachable from outside, too.
  std::vector<ObjectId> Reached;
  for (auto &[Off, C] : OS.cells)
    if (C.value.refersToObject())
      Reached.push_back(C.value.object);
  for (ObjectId R : Reached)
    if (!objectState(R).escaped)
      markEscaped(R);
}

Value *Specializer::materialize(const AbstractValue &A, Type *Ty, bool Escapes) {
  switch (A.kind) {
  case AbstractValue::Constant:
    return A.constant;
  case AbstractValue::Dynamic:
    return A.residual;
  case AbstractValue::ObjectPointerDyn:
    if (Escapes)
      markEscaped(A.object);
    return A.residual;
  case AbstractValue::ObjectPointer: {
    if (Escapes)
      markEscaped(A.object);
    const ObjectTable::Object &Obj = objects.get(A.object);
    Type *I8 = Type::getInt8Ty(ctx);
    Value *Ptr;
    if (auto *Address = dyn_cast<Constant>(Obj.base))
      Ptr = A.offset ? ConstantExpr::getGetElementPtr(
                           I8, Address, ConstantInt::get(Type::getInt64Ty(ctx), A.offset))
                     : static_cast<Value *>(Address);
    else
      Ptr = A.offset ? builder->CreateInBoundsGEP(I8, Obj.base, builder->getInt64(A.offset))
                     : Obj.base;
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

//===-- Instructions -----------------------------------------------------===//

void Specializer::evaluate(Instruction &I) {
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
    state.memory.clobberUnattributed();
    return;
  }
  default:
    if (I.isTerminator() || I.isEHPad() || isa<VAArgInst>(I))
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
  // Pointer casts of static pointers keep the pointer static.
  if ((isa<BitCastInst>(I) || isa<AddrSpaceCastInst>(I)) && Ops[0].isStatic()) {
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
  emitResidual(I, Ops);
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
  // different objects or null never equal.
  if (!I.isEquality() && L.kind == AbstractValue::ObjectPointer &&
      R.kind == AbstractValue::ObjectPointer && L.object == R.object) {
    APInt A(64, L.offset, true), B(64, R.offset, true);
    return Decide(ICmpInst::compare(A, B, I.getPredicate()));
  }
  if (I.isEquality() && L.refersToObject() && R.refersToObject()) {
    bool Eq = I.getPredicate() == CmpInst::ICMP_EQ;
    if (L.object != R.object)
      return Decide(!Eq);
    if (L.kind == AbstractValue::ObjectPointer && R.kind == AbstractValue::ObjectPointer)
      return Decide((L.offset == R.offset) == Eq);
  }
  if (I.isEquality()) {
    auto IsNull = [](const AbstractValue &A) {
      return A.kind == AbstractValue::Constant && A.constant->isNullValue();
    };
    bool Eq = I.getPredicate() == CmpInst::ICMP_EQ;
    if ((L.kind == AbstractValue::ObjectPointer && IsNull(R)) ||
        (R.kind == AbstractValue::ObjectPointer && IsNull(L)))
      return Decide(!Eq);
    if (L.kind == AbstractValue::ObjectPointer && R.kind == AbstractValue::ObjectPointer &&
        !objects.get(L.object).isStack() && !objects.get(R.object).isStack())
      return Decide((L.object == R.object && L.offset == R.offset) == Eq);
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
    if (!CI) {
      StaticIndices = false;
      continue;
    }
    if (StructType *ST = GTI.getStructTypeOrNull())
      Delta += layout.getStructLayout(ST)->getElementOffset(CI->getZExtValue());
    else
      Delta += CI->getSExtValue() * int64_t(layout.getTypeAllocSize(GTI.getIndexedType()));
  }
  if (StaticIndices && Base.kind == AbstractValue::ObjectPointer) {
    AbstractValue R = AbstractValue::pointer(Base.object, Base.offset + Delta);
    propagateOrigin(R, Ops);
    ++current->stats.instructionsEvaluated;
    recordBindingTime(I, false);
    return setValue(I, R);
  }
  if (StaticIndices && Base.kind == AbstractValue::Constant) {
    std::vector<Constant *> Cs;
    for (auto &A : Ops)
      Cs.push_back(A.constant);
    if (Constant *C = ConstantFoldInstOperands(&I, Cs, layout)) {
      ++current->stats.instructionsEvaluated;
      recordBindingTime(I, false);
      return setValue(I, fromConstant(C));
    }
  }
  emitResidual(I, Ops, /*OperandsEscape=*/false);
  AbstractValue &Result = state.top().env[&I];
  if (Base.refersToObject() && I.isInBounds()) {
    // Still inside the same object, at an offset known only at run time.
    Result = AbstractValue::pointerDyn(Base.object, Result.residual);
  } else if (Base.refersToObject()) {
    markEscaped(Base.object);
  } else if (StaticIndices && Base.isDynamic()) {
    // Keep "root + static offset" so facts about *root can be found again.
    Result.dynamicRoot = Base.dynamicRoot ? Base.dynamicRoot : Base.residual;
    Result.dynamicRootOffset = Base.dynamicRootOffset + Delta;
  }
}

void Specializer::evaluateAlloca(AllocaInst &I) {
  auto *Size = dyn_cast<ConstantInt>(I.getArraySize());
  if (!Size || !I.isStaticAlloca()) {
    // Variable-length arrays stay residual and are treated as unknown memory.
    std::vector<AbstractValue> Ops = {valueOf(I.getArraySize())};
    emitResidual(I, Ops);
    note(I, "variable-size stack allocation kept residual");
    return;
  }
  uint64_t Bytes = layout.getTypeAllocSize(I.getAllocatedType()) * Size->getZExtValue();
  ObjectId Existing = objects.lookupStackSlot(&I, current->context);
  if (Existing == ~0u) {
    IRBuilder<> EntryBuilder(residualEntry, residualEntry->getFirstInsertionPt());
    AllocaInst *Slot = EntryBuilder.CreateAlloca(I.getAllocatedType(), I.getArraySize(),
                                                 I.getName());
    Slot->setAlignment(I.getAlign());
    Existing = objects.forStackSlot(&I, current->context, Slot, Bytes);
  }
  // A fresh activation: nothing is known about its contents yet.
  ObjectState &OS = state.memory.objects[Existing];
  OS.cells.clear();
  OS.escaped = false;
  ++current->stats.instructionsEvaluated;
  recordBindingTime(I, false);
  setValue(I, AbstractValue::pointer(Existing, 0));
}

std::optional<AbstractValue> Specializer::loadFromCells(const ObjectState &Obj,
                                                        int64_t Off, Type *Ty) {
  uint64_t Size = storeSize(Ty);
  auto It = Obj.cells.upper_bound(Off);
  if (It == Obj.cells.begin())
    return std::nullopt;
  --It;
  const Cell &C = It->second;
  int64_t Start = It->first;
  if (Off + int64_t(Size) > Start + int64_t(C.size))
    return std::nullopt;
  if (Start == Off && C.size == Size && !C.value.isDynamic()) {
    if (C.value.refersToObject())
      return Ty->isPointerTy() ? std::optional(C.value) : std::nullopt;
    if (C.value.constant->getType() == Ty)
      return C.value;
  }
  if (C.value.kind != AbstractValue::Constant)
    return std::nullopt;
  if (Constant *Folded = ConstantFoldLoadFromConst(
          C.value.constant, Ty, APInt(64, Off - Start), layout)) {
    AbstractValue R = fromConstant(Folded);
    R.origin = C.value.origin;
    return R;
  }
  return std::nullopt;
}

void Specializer::evaluateLoad(LoadInst &I) {
  AbstractValue Addr = valueOf(I.getPointerOperand());
  auto Evaluated = [&](AbstractValue V) {
    ++current->stats.instructionsEvaluated;
    recordBindingTime(I, false);
    setValue(I, V);
  };
  if (!I.isVolatile() && I.isUnordered()) {
    if (Addr.kind == AbstractValue::ObjectPointer) {
      const ObjectTable::Object &Obj = objects.get(Addr.object);
      if (objects.isStaticRange(Addr.object, Addr.offset, storeSize(I.getType())))
        if (Constant *C = ConstantFoldLoadFromConst(Obj.contents, I.getType(),
                                                    APInt(64, Addr.offset), layout)) {
          AbstractValue Loaded = fromConstant(C);
          Loaded.programData = true;
          return Evaluated(Loaded);
        }
      auto It = state.memory.objects.find(Addr.object);
      if (It != state.memory.objects.end())
        if (auto V = loadFromCells(It->second, Addr.offset, I.getType()))
          return Evaluated(*V);
    } else if (Addr.isDynamic() && Addr.dynamicRoot) {
      auto It = state.memory.dynamicBases.find(Addr.dynamicRoot);
      if (It != state.memory.dynamicBases.end())
        if (auto V = loadFromCells(It->second, Addr.dynamicRootOffset, I.getType()))
          return Evaluated(*V);
    }
  }
  std::vector<AbstractValue> Ops = {Addr};
  emitResidual(I, Ops, /*OperandsEscape=*/false);
  if (!I.isUnordered())
    state.memory.clobberUnattributed(); // acquire: others' writes become visible
}

void Specializer::recordStore(const AbstractValue &Addr, const AbstractValue &Val,
                              uint64_t Size, bool Volatile) {
  MemoryState &Mem = state.memory;
  Cell NewCell;
  NewCell.size = Size;
  NewCell.value = Val;
  bool Known = !Volatile && Val.isStatic();
  switch (Addr.kind) {
  case AbstractValue::ObjectPointer: {
    ObjectState &OS = objectState(Addr.object);
    OS.forget(Addr.offset, Size);
    if (Known)
      OS.cells[Addr.offset] = NewCell;
    if (OS.escaped) // the same bytes may be named through a dynamic pointer
      for (auto &[Root, DB] : Mem.dynamicBases)
        DB.forgetUnpinned();
    return;
  }
  case AbstractValue::ObjectPointerDyn: {
    ObjectState &OS = objectState(Addr.object);
    OS.cells.clear();
    if (OS.escaped)
      for (auto &[Root, DB] : Mem.dynamicBases)
        DB.forgetUnpinned();
    return;
  }
  case AbstractValue::Constant:
  case AbstractValue::Dynamic:
    Mem.clobberUnattributed();
    if (Addr.isDynamic() && Addr.dynamicRoot) {
      ObjectState &DB = Mem.dynamicBases[Addr.dynamicRoot];
      DB.forget(Addr.dynamicRootOffset, Size);
      if (Known)
        DB.cells[Addr.dynamicRootOffset] = NewCell;
    }
    return;
  }
}

void Specializer::evaluateStore(StoreInst &I) {
  AbstractValue Val = valueOf(I.getValueOperand());
  AbstractValue Addr = valueOf(I.getPointerOperand());
  // The stored pointer escapes unless it lands in a tracked, private object.
  bool IntoPrivate = Addr.refersToObject() && !objectState(Addr.object).escaped;
  Instruction *R = I.clone();
  R->setOperand(0, materialize(Val, I.getValueOperand()->getType(), !IntoPrivate));
  R->setOperand(1, materialize(Addr, nullptr, false));
  builder->Insert(R);
  R->setDebugLoc(I.getDebugLoc());
  ++current->stats.instructionsResidual;
  recordBindingTime(I, true);
  if (Addr.kind == AbstractValue::ObjectPointer && !objects.get(Addr.object).isStack() &&
      objects.isStaticRange(Addr.object, Addr.offset, storeSize(Val.constant ? Val.constant->getType() : I.getValueOperand()->getType())))
    note(I, "store to memory declared static: the specialized code assumes it does not change");
  recordStore(Addr, Val, storeSize(I.getValueOperand()->getType()), I.isVolatile());
  if (!I.isUnordered())
    state.memory.clobberUnattributed();
}

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

void Specializer::evaluateCall(CallBase &I) {
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return evaluateIntrinsic(*II);
  AbstractValue CalleeValue = valueOf(I.getCalledOperand());
  std::vector<AbstractValue> Args;
  for (Value *Arg : I.args())
    Args.push_back(valueOf(Arg));

  Function *Callee = nullptr;
  if (CalleeValue.kind == AbstractValue::Constant)
    Callee = dyn_cast<Function>(CalleeValue.constant->stripPointerCasts());
  if (Callee && Callee->getName() == "__respec_assume")
    return evaluateAssume(I);
  if (Callee && Callee->getName() == "__respec_static_memory")
    return evaluateStaticMemory(I);
  if (Callee && Callee->getName().startswith("__respec_"))
    throw SpecError(I.getDebugLoc(), "unknown respec builtin '" + Callee->getName().str() + "'");

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
    else if (Repeats)
      note(I, "recursive call to '" + Callee->getName().str() +
                  "' kept residual: its static arguments repeat an enclosing call's");
    else if (Depth >= options.maxInlineDepth || Activations >= options.maxRecursion)
      note(I, "call to '" + Callee->getName().str() +
                  "' kept residual: recursion/depth bound reached");
    else {
      if (!I.getCalledFunction())
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

void Specializer::residualCall(CallBase &I, const std::vector<AbstractValue> &Args,
                               Value *Callee) {
  std::vector<AbstractValue> Ops = Args;
  Ops.push_back(valueOf(I.getCalledOperand()));
  if (Callee && !I.getCalledFunction())
    ++current->stats.indirectCallsDevirtualized;
  bool ReadsOnly = I.onlyReadsMemory();
  // Objects passed to the callee: it may write them (unless read-only) and
  // keep their address (unless nocapture).
  for (unsigned A = 0; A < Args.size(); ++A)
    if (Args[A].refersToObject()) {
      if (!I.doesNotCapture(A))
        markEscaped(Args[A].object);
      if (!ReadsOnly && !I.onlyReadsMemory(A))
        objectState(Args[A].object).cells.clear();
    }
  // A static callee operand is materialized as the function itself: the
  // residual call is direct.
  emitResidual(I, Ops, /*OperandsEscape=*/false);
  if (!ReadsOnly)
    state.memory.clobberUnattributed();
}

void Specializer::unfoldCall(CallBase &I, Function &Callee,
                             const std::vector<AbstractValue> &Args) {
  ++current->stats.callsUnfolded;
  ++current->stats.instructionsEvaluated;
  recordBindingTime(I, false);
  FrameState Frame;
  Frame.callSite = &I;
  Frame.function = &Callee;
  Frame.arguments = Args;
  for (auto [Formal, Actual] : llvm::zip(Callee.args(), Args))
    Frame.env[&Formal] = Actual;
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

void Specializer::evaluateAssume(CallBase &I) {
  recordBindingTime(I, false);
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
  for (;;) {
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
  }
  if (!Subject)
    throw SpecError(I.getDebugLoc(),
                    "respec_assume() cannot use this predicate: write one "
                    "`expression == constant` per respec_assume() (conjunctions as "
                    "separate calls)");
  // The compared SSA value is static from here on ...
  state.top().env[Subject] = Known;
  // ... and so is the memory cell it was loaded from.
  if (auto *Load = dyn_cast<LoadInst>(Subject)) {
    AbstractValue Addr = valueOf(Load->getPointerOperand());
    Cell Fact;
    Fact.size = storeSize(Load->getType());
    Fact.value = Known;
    Fact.pinned = true;
    if (Addr.kind == AbstractValue::ObjectPointer) {
      ObjectState &OS = objectState(Addr.object);
      OS.forget(Addr.offset, Fact.size);
      OS.cells[Addr.offset] = Fact;
    } else if (Addr.isDynamic() && (Addr.dynamicRoot || Addr.residual)) {
      Value *Root = Addr.dynamicRoot ? Addr.dynamicRoot : Addr.residual;
      ObjectState &DB = state.memory.dynamicBases[Root];
      DB.forget(Addr.dynamicRootOffset, Fact.size);
      DB.cells[Addr.dynamicRootOffset] = Fact;
    } else {
      throw SpecError(I.getDebugLoc(), "respec_assume(): the memory this predicate "
                                       "reads is not reachable by a known pointer");
    }
  }
}

void Specializer::evaluateStaticMemory(CallBase &I) {
  recordBindingTime(I, false);
  AbstractValue Ptr = valueOf(I.getArgOperand(0));
  AbstractValue Size = valueOf(I.getArgOperand(1));
  auto *Bytes = Size.kind == AbstractValue::Constant ? dyn_cast<ConstantInt>(Size.constant)
                                                      : nullptr;
  if (Ptr.kind != AbstractValue::ObjectPointer || !objects.get(Ptr.object).global || !Bytes ||
      !objects.get(Ptr.object).contents)
    throw SpecError(I.getDebugLoc(),
                    "respec_static_memory() needs the address of a global with a known "
                    "initializer and a constant size");
  ObjectTable::Object &Obj = objects.get(Ptr.object);
  if (Ptr.offset < 0 || uint64_t(Ptr.offset) + Bytes->getZExtValue() > Obj.size)
    throw SpecError(I.getDebugLoc(), "respec_static_memory(): range exceeds the object '" +
                                         Obj.global->getName().str() + "'");
  Obj.staticRanges.push_back({Ptr.offset, Bytes->getZExtValue()});
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
template <typename Fn>
static void forEachScalar(Constant *C, int64_t Base, const DataLayout &DL, Fn &&Visit) {
  Type *Ty = C->getType();
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      forEachScalar(C->getAggregateElement(I), Base + SL->getElementOffset(I), DL, Visit);
  } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    uint64_t Stride = DL.getTypeAllocSize(AT->getElementType());
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      forEachScalar(C->getAggregateElement(I), Base + int64_t(I * Stride), DL, Visit);
  } else {
    Visit(Base, C);
  }
}

void Specializer::evaluateMemoryIntrinsic(IntrinsicInst &I) {
  AbstractValue Dest = valueOf(I.getArgOperand(0));
  AbstractValue Src = valueOf(I.getArgOperand(1));
  AbstractValue Len = valueOf(I.getArgOperand(2));
  std::vector<AbstractValue> Ops;
  for (Value *Op : I.operands())
    Ops.push_back(valueOf(Op));
  emitResidual(I, Ops, /*OperandsEscape=*/false);

  auto *LenC = Len.kind == AbstractValue::Constant ? dyn_cast<ConstantInt>(Len.constant)
                                                    : nullptr;
  bool IsSet = isa<MemSetInst>(I) || I.getIntrinsicID() == Intrinsic::memset_inline;
  bool Volatile = cast<ConstantInt>(I.getArgOperand(3))->isOne();
  uint64_t Bytes = LenC ? LenC->getZExtValue() : 0;
  if (!LenC || Volatile || Dest.kind != AbstractValue::ObjectPointer || Bytes > 65536) {
    // Unknown extent: like a store through Dest at an unknown offset.
    AbstractValue Anywhere = Dest.refersToObject()
                                 ? AbstractValue::pointerDyn(Dest.object, nullptr)
                                 : AbstractValue::dynamic(nullptr);
    recordStore(Anywhere, AbstractValue(), 0, true);
    return;
  }
  ObjectState &OS = objectState(Dest.object);
  OS.forget(Dest.offset, Bytes);
  if (OS.escaped)
    for (auto &[Root, DB] : state.memory.dynamicBases)
      DB.forgetUnpinned();
  if (IsSet) {
    if (Src.kind == AbstractValue::Constant && Bytes)
      if (auto *Byte = dyn_cast<ConstantInt>(Src.constant)) {
        std::vector<uint8_t> Data(Bytes, uint8_t(Byte->getZExtValue()));
        OS.cells[Dest.offset] = {Bytes, AbstractValue::of(ConstantDataArray::get(ctx, Data)),
                                 false};
      }
    return;
  }
  if (Src.kind != AbstractValue::ObjectPointer || !Bytes)
    return;
  if (objects.isStaticRange(Src.object, Src.offset, Bytes)) {
    // Copy leaf by leaf: an initializer holding pointers has no byte image.
    forEachScalar(objects.get(Src.object).contents, 0, layout,
                  [&](int64_t Off, Constant *Leaf) {
                    uint64_t Size = storeSize(Leaf->getType());
                    if (Off >= Src.offset && Off + int64_t(Size) <= Src.offset + int64_t(Bytes))
                    {
                      AbstractValue Copied = fromConstant(Leaf);
                      Copied.programData = true;
                      OS.cells[Dest.offset + (Off - Src.offset)] = {Size, Copied, false};
                    }
                  });
    return;
  }
  // Copy the source's static cells that lie wholly inside the copied range.
  auto It = state.memory.objects.find(Src.object);
  if (It == state.memory.objects.end() || Src.object == Dest.object)
    return;
  for (auto &[Off, C] : It->second.cells)
    if (Off >= Src.offset && Off + int64_t(C.size) <= Src.offset + int64_t(Bytes)) {
      Cell Copy = C;
      Copy.pinned = false;
      OS.cells[Dest.offset + (Off - Src.offset)] = Copy;
    }
}

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

BasicBlock *Specializer::branchTo(BasicBlock *Succ, bool LastEdge) {
  // Phis of the successor read the values flowing along this edge, all at once.
  std::vector<std::pair<Value *, AbstractValue>> PhiValues;
  for (PHINode &Phi : Succ->phis())
    PhiValues.emplace_back(&Phi, valueOf(Phi.getIncomingValueForBlock(current->original)));
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
    builder->CreateBr(
        branchTo(I.getSuccessor(cast<ConstantInt>(Cond.constant)->isOne() ? 0 : 1), true));
    return;
  }
  recordBindingTime(I, true);
  ++current->stats.instructionsResidual;
  Value *Residual = materialize(Cond, nullptr, false);
  noteDynamicLoopTest({I.getSuccessor(0), I.getSuccessor(1)});
  BasicBlock *Taken = branchTo(I.getSuccessor(0), false);
  BasicBlock *NotTaken = branchTo(I.getSuccessor(1), true);
  builder->CreateCondBr(Residual, Taken, NotTaken)->setDebugLoc(I.getDebugLoc());
}

void Specializer::evaluateSwitch(SwitchInst &I) {
  blockEnded = true;
  AbstractValue Cond = valueOf(I.getCondition());
  if (Cond.kind == AbstractValue::Constant && isa<ConstantInt>(Cond.constant)) {
    ++current->stats.branchesFolded;
    ++current->stats.instructionsEvaluated;
    recordBindingTime(I, false);
    auto Case = I.findCaseValue(cast<ConstantInt>(Cond.constant));
    builder->CreateBr(branchTo(Case->getCaseSuccessor(), true));
    return;
  }
  recordBindingTime(I, true);
  ++current->stats.instructionsResidual;
  Value *Residual = materialize(Cond, nullptr, false);
  noteDynamicLoopTest(std::vector<BasicBlock *>(succ_begin(&I), succ_end(&I)));
  std::vector<std::pair<ConstantInt *, BasicBlock *>> Cases;
  BasicBlock *Default = branchTo(I.getDefaultDest(), I.getNumCases() == 0);
  for (auto &Case : I.cases())
    Cases.emplace_back(Case.getCaseValue(),
                       branchTo(Case.getCaseSuccessor(), Case.getCaseIndex() + 1 == I.getNumCases()));
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
    State Met = meetStates(*T.entry, Out);
    if (!(Met == *T.entry)) {
      T.entry = std::move(Met);
      enqueue(T);
    }
  }
  return T.residual;
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
  if (!FI.loopWithHeader(Succ) || dynamicHeaders.count(Succ))
    return internContext(Path);

  bool BackEdge = !Path.empty() && Path.back().kind == ContextElement::Loop &&
                  Path.back().site == Succ;
  bool DynamicTest = false;
  if (BackEdge) {
    unsigned Iteration = internContext(Path);
    checkTaintedSlots(Succ, Iteration, Out);
    DynamicTest = iterationsWithDynamicTest.count(Iteration);
    Path.pop_back();
  }
  unsigned Parent = internContext(Path);
  auto [It, New] = iterationIds.try_emplace({Parent, Succ, iterationKey(Out)}, 0);
  if (New && DynamicTest)
    markHeaderDynamic(Succ, "loop under dynamic control (its test depends on run-time data "
                            "while its static state keeps changing): kept residual",
                      false);
  if (New) {
    unsigned &Count = iterationCounts[{Parent, Succ}];
    It->second = Count++;
    if (Count > options.maxUnroll)
      markHeaderDynamic(Succ,
                        "unrolling budget (--max-unroll=" + std::to_string(options.maxUnroll) +
                            ") hit: loop kept residual",
                        true);
  }
  Path.push_back({ContextElement::Loop, Succ, It->second});
  return internContext(Path);
}

/// The static part of a state: equal keys at a loop header mean the same
/// iteration, so the residual code loops back instead of unrolling further.
std::string Specializer::iterationKey(const State &S) {
  std::string Key;
  raw_string_ostream OS(Key);
  auto Write = [&](const AbstractValue &A) {
    switch (A.kind) {
    case AbstractValue::Constant:
      OS << 'C' << static_cast<const void *>(A.constant);
      break;
    case AbstractValue::ObjectPointer:
      OS << 'P' << A.object << '+' << A.offset;
      break;
    case AbstractValue::ObjectPointerDyn:
      OS << 'Q' << A.object;
      break;
    case AbstractValue::Dynamic:
      OS << 'D';
      break;
    }
  };
  for (const FrameState &F : S.frames) {
    OS << '[';
    for (auto &[V, A] : F.env) {
      OS << static_cast<const void *>(V) << '=';
      Write(A);
      OS << ';';
    }
  }
  auto WriteObject = [&](const ObjectState &O) {
    OS << (O.escaped ? 'e' : 'p');
    for (auto &[Off, C] : O.cells) {
      OS << Off << ':' << C.size << (C.pinned ? '!' : '=');
      Write(C.value);
      OS << ',';
    }
  };
  for (auto &[Id, O] : S.memory.objects) {
    OS << '#' << Id;
    WriteObject(O);
  }
  for (auto &[Root, O] : S.memory.dynamicBases) {
    OS << '@' << static_cast<const void *>(Root);
    WriteObject(O);
  }
  return OS.str();
}

void Specializer::checkTaintedSlots(const BasicBlock *Header, unsigned IterationContext,
                                    const State &Out) {
  auto Tainted = taintedSlots.find(Header);
  if (Tainted == taintedSlots.end())
    return;
  auto Found = blocks.find({const_cast<BasicBlock *>(Header), IterationContext});
  if (Found == blocks.end() || !Found->second->entry)
    return;
  const State &Entry = *Found->second->entry;
  for (const SlotId &Slot : Tainted->second) {
    bool Changed;
    auto Var = Entry.frames.back().env.find(static_cast<Value *>(const_cast<void *>(Slot.base)));
    if (Var != Entry.frames.back().env.end()) {
      auto Now = Out.frames.back().env.find(Var->first);
      Changed = Now == Out.frames.back().env.end() || !Now->second.sameStatic(Var->second);
    } else {
      ObjectId Id = ObjectId(reinterpret_cast<uintptr_t>(Slot.base) - 1);
      auto Before = Entry.memory.objects.find(Id), After = Out.memory.objects.find(Id);
      auto CellAt = [&](auto It, const MemoryState &M) -> const Cell * {
        if (It == M.objects.end())
          return nullptr;
        auto C = It->second.cells.find(Slot.offset);
        return C == It->second.cells.end() ? nullptr : &C->second;
      };
      const Cell *B = CellAt(Before, Entry.memory), *A = CellAt(After, Out.memory);
      Changed = B && (!A || !A->value.sameStatic(B->value));
    }
    if (Changed)
      markHeaderDynamic(Header, "loop under dynamic control: kept residual", false);
  }
}

/// Called for a residual conditional branch: if it is the loop's own test (see
/// isLoopTestBlock; with a successor outside the loop), this iteration is
/// controlled by run-time data.
void Specializer::noteDynamicLoopTest(ArrayRef<BasicBlock *> Successors) {
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
    iterationsWithDynamicTest.insert(internContext(Path));
}

/// Program data: a static pointer into memory whose contents are known (an
/// interpreter's program counter), or a static value read from such memory
/// (its operands and jump offsets).
bool Specializer::isProgramCounter(const AbstractValue &A) const {
  if (!A.isStatic())
    return false;
  if (A.programData)
    return true;
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

void Specializer::markHeaderDynamic(const BasicBlock *Header, const std::string &Why,
                                    bool BudgetHit) {
  dynamicHeaders.insert(Header);
  const Loop *L = info.get(Header->getParent()).loopWithHeader(Header);
  generalizations.push_back({L->getStartLoc(), Why});
  if (BudgetHit)
    ++budgetHits;
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

/// Entry states hold no residual values from other blocks: those become phis.
/// Only the residual function's arguments, which dominate everything, stay.
void Specializer::normalizeForEntry(State &N) {
  auto Stable = [&](Value *V) { return V && isa<Argument>(V) && cast<Argument>(V)->getParent() == residual; };
  for (FrameState &F : N.frames)
    for (auto &[V, A] : F.env) {
      if ((A.isDynamic() || A.kind == AbstractValue::ObjectPointerDyn) && !Stable(A.residual))
        A.residual = nullptr;
      if (A.dynamicRoot && !Stable(A.dynamicRoot))
        A.dynamicRoot = nullptr, A.dynamicRootOffset = 0;
    }
  for (auto It = N.memory.dynamicBases.begin(); It != N.memory.dynamicBases.end();)
    It = Stable(It->first) ? std::next(It) : N.memory.dynamicBases.erase(It);
}

AbstractValue Specializer::meetValues(const AbstractValue &A, const AbstractValue &B,
                                      std::set<ObjectId> &Escaped) {
  if (A.sameStatic(B) || A == B) {
    AbstractValue R = A;
    R.programData = A.programData && B.programData;
    return R;
  }
  if (A.refersToObject() && B.refersToObject() && A.object == B.object)
    return AbstractValue::pointerDyn(A.object, nullptr);
  AbstractValue R = AbstractValue::dynamic(nullptr);
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

State Specializer::meetStates(const State &A, const State &B) {
  State R;
  std::set<ObjectId> Escaped;
  for (size_t F = 0; F < A.frames.size(); ++F) {
    FrameState Frame;
    Frame.callSite = A.frames[F].callSite;
    Frame.function = A.frames[F].function;
    Frame.arguments = A.frames[F].arguments;
    for (auto &[V, AV] : A.frames[F].env) {
      auto It = B.frames[F].env.find(V);
      if (It != B.frames[F].env.end())
        Frame.env[V] = meetValues(AV, It->second, Escaped);
    }
    R.frames.push_back(std::move(Frame));
  }
  R.memory = MemoryState::meet(A.memory, B.memory);
  // A pointer that became a phi may now point anywhere its inputs did.
  for (ObjectId Id : Escaped)
    if (auto It = R.memory.objects.find(Id); It != R.memory.objects.end())
      It->second.escaped = true;
  return R;
}

//===-- Finishing --------------------------------------------------------===//

void Specializer::finalize() {
  std::map<BasicBlock *, SpecBlock *> ByResidual;
  for (auto &[Key, SB] : blocks)
    ByResidual[SB->residual] = SB.get();

  // Dead blocks (all their predecessors were re-specialized away) go first.
  std::vector<BasicBlock *> Dead;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock &BB : *residual)
      if (&BB != residualEntry && pred_empty(&BB) &&
          std::find(Dead.begin(), Dead.end(), &BB) == Dead.end()) {
        Dead.push_back(&BB);
        // Its successors lose a predecessor; detach so the scan sees it.
        if (Instruction *T = BB.getTerminator())
          T->eraseFromParent();
        Changed = true;
      }
  }
  for (BasicBlock *BB : Dead) {
    SpecBlock *SB = ByResidual[BB];
    for (PhiSlot &P : SB->phis)
      P.phi->replaceAllUsesWith(PoisonValue::get(P.phi->getType()));
    SB->residual = nullptr;
    SB->phis.clear();
    BB->dropAllReferences();
  }
  for (BasicBlock *BB : Dead)
    BB->eraseFromParent();

  for (auto &[Key, SB] : blocks) {
    if (!SB->residual)
      continue;
    for (PhiSlot &P : SB->phis) {
      for (BasicBlock *Pred : predecessors(SB->residual)) {
        SpecBlock *From = ByResidual.at(Pred);
        auto Edge = llvm::find_if(From->outEdges,
                                  [&](const OutEdge &E) { return E.target == SB.get(); });
        assert(Edge != From->outEdges.end() && "residual edge without a recorded state");
        const auto &Env = Edge->values[P.frame];
        auto It = Env.find(P.original);
        if (It == Env.end())
          throw SpecError("", "internal error: value missing on a residual edge");
        builder.emplace(Pred->getTerminator());
        P.phi->addIncoming(materialize(It->second, P.phi->getType(), false), Pred);
      }
    }
  }
}

/// Every (block, context) pair has a residual block of its own, so residual
/// code comes as chains of blocks joined by unconditional branches (a call
/// unfolded, a branch folded) with single-entry phis. Folding the chains here
/// is linear and leaves the cleanup passes about a third of the blocks (126 -> 47
/// for a libpcap `tcp port 80` filter).
void Specializer::mergeStraightLineBlocks() {
  for (BasicBlock &BB : make_early_inc_range(*residual))
    MergeBlockIntoPredecessor(&BB);
}

SpecializationResult Specializer::collectResult() {
  SpecializationResult R;
  R.residual = residual;
  std::set<const Function *> Reached;
  for (auto &[Key, SB] : blocks) {
    if (!SB->residual)
      continue;
    const SpecializeStats &S = SB->stats;
    R.stats.instructionsEvaluated += S.instructionsEvaluated;
    R.stats.instructionsResidual += S.instructionsResidual;
    R.stats.branchesFolded += S.branchesFolded;
    R.stats.callsUnfolded += S.callsUnfolded;
    R.stats.indirectCallsDevirtualized += S.indirectCallsDevirtualized;
    R.stats.blocksSpecialized += S.blocksSpecialized;
    for (auto [I, Residual] : SB->bindingTimes) {
      BindingTime &BT = R.bindingTimes[I];
      (Residual ? BT.residual : BT.evaluated) += 1;
      Reached.insert(I->getFunction());
    }
  }
  for (const Function *F : Reached)
    R.stats.instructionsBefore += F->getInstructionCount();
  for (auto &[Key, Count] : iterationCounts)
    R.stats.loopIterationsUnrolled += Count;
  R.stats.loopsKeptResidual = dynamicHeaders.size();
  R.stats.budgetHits = budgetHits;
  R.stats.restarts = restarts;
  R.notes = generalizations;
  R.notes.insert(R.notes.end(), notes.begin(), notes.end());
  return R;
}

} // namespace

SpecializationResult specialize(Function &Spec, const ModuleInfo &Info,
                                const SpecializeOptions &Options,
                                const std::vector<ArgumentBinding> &Bindings) {
  return Specializer(Spec, Info, Options, Bindings).run();
}

} // namespace respec
