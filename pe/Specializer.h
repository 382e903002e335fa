//===- Specializer.h - Online partial evaluation of LLVM IR -----*- C++ -*-===//
//
// Specializes one spec function: runs its body, and every generic function it
// reaches, on an abstract state (AbstractValue.h, MemoryState.h) in which the
// function's parameters are dynamic and everything else starts static, and
// emits residual code for what cannot be evaluated. See Specializer.cpp for the
// algorithm.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_SPECIALIZER_H
#define RESPEC_PE_SPECIALIZER_H

#include "FunctionInfo.h"
#include "HostProgram.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace respec {

/// Named knobs, all settable from the command line.
struct SpecializeOptions {
  /// Iterations of one loop instance unrolled before the loop is kept residual.
  unsigned maxUnroll = 4096;
  /// Iterations unrolled of a loop whose own tests are one on run-time data
  /// and one on static data other than a program's (a counter against a
  /// bound: `for (i = 1; i <= 4; i++) if (p >= end) return`); one more, and
  /// the loop counts as under dynamic control and is generalized. 0 (the
  /// default, until a benchmark shows what 16 gains): at once.
  unsigned maxUnrollWithDynamicExit = 0;
  /// Residual IR instructions (before cleanup) before the largest unrolled loop
  /// is kept residual instead.
  unsigned maxGrowth = 400000;
  /// Nesting depth of unfolded calls; deeper calls stay residual.
  unsigned maxInlineDepth = 64;
  /// Unfolded activations of one function on the call stack. Recursion is
  /// unfolded only while its static arguments change, and at most this deep.
  unsigned maxRecursion = 64;
  /// Functions specialized for the static pattern of a recursive call (one per
  /// callee and pattern); past it, such calls go to the generic function.
  unsigned maxRecursiveVariants = 64;
  /// Copies of one callee unfolded, each leaving on average at least
  /// sharedCopyResidual residual instructions of its own body and no more
  /// evaluated than residual ones, after which its calls go to one function
  /// specialized per static argument pattern (a variant, as for recursion), or
  /// with none to the generic function: a slow path that every call site
  /// reaches (a stream refilling its buffer) is specialized once, not at each
  /// site. 0: always unfold.
  unsigned maxCopies = 8;
  unsigned sharedCopyResidual = 16;
  /// Work (instructions evaluated plus abstract values copied into the entry
  /// states of specialized blocks) of one attempt. Past it, the loop
  /// that unrolled most (or the loop keyed on its live state that it runs in;
  /// or else the function that took most work) is kept
  /// residual and specialization starts over; once all attempts together have
  /// done four times this much, every loop and call is kept residual. Each is a
  /// budget hit with a note.
  uint64_t maxWork = 2000000;
  /// Instructions the call-effects analysis (CallEffects.h) visits for one
  /// residual call to visible code; past it, the callee's write summary
  /// (WriteSummary.h) applies. 0: never analyze.
  uint64_t maxCallEffectsWork = 5000;
  /// Called now and then during long runs (blocks specialized so far).
  std::function<void(unsigned Blocks, unsigned Restarts)> progress;
  /// Run-time specialization: the address of a symbol in this process, which
  /// is the one the specialized code runs in (null if there is none). Set, it
  /// lets respec call stable and pure functions in-process (ExternalFacts.h).
  std::function<void *(llvm::StringRef Name)> hostSymbol;
  /// Run-time specialization: the program the specialized code runs in. Set,
  /// static pointers are addresses in it, its mutable variables are shared
  /// with the specialized code, and memory the spec declares static is read
  /// live (HostMemory.cpp).
  const HostProgram *host = nullptr;
  /// Link time (`respec link`): the facts that hold for the client the code
  /// is specialized for; respec_fact("NAME") is 1 for these, 0 for others.
  std::set<std::string> facts;
};

/// What the specialization achieved (the statistics `respec explain` prints).
struct SpecializeStats {
  unsigned instructionsBefore = 0;     ///< generic instructions reachable from the spec
  unsigned instructionsEvaluated = 0;  ///< abstract instruction executions evaluated away
  unsigned instructionsResidual = 0;   ///< residual instructions emitted (before cleanup)
  unsigned branchesFolded = 0;
  unsigned callsUnfolded = 0;
  unsigned indirectCallsDevirtualized = 0;
  unsigned loopIterationsUnrolled = 0;
  unsigned loopsKeptResidual = 0;      ///< loops under dynamic control
  unsigned loopsKeyedOnProgramData = 0; ///< loops with one block per program point
  unsigned loopsKeyedOnLiveState = 0;   ///< loops with one block per state their iterations read
  unsigned budgetHits = 0;
  unsigned blocksSpecialized = 0;
  unsigned restarts = 0;
  unsigned recursiveVariants = 0; ///< functions specialized for a recursive call's pattern
  unsigned callEffectsAnalyzed = 0; ///< residual calls whose writes were found from the call site
  unsigned edgesRefined = 0; ///< residual branch edges on which a dynamic value is a case's constant
  uint64_t work = 0; ///< instructions evaluated by all attempts (the work budget's unit)

