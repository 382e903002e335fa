//===- SpecializerInternals.h - The specializer's state and class -*- C++ -*-===//
//
// Private to pe/: the abstract state (frames, memory), contexts, specialized
// blocks, and the Specializer class whose members are defined one concept per
// file:
//   Specializer.cpp     the worklist: contexts, specialized blocks, restarts
//   EvaluateValues.cpp  abstract values: fold or residualize an instruction
//   EvaluateMemory.cpp  partially-static memory: loads, stores, memcpy
//   Assumptions.cpp     respec_assume(): facts, known bits, symbolic roots
//   UnfoldCalls.cpp     calls: unfold, devirtualize, residual calls, recursive
//                       variants (polyvariant recursion)
//   VariadicArguments.cpp  variadic callees: argument areas, va_start/va_arg
//   Generalization.cpp  control: branches, loop iterations, generalization,
//                       meets, and the budgets (work, growth, unrolling)
//   Residual.cpp        the residual function: phis, clean-up, statistics,
//                       the assumptions report
//   EvaluateFacts.cpp   declared external facts: pure and stable functions,
//                       stable memory, the guards on entry (ExternalFacts.h)
//   LibraryCalls.cpp    C library functions evaluated on static memory
// The escape rule the memory files rely on is in MemoryState.h; what a residual
// call to visible code may write, in WriteSummary.h. After specialization,
// Reroll.h turns long repeated residual code back into loops.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_SPECIALIZERINTERNALS_H
#define RESPEC_PE_SPECIALIZERINTERNALS_H

#include "CallEffects.h"
#include "FlatMap.h"
#include "MemoryState.h"
#include "Specializer.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/KnownBits.h"
#include <functional>
#include <optional>
#include <set>

