//===- RuntimeSpecializer.cpp - Run-time specialization (respec/jit.h) ----===//
//
// The run-time half of respec: the partial evaluator of `respec specialize`,
// run inside the program on bitcode that `respec embed` put there, for static
// inputs known only now, followed by a cleanup pipeline and ORC.
//
// One request goes:
//   1. key = function name + each static input (values, and the bytes of static
//      memory); a cached result is returned at once;
//   2. specialize() the spec function of the generic module (canonicalized once,
//      at respec_jit_create) with the parameters bound;
//   3. move the residual function into a module of its own, with copies of the
//      generic functions it still calls and the constant data it reads, and
//      declarations for the rest: mutable globals and external functions bind
//      to the program's own (so specialized code shares state with the
//      program); the cost is that of the residual code, not of the module;
//   4. a short cleanup pipeline (see CleanupPipeline), hand to LLJIT, look the
//      symbol up (both pipelines, cleanup and code generation, are built once
//      per specializer: PassPipeline, ReusedPipelineCompiler.h): a native function
//      pointer with the spec function's signature, kept until released.
// Requests are serialized by one mutex (the generic module and the LLVM context
// are shared). Asynchronous requests are served by one worker thread that
// replugs a librespec slot when the code is ready: callers keep running the
// generic function through the slot and never wait for a compile.
//
//===----------------------------------------------------------------------===//
#include "Diagnostics.h"
#include "Driver.h"
#include "FunctionInfo.h"
#include "HostSymbols.h"
#include "ReusedPipelineCompiler.h"
#include "SmallSwitchLowering.h"
#include "Specializer.h"
#include "replug.h"
#include "respec/jit.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include <chrono>
#include <condition_variable>
#include <dlfcn.h>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace llvm;
using namespace respec;

namespace {

thread_local std::string LastError;

void *fail(const std::string &Message) {
  LastError = Message;
  return nullptr;
}

/// Specialized code, and the ORC handle that frees it.
struct CompiledCode {
  void *address = nullptr;
  orc::ResourceTrackerSP tracker;
  /// The program's memory the spec declared static, as it was when the code
  /// was made (HostMemory.cpp): the code fits while it still is.
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> staticMemory;

  bool fitsProgramState() const {
    return llvm::all_of(staticMemory, [](const auto &Range) {
      return memcmp(reinterpret_cast<const void *>(Range.first), Range.second.data(),
                    Range.second.size()) == 0;
    });
  }
};

struct AsyncRequest {
  std::string function;
  std::vector<respec_arg> args;
  respec_slot *slot;
};

/// The cache key: which function, and everything static about the call.
std::string cacheKey(const std::string &Function, const respec_arg *Args, unsigned N) {
  std::string Key = Function;
  Key.push_back('\0');
  for (unsigned I = 0; I < N; ++I) {
    Key.push_back(char(Args[I].kind));
    if (Args[I].kind == RESPEC_ARG_DYNAMIC)
      continue;
    Key.append(reinterpret_cast<const char *>(&Args[I].value), sizeof Args[I].value);
    if (Args[I].kind == RESPEC_ARG_STATIC_MEMORY) {
      Key.append(reinterpret_cast<const char *>(&Args[I].size), sizeof Args[I].size);
      Key.append(reinterpret_cast<const char *>(Args[I].value), Args[I].size);
    }
  }
  return Key;
}

} // namespace

struct respec_jit {
  orc::ThreadSafeContext context{std::make_unique<LLVMContext>()};
  std::unique_ptr<Module> generic;
  std::unique_ptr<ModuleInfo> info;
  std::unique_ptr<HostSymbols> host; ///< the generic code's symbols in this program
  std::unique_ptr<orc::LLJIT> jit;
  std::unique_ptr<PassPipeline> cleanup; ///< CleanupPipeline, built once
  respec_jit_cleanup cleanupLevel = RESPEC_JIT_CLEANUP_LIGHT;
  std::mutex lock; ///< serializes everything below and all use of `context`
  /// By cacheKey(); one key may have code for several states of the
  /// program's static memory (CompiledCode::staticMemory).
  std::multimap<std::string, CompiledCode> cache;
  respec_jit_stats stats{};
  unsigned compiled = 0;