  /// Adds the counts of another specialization (a recursive variant) to these.
  /// instructionsBefore stays: the generic code is the same code.
  SpecializeStats &operator+=(const SpecializeStats &O) {
    instructionsEvaluated += O.instructionsEvaluated;
    instructionsResidual += O.instructionsResidual;
    branchesFolded += O.branchesFolded;
    callsUnfolded += O.callsUnfolded;
    indirectCallsDevirtualized += O.indirectCallsDevirtualized;
    loopIterationsUnrolled += O.loopIterationsUnrolled;
    loopsKeptResidual += O.loopsKeptResidual;
    loopsKeyedOnProgramData += O.loopsKeyedOnProgramData;
    loopsKeyedOnLiveState += O.loopsKeyedOnLiveState;
    budgetHits += O.budgetHits;
    blocksSpecialized += O.blocksSpecialized;
    restarts += O.restarts;
    recursiveVariants += O.recursiveVariants;
    callEffectsAnalyzed += O.callEffectsAnalyzed;
    edgesRefined += O.edgesRefined;
    work += O.work;
    return *this;
  }
};

/// How often each generic instruction was evaluated away vs left residual.
struct BindingTime {
  unsigned evaluated = 0;
  unsigned residual = 0;
};

struct Note {
  llvm::DebugLoc loc;
  std::string message;
};

/// A respec_assume() the specialization reached, and where its fact decided a
/// value (a load folded, a bit-field's bits, a use of the compared value).
struct Assumption {
  llvm::DebugLoc loc;
  std::vector<llvm::DebugLoc> usedAt; ///< one per source line; empty: no effect
};

/// A fact the spec declared about an external function (RESPEC_PURE,
/// RESPEC_STABLE, ...) and what it decided in one specialization.
struct ExternalFactReport {
  std::string where;       ///< file:line of the declaration
  std::string declaration; ///< e.g. "RESPEC_PURE(strlen)"
  std::string bundle;      ///< the macro that declared it with others, if any
  std::vector<llvm::DebugLoc> decided; ///< calls and loads evaluated away, one per line
  /// Residual calls that kept memory because of it, residual reads of stable
  /// memory through the pointer fetched on entry: one per line.
  std::vector<llvm::DebugLoc> kept;
  unsigned callsReached = 0;  ///< calls of the function reached
  unsigned callsUnfolded = 0; ///< of those, unfolded (respec has the definition)
  std::string unusable;       ///< why the fact could not be used, if it could not
  bool guarded = false;       ///< the specialized function checks it on entry

  bool hadEffect() const { return !decided.empty() || !kept.empty(); }
};

struct SpecializationResult {
  llvm::Function *residual = nullptr; ///< new function with the spec's signature
  /// New internal functions the residual calls: recursive callees specialized
  /// for a static argument pattern. They live in the same module.
  std::vector<llvm::Function *> variants;
  SpecializeStats stats;
  std::map<const llvm::Instruction *, BindingTime> bindingTimes;
  std::vector<Note> notes;            ///< budget hits, constructs kept residual
  std::vector<Assumption> assumptions; ///< in source order
  std::vector<ExternalFactReport> externalFacts; ///< every declared fact, in declaration order
  /// Run-time specialization: the program's memory the code was specialized
  /// on (declared static by the spec), as it was then. The code is valid only
  /// while those bytes hold these contents.
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> hostStaticMemory;
  /// The facts (SpecializeOptions::facts) a respec_fact() read as holding:
  /// the code is valid only while they hold.
  std::set<std::string> factsRelied;
};

/// How one parameter of the spec function is bound. At build time all are
/// Dynamic; run-time specialization fixes some to values known only then.
struct ArgumentBinding {
  enum Kind { Dynamic, Value, HostMemory, Constant } kind = Dynamic;
  uint64_t value = 0; ///< Value: the integer or address; HostMemory: the address
  uint64_t size = 0;  ///< HostMemory: bytes at the address whose contents are fixed
  int64_t offset = 0; ///< HostMemory: the argument points this far into them
  llvm::Constant *constant = nullptr; ///< Constant: an LLVM constant of the parameter's type

  bool operator<(const ArgumentBinding &O) const {
    return std::tie(kind, value, size, offset, constant) <
           std::tie(O.kind, O.value, O.size, O.offset, O.constant);
  }
};

/// Bytes of a global that respec_static_memory() declared fixed; with no
/// global, bytes of the running program at the address `offset`.
struct StaticMemoryRange {
  llvm::GlobalVariable *global = nullptr;
  int64_t offset = 0;
  uint64_t size = 0;
  bool operator<(const StaticMemoryRange &O) const {
    return std::tie(global, offset, size) < std::tie(O.global, O.offset, O.size);
  }
};

/// Specializes Spec (whose body calls the generic code) into a new function in
/// the same module, with the same signature. Throws SpecError on bad input.
SpecializationResult specialize(llvm::Function &Spec, const ModuleInfo &Info,
                                const SpecializeOptions &Options,
                                const std::vector<ArgumentBinding> &Bindings = {});

} // namespace respec

#endif