namespace respec {
namespace detail {

using namespace llvm;

//===-- States and contexts ----------------------------------------------===//

/// Each SSA value's abstract value, in one frame.
using ValueEnv = FlatMap<Value *, AbstractValue>;

/// Where an unfolded variadic callee's variadic arguments are: stack objects
/// of its call site laid out as the ABI's register save and overflow areas,
/// and the va_list offsets past its named parameters (VariadicArguments.cpp).
struct VariadicFrame {
  ObjectId registerSaveArea = 0, overflowArea = 0;
  uint32_t gpOffset = 0, fpOffset = 0;
};

struct FrameState {
  const CallBase *callSite = nullptr; ///< null for the spec function itself
  const Function *function = nullptr;
  std::vector<AbstractValue> arguments; ///< as passed: bounds recursion
  ValueEnv env;
  std::optional<VariadicFrame> variadic; ///< an unfolded variadic callee's arguments
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

inline bool operator==(const FrameState &A, const FrameState &B) { return A.env == B.env; }

struct ContextElement {
  enum Kind : uint8_t { Call, Loop, Variant } kind;
  const void *site;   ///< CallBase*, loop header or join BasicBlock*
  unsigned iteration; ///< Loop: iteration number (or PeeledIteration); Variant: variant number
  bool operator<(const ContextElement &O) const {
    return std::tie(kind, site, iteration) < std::tie(O.kind, O.site, O.iteration);
  }
};
using ContextPath = std::vector<ContextElement>;

/// The iteration number of a residual loop's first iteration, specialized in
/// the state the loop is entered with (Specializer::residualLoopContext).
constexpr unsigned PeeledIteration = ~0u;

/// Restart specialization from scratch with more loop headers generalized.
struct RestartRequest {};

/// A loop in one context: the call sites of the unfolded calls and the peeled
/// iterations of residual loops it runs in (outer first), and its header.
/// Generalization is decided per LoopSite, so a loop that must stay residual
/// under one call, or in a residual loop's generic iterations, still unrolls
/// under another call or in the peeled first iteration.
struct LoopSite {
  std::vector<const void *> scope;
  const BasicBlock *header = nullptr;
  bool operator<(const LoopSite &O) const {
    return std::tie(header, scope) < std::tie(O.header, O.scope);
  }
};

/// How the iterations of a loop site are specialized (Generalization.cpp).
enum class LoopMode : uint8_t {
  Unrolled,          ///< one iteration context per static state
  KeyedOnProgramData, ///< one per program-counter value; the rest widens
  KeyedOnLiveState,  ///< one per value of the slots its iterations read; the
                     ///< rest (dead memory: popped frames) widens
  Residual,          ///< the first iteration in its entry state (peeled), then
                     ///< one context where every changing value widens
  ResidualUnpeeled,  ///< one context from the entry on: a budget ran out
};

struct SpecBlock;

/// The value of a loop-carried slot in S: an SSA value of the top frame, or a
/// tracked memory cell (SlotId::cell); null if S has none (IterationKeys.cpp).
const AbstractValue *slotValue(const State &S, const SlotId &Slot);

/// A use of a declared external fact at an instruction of the generic code.
struct ExternalFactUse {
  enum Kind : uint8_t {
    Decided,  ///< a call or load evaluated away because of it
    Kept,     ///< a residual call kept memory, or stable memory read through
              ///< the pointer fetched on entry
    Reached,  ///< a call of the function, whatever came of it
    Unfolded, ///< a call of it unfolded (respec has the definition)
  } kind;
  unsigned fact;
  const Instruction *at;
};

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
  /// respec_assume() calls evaluated here, and (call, instruction) pairs: the
  /// instruction's value was decided by the call's fact.
  std::vector<const Instruction *> assumptions;
  std::vector<std::pair<const Instruction *, const Instruction *>> factUses;
  /// (later, earlier) respec_assume() calls whose facts about one cell merged.
  std::vector<std::pair<const Instruction *, const Instruction *>> factMerges;
  /// What declared external facts decided here (EvaluateFacts.cpp).
  std::vector<ExternalFactUse> externalFactUses;
  SpecializeStats stats;
  bool queued = false;
};

//===-- Polyvariant recursion --------------------------------------------===//

/// Functions specialized for the static argument pattern of a recursive call
/// whose static arguments repeat an enclosing activation's (unfolding it would
/// not progress). Shared by the spec's specialization and the variants' own,
/// so each (callee, pattern) is specialized once, mutual recursion included:
/// a variant exists, as a declaration, before its body is specialized.
class RecursionVariants {
public:
  struct Variant {
    Function *generic;
    std::vector<ArgumentBinding> bindings;
    /// respec_static_memory() ranges declared when the variant was asked for:
    /// the variant runs within the spec, where they hold.
    std::vector<StaticMemoryRange> staticMemory;
    Function *function; ///< the declaration its body goes into
  };
  /// The variant of Callee for Bindings and StaticMemory, created on first
  /// request; null once Budget variants exist.
  Function *get(Function &Callee, const std::vector<ArgumentBinding> &Bindings,
                const std::vector<StaticMemoryRange> &StaticMemory, unsigned Budget);
  std::optional<Variant> nextPending();

private:
  std::map<std::tuple<Function *, std::vector<ArgumentBinding>, std::vector<StaticMemoryRange>>,
           Function *>
      functions;
  std::vector<Variant> pending;
};

//===-- The specializer --------------------------------------------------===//

class Specializer {
public:
  Specializer(Function &Spec, const ModuleInfo &Info, const SpecializeOptions &Options,
              const std::vector<ArgumentBinding> &Bindings, RecursionVariants &Variants,
              const std::vector<StaticMemoryRange> &StaticMemory = {})
      : spec(Spec), info(Info), options(Options), bindings(Bindings), variants(Variants),
        staticMemory(StaticMemory),
        module(*Spec.getParent()), layout(module.getDataLayout()), ctx(module.getContext()) {}

  SpecializationResult run();

private:
  Function &spec;
  const ModuleInfo &info;
  const SpecializeOptions &options;
  const std::vector<ArgumentBinding> &bindings;
  RecursionVariants &variants;
  /// Static memory declared by the caller of a recursive variant.
  const std::vector<StaticMemoryRange> &staticMemory;
  Module &module;
  const DataLayout &layout;
  LLVMContext &ctx;