  // The asynchronous worker.
  std::mutex queueLock;
  std::condition_variable queueChanged;
  std::deque<AsyncRequest> queue;
  unsigned inFlight = 0;
  bool stopping = false;
  std::thread worker;

  void *specialize(const std::string &Function, const respec_arg *Args, unsigned N);
  /// Stats: what the specialization achieved.
  CompiledCode compile(Function &Spec, const std::vector<ArgumentBinding> &Bindings,
                       SpecializeStats &Stats);
  int release(void *Code);
  std::unique_ptr<Module> extract(Function &Residual, const std::string &Name);
  void serveQueue();
};

/// A declaration in M of a symbol the program defines, bound when ORC links the
/// specialized code. Not dso_local: the program may be anywhere in memory.
static GlobalValue *declareInModule(Module &M, const GlobalValue &Symbol) {
  GlobalValue *Declaration;
  if (auto *Type = dyn_cast<FunctionType>(Symbol.getValueType())) {
    Function *F = Function::Create(Type, GlobalValue::ExternalLinkage, Symbol.getName(), M);
    if (auto *Original = dyn_cast<Function>(&Symbol))
      F->copyAttributesFrom(Original);
    Declaration = F;
  } else {
    auto *Variable = dyn_cast<GlobalVariable>(&Symbol);
    auto *G = new GlobalVariable(M, Symbol.getValueType(), Variable && Variable->isConstant(),
                                 GlobalValue::ExternalLinkage, nullptr, Symbol.getName(),
                                 nullptr, Symbol.getThreadLocalMode(),
                                 Symbol.getAddressSpace());
    if (Variable)
      G->setAlignment(Variable->getAlign());
    Declaration = G;
  }
  Declaration->setLinkage(GlobalValue::ExternalLinkage);
  Declaration->setDSOLocal(false);
  return Declaration;
}

std::unique_ptr<Module> respec_jit::extract(Function &Residual, const std::string &Name) {
  std::set<const GlobalValue *> Reached = globalsReachedFrom({&Residual});
  // Mutable state stays the program's own: a file-static variable is bound
  // to its address in the program (HostSymbols.h), if the program has one.
  for (const GlobalValue *GV : Reached) {
    auto *G = dyn_cast<GlobalVariable>(GV);
    if (!G || G->isConstant() || !G->hasLocalLinkage() || host->addressOf(*G))
      continue;
    if (G->hasPrivateLinkage()) // no symbol: only an address table binds it
      throw SpecError("", "the specialized code uses '" + G->getName().str() +
                              "', a variable of the generic code without a symbol (such as "
                              "clang's copy of a local array's initializer); link the code "
                              "`respec embed --replaces-sources` compiles, whose address "
                              "table binds it");
    throw SpecError("", "the specialized code uses the file-static variable '" +
                            G->getName().str() +
                            "', which the program's symbol table does not show (stripped, "
                            "or defined in several files of that name); make it external "
                            "or pass it as an argument");
  }

  auto M = std::make_unique<Module>(Name, generic->getContext());
  M->setDataLayout(generic->getDataLayout());
  M->setTargetTriple(generic->getTargetTriple());
  if (NamedMDNode *Flags = generic->getModuleFlagsMetadata())
    for (MDNode *Flag : Flags->operands())
      M->getOrInsertModuleFlagsMetadata()->addOperand(Flag);

  // Generic functions still called are the program's own where it is known
  // where the program holds them (HostSymbols.h), copied (private to the new
  // module) otherwise; constant data is copied; the rest is declared, or bound
  // to the program's copy. Walk the module, not the set, so the order (and
  // with it the code) does not depend on addresses.
  ValueToValueMapTy Map;
  std::vector<std::pair<const Function *, Function *>> Bodies;
  std::vector<std::pair<const GlobalVariable *, GlobalVariable *>> Initializers;
  for (const GlobalValue &GV : generic->global_values()) {
    if (!Reached.count(&GV))
      continue;
    auto *F = dyn_cast<Function>(&GV);
    auto *G = dyn_cast<GlobalVariable>(&GV);
    std::optional<uint64_t> Address = GV.isDeclaration() ? std::nullopt : host->addressOf(GV);
    if (Address && !(G && G->isConstant())) {
      Map[&GV] = ConstantExpr::getIntToPtr(
          ConstantInt::get(Type::getInt64Ty(M->getContext()), *Address), GV.getType());
    } else if (F && !F->isDeclaration()) {
      Function *Copy = Function::Create(F->getFunctionType(), GlobalValue::InternalLinkage,
                                        F->getName(), *M);
      Copy->copyAttributesFrom(F);
      Copy->setLinkage(GlobalValue::InternalLinkage);
      auto Argument = Copy->arg_begin();
      for (const llvm::Argument &Original : F->args()) {
        Argument->setName(Original.getName());
        Map[&Original] = &*Argument++;
      }
      Bodies.emplace_back(F, Copy);
      Map[F] = Copy;
    } else if (G && G->isConstant() && G->hasInitializer()) {
      auto *Copy = new GlobalVariable(*M, G->getValueType(), true, GlobalValue::InternalLinkage,
                                      nullptr, G->getName());
      Copy->copyAttributesFrom(G);
      Copy->setLinkage(GlobalValue::InternalLinkage);
      Initializers.emplace_back(G, Copy);
      Map[G] = Copy;
    } else {
      Map[&GV] = declareInModule(*M, GV);
    }
  }
  for (auto [Original, Copy] : Bodies) {
    SmallVector<ReturnInst *, 4> Returns;
    CloneFunctionInto(Copy, Original, Map, CloneFunctionChangeType::DifferentModule, Returns);
  }
  for (auto [Original, Copy] : Initializers)
    Copy->setInitializer(MapValue(Original->getInitializer(), Map));

  // The residual function itself moves: it is new, and nothing else uses it.
  // Debug locations go (they point into the generic module's compile unit, and
  // nothing reads them in JIT code).
  stripDebugInfo(Residual);
  Residual.removeFromParent();
  M->getFunctionList().push_back(&Residual);
  Residual.setName(Name);
  Residual.setLinkage(GlobalValue::ExternalLinkage);
  Map[&Residual] = &Residual;
  RemapFunction(Residual, Map, RF_IgnoreMissingLocals);
  if (!Bodies.empty())
    StripDebugInfo(*M);
  return M;
}

/// RESPEC_JIT_REPORT=1: one line per specialization on stderr, with what
/// `respec explain` would count, and its budget hits and notes.
static void report(const Function &Spec, const SpecializationResult &Result,
                   std::chrono::steady_clock::time_point Start) {
  double Ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
                  .count();
  const SpecializeStats &S = Result.stats;
  errs() << "respec-jit: " << Spec.getName() << ": specialized in " << format("%.1f", Ms)
         << " ms: " << S.instructionsEvaluated << " instructions evaluated, "
         << S.instructionsResidual << " residual, " << S.callsUnfolded << " calls unfolded, "
         << S.indirectCallsDevirtualized << " indirect calls devirtualized, "
         << S.loopsKeptResidual << " loops kept, " << S.restarts << " restarts, "
         << S.budgetHits << " budget hits, " << Result.hostStaticMemory.size()
         << " static ranges of the program\n";
  for (const Note &N : Result.notes) {
    errs() << "respec-jit:   ";
    if (DILocation *Loc = N.loc.get())
      errs() << Loc->getFilename() << ":" << Loc->getLine() << ": ";
    errs() << N.message << "\n";
  }
}

/// The cleanup after run-time specialization. Residual code needs its stack
/// objects promoted, stores the specializer kept for soundness removed when
/// dead, and trivial blocks and phis folded; the rest of -O2 (inlining, loop
/// passes, vectorizers) costs more generation time than it gains here: on
/// libpcap filters, generation 30% faster for code 9% slower than -O2. Without
/// instcombine, filters run 35% slower. Small switches are lowered after it
/// (SmallSwitchLowering.h), for FastISel.
static constexpr const char *CleanupPipeline =
    "function(sroa,early-cse,instcombine,simplifycfg,dse,adce,simplifycfg)";