  // Survive restarts.
  /// Loop sites no longer unrolled by their whole static state.
  std::map<LoopSite, LoopMode> loopModes;
  /// Slots compared with dynamic data in a loop's own test.
  std::map<const BasicBlock *, std::set<SlotId>> taintedSlots;
  /// Program counters: slots through which the loop read static memory.
  std::map<const BasicBlock *, std::set<SlotId>> programCounterSlots;
  /// The loop's state that its iterations read (noteStateRead): cells of
  /// objects that no loop-carried pointer points into, and cells at an offset
  /// from a loop-carried pointer (a frame relative to the current one). Every
  /// loop with a read of its state has an entry, value reads included.
  struct StateReads {
    std::set<SlotId> cells;
    std::set<std::pair<SlotId, int64_t>> relative;
  };
  std::map<const BasicBlock *, StateReads> stateReads;
  /// The loop-carried values its iterations used, by header: a hash set, as
  /// valueOf notes every use of a stamped value.
  DenseSet<std::pair<const BasicBlock *, const void *>> valueReads;
  /// Loops keyed on their live state: the slots left out as counters.
  std::map<const BasicBlock *, std::set<SlotId>> counterSlots;
  /// Slots compared with dynamic data where the branch stays in the loop: the
  /// interpreted program's own control (a VM's `jlt i, bound`).
  std::map<const BasicBlock *, std::set<SlotId>> programControlSlots;
  std::vector<Note> generalizations; ///< why loops were kept residual
  unsigned restarts = 0;
  unsigned budgetHits = 0;
  /// Functions whose calls a budget keeps residual.
  std::set<const Function *> callsKeptResidual;
  /// The last resort of the budgets: no loop unrolled, no call unfolded.
  bool keepEverythingResidual = false;
  uint64_t totalWork = 0; ///< instructions evaluated by earlier attempts
  uint64_t budgetWork = 0; ///< ... by earlier attempts that ran out of a budget
  bool peelResidualLoops = true; ///< until a budget runs out (budgetExhausted)

  // Per attempt.
  std::vector<Note> notes; ///< constructs kept residual, from the final attempt
  std::set<std::string> factsRelied; ///< SpecializationResult::factsRelied
  std::set<std::pair<const void *, std::string>> notedOnce;
  Function *residual = nullptr;
  BasicBlock *residualEntry = nullptr;
  ObjectTable objects;
  std::vector<ContextPath> contexts;
  std::map<ContextPath, unsigned> contextIds;
  std::vector<std::vector<uint32_t>> contextPriority;
  std::map<std::tuple<unsigned, const BasicBlock *, std::string>, unsigned> iterationIds;
  std::map<std::pair<unsigned, const BasicBlock *>, unsigned> iterationCounts;
  /// Unrolled loops with program counters: (parent context, header, program
  /// counters) -> the program-control slots' values when last there.
  std::map<std::tuple<unsigned, const BasicBlock *, std::string>, std::string>
      programControlSeen;
  /// Unrolled loops with a test on program data: (parent context, header,
  /// program counters) -> the first iteration that ended with them (walksOn).
  std::map<std::tuple<unsigned, const BasicBlock *, std::string>, unsigned> programDataWalks;
  /// Variants of a join block kept apart because they disagree on program
  /// data: (context, block, key) -> variant number.
  std::map<std::tuple<unsigned, const BasicBlock *, std::string>, unsigned> variantIds;
  std::map<std::pair<unsigned, const BasicBlock *>, unsigned> variantCounts;
  /// Iteration contexts with a loop test (noteLoopTest) decided by run-time
  /// data, by program data, and by other static data.
  std::set<unsigned> iterationsWithDynamicTest, iterationsWithProgramDataTest,
      iterationsWithOtherStaticTest;
  std::map<std::pair<const BasicBlock *, unsigned>, std::unique_ptr<SpecBlock>> blocks;
  std::set<std::pair<std::vector<uint32_t>, unsigned>> worklist;
  std::map<unsigned, SpecBlock *> blocksById;
  unsigned residualInstructions = 0;
  unsigned processedBlocks = 0;
  uint64_t attemptWork = 0; ///< instructions evaluated by this attempt
  bool restartPending = false; ///< a loop was generalized during this attempt
  std::set<LoopSite> generalizedInAttempt;
  /// Unrolled loops: the values each loop-carried slot had at the header, to
  /// tell an interpreter's state (few values, returned to again and again)
  /// from its step counters (ever new values).
  struct SlotHistory {
    std::set<std::string> values; ///< up to FewSlotValues + 1 of them
    std::string last;
    bool returns = false; ///< came back to a value it had left (among its first ones)
  };
  std::map<const BasicBlock *, std::map<SlotId, SlotHistory>> slotValuesSeen;
  /// Loop-carried pointers at a header's entry (Origin::entry): slot, object,
  /// offset.
  struct EntryPointer {
    SlotId slot;
    ObjectId object;
    int64_t offset;
  };
  std::vector<std::vector<EntryPointer>> loopEntries;
  static std::vector<EntryPointer> loopCarriedPointers(const State &S);
  static const EntryPointer *nearestPointer(ArrayRef<EntryPointer> Pointers, const SlotId &Cell);
  /// Origins of cells at enclosing loops' entries (Origin::outer).
  std::vector<Origin> outerOrigins;
  uint32_t outerOrigin(const Origin &Previous, const BasicBlock *Header);
  /// Pointers named by respec_assume() chains (a->b in a->b->c == K): the
  /// generic load that reads each names the memory behind it.
  std::set<const Value *> symbolicRoots;
  DenseMap<const Function *, uint64_t> workByFunction;
  /// Per callee: copies unfolded, and the instructions of its own body
  /// evaluated and emitted residual (SpecializeOptions::maxCopies).
  struct CopyTally {
    unsigned copies = 0;
    uint64_t evaluated = 0, residual = 0;
  };
  DenseMap<const Function *, CopyTally> copyTally;

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
  std::vector<Assumption> collectAssumptions() const;
  void mergeStraightLineBlocks();