/// RESPEC_JIT_DUMP=DIR: the code as it goes to ORC, in DIR/FUNCTION.N.ll, to
/// read what run-time specialization made (`respec specialize --emit-llvm`
/// shows the same at build time). Written whole or not at all (a temporary
/// file renamed); a failure is said on stderr and changes nothing else.
static void dump(const Module &M, const std::string &Directory, const std::string &Stem) {
  std::string Path = Directory + "/" + Stem + ".ll", Temporary = Path + ".tmp";
  std::error_code Error;
  {
    raw_fd_ostream Out(Temporary, Error);
    if (!Error) {
      M.print(Out, nullptr);
      Out.close();
      Error = Out.error();
    }
  }
  if (!Error)
    Error = sys::fs::rename(Temporary, Path);
  if (Error) {
    sys::fs::remove(Temporary);
    errs() << "respec-jit: RESPEC_JIT_DUMP: cannot write " << Path << ": " << Error.message()
           << "\n";
  }
}

CompiledCode respec_jit::compile(Function &Spec, const std::vector<ArgumentBinding> &Bindings,
                                 SpecializeStats &Stats) {
  SpecializeOptions Options;
  // The specialized code runs in this process: stable and pure functions the
  // spec declares (ExternalFacts.h) may be called here, now.
  Options.hostSymbol = [](StringRef Name) { return dlsym(RTLD_DEFAULT, Name.str().c_str()); };
  Options.host = host.get();
  auto Start = std::chrono::steady_clock::now();
  SpecializationResult Result = respec::specialize(Spec, *info, Options, Bindings);
  if (getenv("RESPEC_JIT_REPORT"))
    report(Spec, Result, Start);
  unsigned Number = compiled++;
  std::string Name = "respec.jit." + std::to_string(Number);
  std::unique_ptr<Module> M;
  // Recursive variants are copied into M with the rest of what the residual
  // calls; the generic module is left as it was.
  auto EraseVariants = [&] {
    for (Function *V : Result.variants)
      V->dropAllReferences();
    for (Function *V : Result.variants)
      V->eraseFromParent();
  };
  try {
    M = extract(*Result.residual, Name); // moves the residual out of the generic module
  } catch (...) {
    Result.residual->eraseFromParent();
    EraseVariants();
    throw;
  }
  EraseVariants();
  if (cleanupLevel == RESPEC_JIT_CLEANUP_FULL)
    PassPipeline(2, nullptr).run(*M); // built per module: reused, its inliner crashed (LLVM 16)
  else
    cleanup->run(*M);
  lowerSmallSwitches(*M);
  if (const char *Directory = getenv("RESPEC_JIT_DUMP"))
    dump(*M, Directory, Spec.getName().str() + "." + std::to_string(Number));
  orc::ResourceTrackerSP Tracker = jit->getMainJITDylib().createResourceTracker();
  if (Error E = jit->addIRModule(Tracker, orc::ThreadSafeModule(std::move(M), context)))
    throw SpecError("", "ORC cannot add the specialized code: " + toString(std::move(E)));
  Expected<orc::ExecutorAddr> Address = jit->lookup(Name);
  if (!Address) {
    consumeError(Tracker->remove());
    throw SpecError("", "ORC cannot compile the specialized code: " +
                            toString(Address.takeError()));
  }
  Stats = Result.stats;
  return {Address->toPtr<void *>(), std::move(Tracker), std::move(Result.hostStaticMemory)};
}

void *respec_jit::specialize(const std::string &Function, const respec_arg *Args, unsigned N) {
  std::lock_guard<std::mutex> Guard(lock);
  auto Start = std::chrono::steady_clock::now();
  std::string Key = cacheKey(Function, Args, N);
  auto [First, Last] = cache.equal_range(Key);
  for (auto It = First; It != Last; ++It)
    if (It->second.fitsProgramState()) {
      ++stats.cache_hits;
      return It->second.address;
    }
  llvm::Function *Spec = generic->getFunction(Function);
  if (!Spec || Spec->isDeclaration())
    return fail("respec_jit_specialize: no function '" + Function + "' in the embedded code");
  if (Spec->arg_size() != N)
    return fail("respec_jit_specialize: '" + Function + "' takes " +
                std::to_string(Spec->arg_size()) + " arguments, " + std::to_string(N) +
                " given");
  std::vector<ArgumentBinding> Bindings(N);
  for (unsigned I = 0; I < N; ++I) {
    switch (Args[I].kind) {
    case RESPEC_ARG_DYNAMIC:
      break;
    case RESPEC_ARG_STATIC_VALUE:
      Bindings[I] = {ArgumentBinding::Value, Args[I].value, 0};
      break;
    case RESPEC_ARG_STATIC_MEMORY:
      Bindings[I] = {ArgumentBinding::HostMemory, Args[I].value, Args[I].size};
      break;
    default:
      return fail("respec_jit_specialize: argument " + std::to_string(I + 1) +
                  " has an unknown kind");
    }
  }
  CompiledCode Code;
  SpecializeStats Specialized;
  try {
    Code = compile(*Spec, Bindings, Specialized);
  } catch (const SpecError &E) {
    return fail((E.where.empty() ? "" : E.where + ": ") + E.what());
  }
  void *Address = Code.address;
  stats.last_calls_devirtualized = Specialized.indirectCallsDevirtualized;
  stats.last_loops_kept = Specialized.loopsKeptResidual;
  cache.emplace(std::move(Key), std::move(Code));
  double Ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
                  .count();
  ++stats.specializations;
  stats.last_ms = Ms;
  stats.total_ms += Ms;
  return Address;
}

int respec_jit::release(void *Code) {
  std::lock_guard<std::mutex> Guard(lock);
  auto It = llvm::find_if(cache, [&](const auto &Entry) { return Entry.second.address == Code; });
  if (It == cache.end()) {
    fail("respec_jit_release: not code of this specializer (or released already)");
    return -1;
  }
  if (Error E = It->second.tracker->remove()) {
    fail("respec_jit_release: " + toString(std::move(E)));
    return -1;
  }
  cache.erase(It);
  return 0;
}

void respec_jit::serveQueue() {
  for (;;) {
    AsyncRequest Request;
    {
      std::unique_lock<std::mutex> Guard(queueLock);
      queueChanged.wait(Guard, [&] { return stopping || !queue.empty(); });
      if (queue.empty())
        return;
      Request = std::move(queue.front());
      queue.pop_front();
    }
    void *Code = specialize(Request.function, Request.args.data(), Request.args.size());
    if (Code && respec_jit_replug_slot(Request.slot, Code) != 0)
      fprintf(stderr, "respec-jit: cannot replug '%s': %s\n", Request.function.c_str(),
              respec_jit_runtime_error());
    else if (!Code)
      fprintf(stderr, "respec-jit: %s\n", LastError.c_str());
    std::lock_guard<std::mutex> Guard(queueLock);
    --inFlight;
    queueChanged.notify_all();
  }
}

/// Code generation at -O2 (greedy register allocation, machine optimizations)
/// with FastISel selecting instructions, SelectionDAG only where FastISel
/// cannot. Residual code is mostly compares and branches over loads, which
/// FastISel selects about as well: on libpcap filters, instruction selection
/// drops from 5.5M to 0.8M instructions per filter (a third of code
/// generation) and the filters run as fast (geometric mean over the bench's
/// cases within 1%; tcp port 80 is 77 instructions instead of 74).
static Expected<std::unique_ptr<orc::IRCompileLayer::IRCompiler>>
createCompiler(orc::JITTargetMachineBuilder Builder) {
  Builder.setCodeGenOptLevel(CodeGenOpt::Default);
  Builder.getOptions().EnableFastISel = true;
  auto Machine = Builder.createTargetMachine();
  if (!Machine)
    return Machine.takeError();
  return std::make_unique<ReusedPipelineCompiler>(std::move(*Machine));
}