  // Contexts and blocks.
  unsigned internContext(const ContextPath &Path);
  SpecBlock &blockFor(BasicBlock *BB, unsigned Context);
  void enqueue(SpecBlock &SB);
  void process(SpecBlock &SB);

  // Edges.
  BasicBlock *addEdge(BasicBlock *Target, State Out, unsigned TargetContext);
  BasicBlock *branchTo(BasicBlock *Succ, bool LastEdge);
  BasicBlock *branchToKnowing(BasicBlock *Succ, bool LastEdge, unsigned Edges, Value *V,
                              ConstantInt *C);
  void refineOnEdge(Value *V, ConstantInt *C);
  void refineLoadedMemory(LoadInst &Load, ConstantInt *C);
  unsigned contextForSuccessor(BasicBlock *Succ, const State &Out);
  /// Which slots a key is made of: (slot, whether it is a memory cell).
  using SlotFilter = std::function<bool(const SlotId &Slot, bool IsCell)>;
  std::string iterationKey(const State &S, const SlotFilter &Keep = nullptr);
  /// The values of Slots (at Header, in S) as a key.
  std::string slotsKey(const std::set<SlotId> &Slots, const State &S) const;
  bool checkTaintedSlots(const LoopSite &Site, unsigned IterationContext, const State &Out);
  bool checkProgramControl(const LoopSite &Site, unsigned Parent, const State &Out);
  bool walksOn(unsigned Iteration, unsigned Parent, const BasicBlock *Header, const State &Out);
  const State *iterationEntry(const BasicBlock *Header, unsigned Iteration) const;
  /// What decided a branch that may be one of a loop's own tests.
  enum class LoopTest { Dynamic, ProgramData, OtherStatic };
  void noteLoopTest(ArrayRef<BasicBlock *> Successors, LoopTest Kind);
  void noteProgramControl(const Value *Condition, ArrayRef<BasicBlock *> Successors);
  void noteStateRead(const Origin &From);
  std::string liveStateKey(const BasicBlock *Header, const State &S);
  bool hasRunawayCounter(const BasicBlock *Header) const;
  std::set<SlotId> movingSlots(const BasicBlock *Header) const;
  void noteProgramCounter(const AbstractValue &Address);
  bool isProgramCounter(const AbstractValue &A) const;
  std::string programCounterKey(const State &Entry, const State &Arriving);
  LoopSite loopSite(ArrayRef<ContextElement> Path, const BasicBlock *Header) const;
  LoopSite budgetSite(const ContextPath &Path, const BasicBlock *Header) const;
  LoopMode loopMode(const LoopSite &Site) const;
  unsigned residualLoopContext(ContextPath &Path, BasicBlock *Header);
  bool generalize(const LoopSite &Site, const std::string &Why, bool BudgetHit);
  void noteSlotValues(const BasicBlock *Header, const State &S);
  std::set<SlotId> fewValuedSlots(const BasicBlock *Header) const;
  [[noreturn]] void budgetExhausted(const std::string &Budget);
  void chargeWork(const Instruction &I);
  void chargeStateCopy(const SpecBlock &SB);
  void collectGarbage(State &S);
  void normalizeForEntry(State &S);
  bool definedBefore(const llvm::Value *A, const llvm::Value *B) const;
  void adoptCarriedRoots(const std::map<const llvm::Value *, llvm::Value *> &EntryPhis);
  /// The meet of a block's entry state so far (A) and an arriving one (B);
  /// where the edge closes a cycle, it widens (meetPointersIntoObject).
  bool closesCycle(const BasicBlock &From, const BasicBlock &To) const;
  static State meetStates(const State &A, const State &B, bool Widen);
  static AbstractValue meetValues(const AbstractValue &A, const AbstractValue &B,
                                  std::set<ObjectId> &Escaped, bool Widen);