extern "C" {

/// respec_jit_create with the embedded code's symbol table (Symbols, Count)
/// or, with none, the program's symbol tables.
static respec_jit *createSpecializer(const void *Bitcode, size_t Size,
                                     const void *const *Symbols, size_t Count) {
  static std::once_flag TargetsReady;
  std::call_once(TargetsReady, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    InitializeNativeTargetAsmParser(); // for inline assembly in the generic code
  });
  auto J = std::make_unique<respec_jit>();
  // Nothing reads the names of local values here (no reports, no IR printed);
  // not making them saves a tenth of the specializer's time.
  J->context.getContext()->setDiscardValueNames(true);
  auto Buffer = MemoryBuffer::getMemBuffer(
      StringRef(static_cast<const char *>(Bitcode), Size), "respec-embedded", false);
  Expected<std::unique_ptr<Module>> M = parseBitcodeFile(*Buffer, *J->context.getContext());
  if (!M) {
    fprintf(stderr, "respec_jit_create: unusable bitcode: %s\n",
            toString(M.takeError()).c_str());
    return nullptr;
  }
  J->generic = std::move(*M);
  try {
    J->info = std::make_unique<ModuleInfo>(*J->generic);
  } catch (const SpecError &E) { // a declaration `respec embed` would have rejected
    fprintf(stderr, "respec_jit_create: %s%s%s\n", E.where.c_str(), E.where.empty() ? "" : ": ",
            E.what());
    return nullptr;
  }
  J->cleanup = std::make_unique<PassPipeline>(CleanupPipeline);
  auto Jit = orc::LLJITBuilder().setCompileFunctionCreator(createCompiler).create();
  if (!Jit) {
    fprintf(stderr, "respec_jit_create: %s\n", toString(Jit.takeError()).c_str());
    return nullptr;
  }
  J->jit = std::move(*Jit);
  auto Process = orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      J->jit->getDataLayout().getGlobalPrefix());
  if (!Process) {
    fprintf(stderr, "respec_jit_create: %s\n", toString(Process.takeError()).c_str());
    return nullptr;
  }
  J->jit->getMainJITDylib().addGenerator(std::move(*Process));
  J->generic->setDataLayout(J->jit->getDataLayout());
  try {
    J->host = Symbols ? std::make_unique<HostSymbols>(*J->generic, Symbols, Count)
                      : std::make_unique<HostSymbols>(*J->generic);
  } catch (const SpecError &E) {
    fprintf(stderr, "respec_jit_create: %s\n", E.what());
    return nullptr;
  }
  return J.release();
}

respec_jit *respec_jit_create(const void *Bitcode, size_t Size) {
  return createSpecializer(Bitcode, Size, nullptr, 0);
}

respec_jit *respec_jit_create_with_symbols(const void *Bitcode, size_t Size,
                                           const void *const *Symbols, size_t Count) {
  if (!Symbols) {
    fprintf(stderr, "respec_jit_create_with_symbols: no symbol table\n");
    return nullptr;
  }
  return createSpecializer(Bitcode, Size, Symbols, Count);
}

void respec_jit_destroy(respec_jit *J) {
  if (!J)
    return;
  if (J->worker.joinable()) {
    {
      std::lock_guard<std::mutex> Guard(J->queueLock);
      J->stopping = true;
      J->queueChanged.notify_all();
    }
    J->worker.join();
  }
  delete J;
}

int respec_jit_release(respec_jit *J, void *Code) {
  if (!J || !Code) {
    fail("respec_jit_release: NULL argument");
    return -1;
  }
  return J->release(Code);
}

void *respec_jit_specialize(respec_jit *J, const char *Function, const respec_arg *Args,
                            unsigned N) {
  if (!J || !Function || (N && !Args))
    return fail("respec_jit_specialize: NULL argument");
  return J->specialize(Function, Args, N);
}

int respec_jit_specialize_async(respec_jit *J, const char *Function, const respec_arg *Args,
                                unsigned N, respec_slot *Slot) {
  if (!J || !Function || !Slot || (N && !Args)) {
    fail("respec_jit_specialize_async: NULL argument");
    return -1;
  }
  std::lock_guard<std::mutex> Guard(J->queueLock);
  if (!J->worker.joinable())
    J->worker = std::thread([J] { J->serveQueue(); });
  J->queue.push_back({Function, std::vector<respec_arg>(Args, Args + N), Slot});
  ++J->inFlight;
  J->queueChanged.notify_all();
  return 0;
}

void respec_jit_wait(respec_jit *J) {
  std::unique_lock<std::mutex> Guard(J->queueLock);
  J->queueChanged.wait(Guard, [&] { return J->inFlight == 0; });
}

void respec_jit_set_cleanup(respec_jit *J, respec_jit_cleanup Cleanup) {
  std::lock_guard<std::mutex> Guard(J->lock);
  J->cleanupLevel = Cleanup;
}

void respec_jit_get_stats(respec_jit *J, respec_jit_stats *Stats) {
  std::lock_guard<std::mutex> Guard(J->lock);
  *Stats = J->stats;
}

const char *respec_jit_error(respec_jit *) { return LastError.c_str(); }

} // extern "C"