  // Values.
  AbstractValue valueOf(Value *V, bool Use = true);
  AbstractValue fromConstant(Constant *C);
  Value *materialize(const AbstractValue &A, Type *Ty, bool Escapes);
  void setValue(Instruction &I, AbstractValue A) { state.top().env[&I] = A; }
  void propagateOrigin(AbstractValue &Result, ArrayRef<AbstractValue> Operands);
  void taintIfLoopTest(const CmpInst &I, const AbstractValue &A);

  // Instructions.
  void evaluate(Instruction &I);
  Instruction *emitResidual(Instruction &I, ArrayRef<AbstractValue> Operands,
                            bool OperandsEscape = true);
  void evaluatePure(Instruction &I);
  bool inObject(const AbstractValue &A) const;
  bool addressesMayMeet(const AbstractValue &L, const AbstractValue &R, bool Pointers) const;
  std::optional<AbstractValue> addressArithmetic(Instruction &I, ArrayRef<AbstractValue> Ops);
  std::optional<KnownBits> knownBitsOfResult(Instruction &I, ArrayRef<AbstractValue> Ops);
  void evaluateCompare(CmpInst &I);
  void evaluateGEP(GetElementPtrInst &I);
  int64_t lowestOffsetOfGEP(const AbstractValue &Base, Value *Residual) const;
  void evaluateLoad(LoadInst &I);
  void evaluateStore(StoreInst &I);
  void evaluateAlloca(AllocaInst &I);
  void evaluateCall(CallBase &I);
  void evaluateIntrinsic(IntrinsicInst &I);
  void evaluateMemoryIntrinsic(IntrinsicInst &I);
  void evaluateAssume(CallBase &I);
  /// respec_fact("NAME"): 1 or 0 by SpecializeOptions::facts.
  void evaluateLinkFact(CallBase &I);
  void evaluateStaticMemory(CallBase &I);
  // The running program's memory (HostMemory.cpp).
  /// A's address in the program, when it is a constant pointer there.
  std::optional<uint64_t> hostAddress(const AbstractValue &A) const;
  /// The root whose offsets are the program's addresses: a null pointer.
  Value *hostRoot() const;
  /// rootOf, and for an address in the program the host root.
  std::optional<std::pair<Value *, int64_t>> memoryRoot(const AbstractValue &Addr);
  /// What the program holds at Address: a function or constant variable of
  /// the generic code, or else just the address.
  AbstractValue fromHostAddress(uint64_t Address);
  /// C as the program's: a mutable variable's address, or the symbol at an
  /// address; none at build time or for other constants.
  std::optional<AbstractValue> hostConstant(Constant *C);
  /// A load of Ty from the program's memory declared static.
  std::optional<AbstractValue> loadHostStatic(const AbstractValue &Addr, Type *Ty);
  /// Size bytes at Src, when they are the program's memory declared static.
  std::optional<Cell> hostStaticCell(const AbstractValue &Src, uint64_t Size);
  /// respec_static_memory() at an address of the program; false if Ptr is not one.
  bool declareHostStatic(const AbstractValue &Ptr, uint64_t Size);
  StringRef spelledVariable(StringRef Builtin, const CallBase &I);
  GlobalVariable *variableNamed(StringRef Builtin, StringRef Spelled, const CallBase &I);
  void evaluateStaticVariable(CallBase &I);
  void evaluateVariableAddress(CallBase &I);
  void collectHostStatic(SpecializationResult &Result) const;
  /// A call kept in the residual code; Target, when given, is called instead
  /// of the callee (a specialized variant of it).
  void residualCall(CallBase &I, const std::vector<AbstractValue> &Args, Value *Callee,
                    Function *Target = nullptr);
  void applyCallEffects(const CallEffects &Effects);
  /// The variant of Callee for the static arguments of Args that are constants
  /// or point into static memory (RecursionVariants); null if none is, or the
  /// budget of variants is spent.
  Function *recursiveVariant(Function &Callee, const std::vector<AbstractValue> &Args);
  bool sameArgumentPattern(const std::vector<AbstractValue> &A,
                           const std::vector<AbstractValue> &B) const;
  void unfoldCall(CallBase &I, Function &Callee, const std::vector<AbstractValue> &Args);
  AbstractValue copyByValueArgument(CallBase &I, unsigned ArgNo, const AbstractValue &Actual);
  // Variadic callees (VariadicArguments.cpp).
  /// Why a variadic callee cannot be unfolded at I; empty if it can.
  std::string variadicCallProblem(const CallBase &I, const Function &Callee) const;
  /// Lays out I's variadic arguments in memory as the ABI does (residual stores).
  VariadicFrame passVariadicArguments(CallBase &I, const Function &Callee,
                                      const std::vector<AbstractValue> &Args);
  void evaluateVAStart(IntrinsicInst &I);
  void evaluateVACopy(IntrinsicInst &I);
  void evaluateVAArg(VAArgInst &I);
  /// P + Delta bytes (a residual GEP unless P is a static pointer).
  AbstractValue offsetPointer(const AbstractValue &P, int64_t Delta);
  /// A load or store the generic code does not spell out, evaluated as
  /// evaluateLoad/evaluateStore would evaluate one.
  AbstractValue loadAt(const AbstractValue &Addr, Type *Ty);
  void storeAt(const AbstractValue &Addr, const AbstractValue &Val, Type *Ty);
  void evaluateReturn(ReturnInst &I);
  void evaluateBranch(BranchInst &I);
  void evaluateSwitch(SwitchInst &I);
  /// A load of Ty at Off from the cell C that starts at Start, if C decides it.
  std::optional<AbstractValue> loadFromCell(const Cell &C, int64_t Start, int64_t Off,
                                            Type *Ty);
  /// The tracked cell holding [Addr, Addr+Size), if any (Start: where it
  /// begins; Off: Addr's offset in the object or behind its root).
  /// The memory an address points into, as root + offset, for a dynamic
  /// address (facts and stores behind dynamic pointers are keyed by root).
  static std::optional<std::pair<Value *, int64_t>> rootOf(const AbstractValue &Addr);
  const Cell *trackedCell(const AbstractValue &Addr, uint64_t Size, int64_t &Start,
                          int64_t &Off);
  // Assumptions (Assumptions.cpp).
  void applyFactToResidualLoad(const Cell &Fact, LoadInst &I);
  void noteFactUse(const Cell &C, const Instruction &User);
  void noteValueUses(const CallBase &Assume, const Value *V,
                     const std::set<const Value *> &Predicate);
  struct FactPlace {
    std::optional<ObjectId> object; ///< a tracked object, or else ...
    Value *root = nullptr;          ///< ... the memory behind this root
    int64_t offset = 0;
  };
  std::optional<FactPlace> factPlace(Value *GenericPointer, const CallBase &Assume);
  void recordFactAt(const FactPlace &Place, const Cell &Fact);
  bool isStableRoot(const Value *V) const;
  /// The memory effect of a write of Size bytes at Addr (UnknownExtent: from
  /// Addr on; the residual code already has the write); Written is what is
  /// known to be there now.
  void recordWrite(const AbstractValue &Addr, uint64_t Size, std::optional<Cell> Written,
                   const MDNode *AccessType);
  /// The memory effect of memcpy/memmove (IsSet: memset) of Len bytes (null:
  /// known only at run time) from Src to Dest.
  void recordTransfer(const AbstractValue &Dest, const AbstractValue &Src, ConstantInt *Len,
                      bool IsSet, bool Volatile);
  /// The abstract object of a stack slot of the current context, created with
  /// its residual alloca the first time (Site + Key name it).
  ObjectId stackObject(const Instruction *Site, unsigned Key, Type *Ty, ConstantInt *Count,
                       Align Alignment);
  void note(const Instruction &I, const std::string &Message);

  //--- Declared external facts (EvaluateFacts.cpp, LibraryCalls.cpp) -------===//
  /// The memory a stable fact declares, in this attempt: its object, or why
  /// it cannot be used.
  struct StableMemory {
    std::optional<ObjectId> object;
    std::string unusable;
  };
  std::map<unsigned, StableMemory> stableMemory;  ///< by fact, per attempt
  std::map<ObjectId, unsigned> stableMemoryFacts; ///< the reverse, per attempt
  /// The guards on entry (per attempt): the block the next guard goes in (it
  /// ends in the branch to the specialized code), and the block that runs the
  /// generic code instead.
  BasicBlock *guardTail = nullptr, *guardFallback = nullptr;
  std::set<unsigned> guardedFacts;
  void resetExternalFacts();
  /// A call a declared fact decides (evaluated, or residual with the fact's
  /// memory effects); false: the call is evaluated as usual.
  bool evaluateCallWithFacts(CallBase &I, Function &Callee,
                             const std::vector<AbstractValue> &Args);
  /// glibc's ctype functions (isdigit, toupper, ...) with a static argument,
  /// read from the declared ctype tables.
  std::optional<AbstractValue> evaluateCtypeFunction(CallBase &I, Function &Callee,
                                                     const std::vector<AbstractValue> &Args);
  void residualCallWithoutEffects(CallBase &I, const std::vector<AbstractValue> &Args);
  /// `*fn()` for a RESPEC_STABLE_TABLE function: the table's static pointer.
  std::optional<AbstractValue> loadThroughStableRoot(LoadInst &I, const AbstractValue &Addr);
  /// Whether A and B (different objects) may be the same memory: stable
  /// memory is external and may be a global's or another fact's too.
  bool stableMemoryMayBe(ObjectId A, ObjectId B) const;
  /// A load from Obj folded: if Obj is stable memory, its fact decided it.
  void noteStableMemoryRead(ObjectId Obj, const Instruction &I);
  const StableMemory &stableMemoryOf(const ExternalFact &F);
  /// Checks on entry that fn's memory is what specialization folded (Expected:
  /// the pointer read at run time; null: compare with the vouched contents),
  /// else runs the generic code. Returns the pointer fetched, or null.
  Value *guardOnEntry(const ExternalFact &F, Constant *Expected);
  Function *genericFallback();
  void noteExternalFactUse(const ExternalFact &F, ExternalFactUse::Kind Kind,
                           const Instruction &I);
  std::vector<ExternalFactReport> collectExternalFacts() const;
  /// A call of a C library function respec knows, evaluated on static
  /// arguments and memory (LibraryCalls.cpp); WhyNot says why not, if it matters.
  std::optional<AbstractValue> evaluateLibraryCall(CallBase &I, Function &Callee,
                                                   const std::vector<AbstractValue> &Args,
                                                   std::string &WhyNot);
  /// The byte at P + Index, if static.
  std::optional<uint8_t> staticByte(const AbstractValue &P, int64_t Index);
  /// Whether every use of V (through the returns of unfolded calls) compares it
  /// with zero; with SignMatters false, only for (in)equality.
  bool onlyComparedWithZero(const Value *V, bool SignMatters, unsigned Depth = 0) const;
  /// Residual calls of the comparison functions whose value is used beyond
  /// its sign: computed by the C library, not folded by LLVM.
  void keepLibraryResultsExact();

  /// The spec function's declaration, for messages about it as a whole.
  DebugLoc specLocation() const;
  void recordBindingTime(const Instruction &I, bool Residual) {
    current->bindingTimes.emplace_back(&I, Residual);
    CopyTally &Tally = copyTally[I.getFunction()];
    ++(Residual ? Tally.residual : Tally.evaluated);
  }
  /// Callee's copies so far left so much residual code that its calls now go
  /// to a shared variant (SpecializeOptions::maxCopies).
  bool shareInsteadOfUnfolding(const Function &Callee) const;
  uint64_t storeSize(Type *Ty) const { return layout.getTypeStoreSize(Ty); }
};

} // namespace detail
} // namespace respec

#endif
