//===- Driver.cpp - From C sources to a specialized object ----------------===//
#include "Driver.h"
#include "Reroll.h"
#include "SchedulingGate.h"
#include "Diagnostics.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include <fstream>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>

using namespace llvm;

namespace respec {

std::string clangPath() {
  if (const char *Env = getenv("RESPEC_CLANG"))
    return Env;
  return RESPEC_DEFAULT_CLANG;
}

/// respec's headers: installed beside the executable (<prefix>/include), or
/// in the source tree for a respec run from its build tree.
static std::string findIncludeDir() {
  // /proc/self/exe on Linux: the path of the running executable, links resolved.
  static int Anchor;
  SmallString<256> Installed(
      sys::path::parent_path(sys::fs::getMainExecutable("respec", &Anchor)));
  sys::path::append(Installed, RESPEC_INCLUDE_DIR_FROM_BINDIR);
  sys::path::remove_dots(Installed, /*remove_dot_dot=*/true);
  SmallString<256> Header(Installed);
  sys::path::append(Header, "respec", "respec.h");
  if (sys::fs::exists(Header))
    return Installed.str().str();
  return RESPEC_SOURCE_INCLUDE_DIR;
}

std::string includeDir() {
  static const std::string Dir = findIncludeDir(); // looked up once per process
  return Dir;
}

/// A directory for clang's outputs, removed with its contents.
class TemporaryDirectory {
public:
  TemporaryDirectory() {
    if (std::error_code EC = sys::fs::createUniqueDirectory("respec", path))
      throw SpecError("", "cannot create a temporary directory: " + EC.message());
  }
  ~TemporaryDirectory() { sys::fs::remove_directories(path); }
  TemporaryDirectory(const TemporaryDirectory &) = delete;
  TemporaryDirectory &operator=(const TemporaryDirectory &) = delete;

  SmallString<128> path;
};

/// Compiles File to IR, with its own build command when it has one, then the
/// command line's flags, then ExtraFlags.
static std::unique_ptr<Module> compileOne(LLVMContext &Ctx, const std::string &File,
                                          const Inputs &In, StringRef TempDir,
                                          const std::vector<std::string> &ExtraFlags = {}) {
  if (!sys::fs::exists(File))
    throw SpecError(File, "no such file");
  std::string Out = (TempDir + "/" + sys::path::stem(File) + "." +
                     std::to_string(std::hash<std::string>()(File)) + ".bc")
                        .str();
  // -O2 without LLVM passes: optimizable IR exactly as the front end wrote it.
  // No lifetime markers: the specializer drops them anyway, and without them
  // clang does not route returns from inner scopes through shared cleanup
  // blocks, where paths with different static states would meet.
  std::vector<std::string> Args = {clangPath(), "-c", "-emit-llvm", "-O2", "-Xclang",
                                   "-disable-llvm-passes", "-Xclang",
                                   "-disable-lifetime-markers", "-gline-tables-only",
                                   "-fno-discard-value-names", "-D__RESPEC_PE__",
                                   "-I" + includeDir()};
  SmallString<256> Source(File);
  if (auto Own = In.ownCommands.find(File); Own != In.ownCommands.end()) {
    // As the build compiles it, relative paths and all: in its directory.
    sys::fs::make_absolute(Source);
    Args.insert(Args.end(), {"-working-directory", Own->second.directory});
    Args.insert(Args.end(), Own->second.flags.begin(), Own->second.flags.end());
  }
  Args.insert(Args.end(), In.clangFlags.begin(), In.clangFlags.end());
  Args.insert(Args.end(), ExtraFlags.begin(), ExtraFlags.end());
  Args.insert(Args.end(), {Source.str().str(), "-o", Out});
  std::vector<StringRef> Refs(Args.begin(), Args.end());
  std::string Error;
  int Status = sys::ExecuteAndWait(Args[0], Refs, std::nullopt, {}, 0, 0, &Error);
  if (Status != 0)
    throw SpecError(File, Status < 0 ? "cannot run clang (" + Args[0] + "): " + Error
                                     : "clang rejected this file (see its messages above)");
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseIRFile(Out, Diag, Ctx);
  sys::fs::remove(Out);
  if (!M)
    throw SpecError(File, "cannot read clang's output: " + Diag.getMessage().str());
  return M;
}

/// Metadata on a generic source's file-static variable: {file, IR name}; it
/// names the variable for respec_static_variable() and respec_variable() (and
/// the run-time specializer's symbol lookup) after linking renamed it.
/// String literals (private, unnamed) have none.
static constexpr const char *OriginMetadata = "respec.origin";

static void recordOrigins(Module &M, const std::string &File) {
  LLVMContext &Ctx = M.getContext();
  for (GlobalVariable &G : M.globals())
    if (G.hasInternalLinkage())
      G.setMetadata(OriginMetadata, MDTuple::get(Ctx, {MDString::get(Ctx, File),
                                                       MDString::get(Ctx, G.getName())}));
}

std::unique_ptr<Module> compileAndLink(LLVMContext &Ctx, const Inputs &In) {
  TemporaryDirectory Temp;
  std::unique_ptr<Module> Linked = compileOne(Ctx, In.spec, In, Temp.path);
  Linked->setModuleIdentifier("respec");
  for (const std::string &File : In.sources) {
    std::unique_ptr<Module> M = compileOne(Ctx, File, In, Temp.path);
    recordOrigins(*M, File);
    if (Linker::linkModules(*Linked, std::move(M)))
      throw SpecError(File, "cannot link with the other inputs (duplicate definitions?)");
  }
  return Linked;
}

std::vector<Function *> findSpecFunctions(Module &M, const std::vector<std::string> &Only) {
  std::vector<Function *> Specs;
  if (GlobalVariable *Annotations = M.getGlobalVariable("llvm.global.annotations")) {
    auto *Array = cast<ConstantArray>(Annotations->getInitializer());
    for (Value *Entry : Array->operands()) {
      auto *Fields = cast<ConstantStruct>(Entry);
      auto *F = dyn_cast<Function>(Fields->getOperand(0)->stripPointerCasts());
      auto *Str = dyn_cast<GlobalVariable>(Fields->getOperand(1)->stripPointerCasts());
      if (!F || !Str || !Str->hasInitializer())
        continue;
      auto *Data = dyn_cast<ConstantDataArray>(Str->getInitializer());
      if (Data && Data->getAsCString() == "respec.specialize" &&
          std::find(Specs.begin(), Specs.end(), F) == Specs.end())
        Specs.push_back(F);
    }
  }
  if (!Only.empty()) {
    std::vector<Function *> Chosen;
    for (const std::string &Name : Only) {
      auto It = llvm::find_if(Specs, [&](Function *F) { return F->getName() == Name; });
      if (It == Specs.end())
        throw SpecError("", "unknown function '" + Name + "': not a RESPEC_SPECIALIZE "
                            "function of the spec" +
                            (M.getFunction(Name) ? " (it exists but is not marked)" : ""));
      Chosen.push_back(*It);
    }
    Specs = Chosen;
  }
  return Specs;
}

std::vector<Specialized> specializeModule(Module &M, const std::vector<Function *> &Specs,
                                          const SpecializeOptions &Options) {
  ModuleInfo Info(M);
  std::vector<Specialized> Done;
  for (Function *Spec : Specs)
    Done.push_back({Spec, specialize(*Spec, Info, Options),
                    Spec->getSubprogram() ? Spec->getSubprogram()->getLine() : 0});
  return Done;
}

void installSpecializedBodies(std::vector<Specialized> &Done) {
  for (Specialized &S : Done) {
    Function *R = S.result.residual;
    S.spec->deleteBody();
    S.spec->splice(S.spec->end(), R);
    for (auto [From, To] : llvm::zip(R->args(), S.spec->args()))
      From.replaceAllUsesWith(&To);
    S.spec->removeFnAttr(Attribute::NoInline);
    S.spec->removeFnAttr(Attribute::OptimizeNone);
    R->eraseFromParent();
    S.result.residual = S.spec;
    S.result.bindingTimes.clear(); // they named instructions of the old body
    for (const Function *V : S.result.variants)
      S.variantNames.push_back(V->getName().str());
  }
}

std::vector<Function *> specializedCode(Module &M, const Specialized &S) {
  std::vector<Function *> Code = {S.spec};
  for (const std::string &Name : S.variantNames)
    if (Function *V = M.getFunction(Name))
      Code.push_back(V);
  return Code;
}

std::set<const GlobalValue *> globalsReachedFrom(const std::vector<const Function *> &Roots) {
  std::set<const GlobalValue *> Reached;
  std::vector<const Value *> Pending(Roots.begin(), Roots.end());
  while (!Pending.empty()) {
    const Value *V = Pending.back();
    Pending.pop_back();
    auto Visit = [&](const Value *Op) {
      if (auto *GV = dyn_cast<GlobalValue>(Op)) {
        if (Reached.insert(GV).second)
          Pending.push_back(GV);
      } else if (auto *C = dyn_cast<Constant>(Op)) {
        Pending.push_back(C);
      }
    };
    if (auto *F = dyn_cast<Function>(V)) {
      for (const Instruction &I : instructions(*F))
        for (const Value *Op : I.operands())
          Visit(Op);
    } else if (auto *G = dyn_cast<GlobalVariable>(V)) {
      if (G->hasInitializer())
        Visit(G->getInitializer());
    } else if (auto *C = dyn_cast<Constant>(V)) {
      for (const Value *Op : C->operands()) // aliases' aliasees, constant expressions
        Visit(Op);
    }
  }
  for (const Function *Root : Roots)
    Reached.erase(Root);
  return Reached;
}

/// Whether some code may write G: it is stored to, or its address goes
/// somewhere respec does not follow (a call, a store of the address, another
/// global's initializer). Loads and address comparisons only read.
static bool mayBeWritten(const GlobalVariable &G) {
  std::vector<const Value *> Pending = {&G};
  while (!Pending.empty()) {
    const Value *V = Pending.back();
    Pending.pop_back();
    for (const User *U : V->users()) {
      if (isa<LoadInst>(U) || isa<ICmpInst>(U))
        continue;
      if (isa<GEPOperator>(U) || isa<BitCastOperator>(U) || isa<AddrSpaceCastOperator>(U)) {
        Pending.push_back(U);
        continue;
      }
      return true;
    }
  }
  return false;
}

namespace {
/// A static variable as its source declares it.
struct DeclaredStatic {
  unsigned line = 0;
  std::string name;     ///< without clang's "function." prefix
  std::string function; ///< of a function-local static; empty at file scope
};
} // namespace

/// The static variables of File by IR name, from clang's full debug info (the
/// compile for specialization has line tables only: no variables).
static std::map<std::string, DeclaredStatic> declaredStatics(const std::string &File,
                                                             const Inputs &In,
                                                             StringRef TempDir) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = compileOne(Ctx, File, In, TempDir, {"-g"});
  std::map<std::string, DeclaredStatic> Statics;
  for (const GlobalVariable &G : M->globals()) {
    SmallVector<DIGlobalVariableExpression *, 1> Debug;
    G.getDebugInfo(Debug);
    if (!G.hasLocalLinkage() || Debug.empty())
      continue;
    DIGlobalVariable *V = Debug.front()->getVariable();
    DeclaredStatic &D = Statics[G.getName().str()];
    D.line = V->getLine();
    D.name = V->getName().str();
    if (auto *SP = dyn_cast_or_null<DISubprogram>(V->getScope()))
      D.function = SP->getName().str();
  }
  return Statics;
}

std::vector<CopiedStatic> findCopiedMutableStatics(const Module &M,
                                                   const std::vector<Specialized> &Done,
                                                   const Inputs &In) {
  std::vector<const Function *> Specs;
  for (const Specialized &S : Done)
    Specs.push_back(S.spec);
  std::set<const GlobalValue *> Reached = globalsReachedFrom(Specs);
  std::vector<std::pair<std::string, std::string>> Copied; // file, IR name in it
  for (const GlobalVariable &G : M.globals()) {
    MDNode *Origin = G.getMetadata(OriginMetadata);
    if (Origin && G.hasLocalLinkage() && !G.isConstant() && Reached.count(&G) &&
        mayBeWritten(G))
      Copied.emplace_back(cast<MDString>(Origin->getOperand(0))->getString(),
                          cast<MDString>(Origin->getOperand(1))->getString());
  }
  if (Copied.empty())
    return {};
  TemporaryDirectory Temp;
  std::map<std::string, std::map<std::string, DeclaredStatic>> StaticsByFile;
  std::vector<CopiedStatic> Found;
  for (const auto &[File, Name] : Copied) {
    auto Statics = StaticsByFile.find(File);
    if (Statics == StaticsByFile.end())
      Statics = StaticsByFile.emplace(File, declaredStatics(File, In, Temp.path)).first;
    auto Declared = Statics->second.find(Name);
    if (Declared == Statics->second.end()) { // made by clang, e.g. a compound literal
      Found.push_back({File, "'" + Name + "'", File});
      continue;
    }
    const DeclaredStatic &D = Declared->second;
    Found.push_back({File + ":" + std::to_string(D.line),
                     "'" + D.name + "'" + (D.function.empty() ? "" : " in " + D.function + "()"),
                     File});
  }
  return Found;
}

/// Whether code that uses V must use the program's own instance of it.
static bool bindsToProgram(const GlobalObject *V) {
  auto *G = dyn_cast_or_null<GlobalVariable>(V);
  return G && !G->isConstant();
}

void internalizeForLinking(Module &M, const std::vector<Specialized> &Done, LinkMode Mode) {
  if (GlobalVariable *Annotations = M.getGlobalVariable("llvm.global.annotations"))
    Annotations->eraseFromParent();
  // The spec's RESPEC_PURE/RESPEC_STABLE declarations (ExternalFacts.h).
  removeFromUsedLists(M, [](Constant *C) {
    auto *G = dyn_cast<GlobalVariable>(C);
    return G && ExternalFacts::isDeclarationGlobal(*G);
  });
  for (GlobalVariable &G : make_early_inc_range(M.globals()))
    if (ExternalFacts::isDeclarationGlobal(G) && G.use_empty())
      G.eraseFromParent();
  for (GlobalVariable &G : M.globals())
    G.setMetadata(OriginMetadata, nullptr);
  if (Mode == LinkMode::ReplacesSources)
    return;
  std::set<const Function *> Exported;
  for (const Specialized &S : Done)
    Exported.insert(S.spec);
  for (Function &F : M)
    if (!F.isDeclaration() && !Exported.count(&F))
      F.setLinkage(GlobalValue::InternalLinkage);
  for (GlobalVariable &G : M.globals()) {
    if (G.isDeclaration() || G.hasLocalLinkage() || G.getName().startswith("llvm."))
      continue;
    // Constants may be private copies (and vanish when evaluated away); mutable
    // state must stay one object shared with the rest of the program.
    G.setLinkage(bindsToProgram(&G) ? GlobalValue::WeakAnyLinkage
                                    : GlobalValue::InternalLinkage);
  }
  // A library's other names for its definitions (weak_alias(foo, foo_r)).
  for (GlobalAlias &A : M.aliases())
    if (!A.hasLocalLinkage())
      A.setLinkage(bindsToProgram(A.getAliaseeObject()) ? GlobalValue::WeakAnyLinkage
                                                        : GlobalValue::InternalLinkage);
  for (GlobalIFunc &I : M.ifuncs())
    I.setLinkage(GlobalValue::InternalLinkage);
}

PassPipeline::PassPipeline(const PipelineTuningOptions &Tuning, TargetMachine *TM)
    : builder(TM, Tuning) {
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(cgsccAnalyses);
  builder.registerFunctionAnalyses(functionAnalyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses, moduleAnalyses);
}

PassPipeline::PassPipeline(StringRef Text) : PassPipeline(PipelineTuningOptions(), nullptr) {
  if (Error E = builder.parsePassPipeline(passes, Text))
    throw SpecError("", "bad pass pipeline '" + Text.str() + "': " + toString(std::move(E)));
}

static PipelineTuningOptions clangTuning() {
  PipelineTuningOptions Tuning;
  Tuning.LoopVectorization = true;
  Tuning.SLPVectorization = true;
  Tuning.LoopUnrolling = true;
  return Tuning;
}

PassPipeline::PassPipeline(unsigned Level, TargetMachine *TM) : PassPipeline(clangTuning(), TM) {
  passes = builder.buildPerModuleDefaultPipeline(Level >= 3   ? OptimizationLevel::O3
                                                 : Level == 2 ? OptimizationLevel::O2
                                                              : OptimizationLevel::O1);
}

void PassPipeline::run(Module &M) {
  passes.run(M, moduleAnalyses);
  // Results are keyed by the IR objects' addresses, which a later module may reuse.
  loopAnalyses.clear();
  functionAnalyses.clear();
  cgsccAnalyses.clear();
  moduleAnalyses.clear();
}

static std::unique_ptr<TargetMachine> targetMachineFor(const Module &M, std::string &Error);

void optimize(Module &M, unsigned Level, const std::vector<Specialized> &Done,
              unsigned MinReroll) {
  if (Level == 0)
    return;
  // With the target's cost models, as clang optimizes: without them the
  // vectorizers see no vector registers and the inliner and unroller guess.
  // (IR for a target respec has no code generator for is optimized without.)
  std::string NoTarget;
  std::unique_ptr<TargetMachine> TM = targetMachineFor(M, NoTarget);
  PassPipeline(Level, TM.get()).run(M);
  unsigned Loops = 0;
  for (const Specialized &S : Done)
    for (Function *F : specializedCode(M, S))
      Loops += rerollRepeatedCode(*F, MinReroll);
  if (Loops) // (a fresh pipeline: the default one cannot run twice)
    PassPipeline(Level, TM.get()).run(M);
}

std::string canonicalPath(StringRef Directory, StringRef File) {
  SmallString<256> Path(File);
  sys::fs::make_absolute(Directory, Path);
  SmallString<256> Real;
  if (!sys::fs::real_path(Path, Real))
    return Real.str().str();
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

void writeFileAtomically(const std::string &Path, const std::string &Contents) {
  SmallString<128> Temp;
  int FD;
  if (std::error_code EC = sys::fs::createUniqueFile(Path + ".tmp-%%%%%%", FD, Temp))
    throw SpecError(Path, "cannot write: " + EC.message());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.close();
    if (OS.has_error()) {
      sys::fs::remove(Temp);
      throw SpecError(Path, "cannot write: " + OS.error().message());
    }
  }
  if (std::error_code EC = sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    throw SpecError(Path, "cannot write: " + EC.message());
  }
}

namespace {
/// Takes the code generator's errors (inline assembly its assembler rejects)
/// instead of LLVM's default handler, which prints them and exits, leaving an
/// older output behind. Each asm statement carries clang's !srcloc cookie;
/// the asm call's debug location says which file:line that is.
class CodeGenErrorHandler : public DiagnosticHandler {
public:
  explicit CodeGenErrorHandler(const Module &M) {
    for (const Function &F : M)
      for (const Instruction &I : instructions(F))
        if (auto *Call = dyn_cast<CallBase>(&I); Call && Call->isInlineAsm())
          if (const MDNode *SrcLoc = I.getMetadata("srcloc"))
            if (auto *Cookie = mdconst::dyn_extract<ConstantInt>(SrcLoc->getOperand(0)))
              asmLocations[Cookie->getZExtValue()] = I.getDebugLoc();
  }

  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() != DS_Error)
      return false; // warnings and remarks: LLVM prints them
    if (firstError)
      return true;
    std::string Message;
    raw_string_ostream OS(Message);
    uint64_t Cookie = 0;
    if (auto *SrcMgr = dyn_cast<DiagnosticInfoSrcMgr>(&DI)) {
      OS << (SrcMgr->isInlineAsmDiag() ? "inline assembly: " : "")
         << SrcMgr->getSMDiag().getMessage();
      Cookie = SrcMgr->getLocCookie();
    } else if (auto *Asm = dyn_cast<DiagnosticInfoInlineAsm>(&DI)) {
      OS << "inline assembly: " << Asm->getMsgStr();
      Cookie = Asm->getLocCookie();
    } else {
      DiagnosticPrinterRawOStream Printer(OS);
      DI.print(Printer);
    }
    auto Where = asmLocations.find(Cookie);
    firstError.emplace(Where == asmLocations.end() ? "" : formatLocation(Where->second),
                       "the code generator rejects the specialized code: " + OS.str());
    return true;
  }

  std::optional<SpecError> firstError;

private:
  std::map<uint64_t, DebugLoc> asmLocations;
};
} // namespace

/// A code generator for M's target (the host's when M names none), for the
/// cost models of the optimization pipeline and for emitting objects. CPU and
/// features are each function's own (clang's target-cpu/target-features
/// attributes, e.g. from -march=), or else baseline x86-64. Null, with Error
/// set, when respec has no code generator for the target.
static std::unique_ptr<TargetMachine> targetMachineFor(const Module &M, std::string &Error) {
  static std::once_flag TargetsReady;
  std::call_once(TargetsReady, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    InitializeNativeTargetAsmParser(); // for inline assembly
  });
  std::string Triple =
      M.getTargetTriple().empty() ? sys::getDefaultTargetTriple() : M.getTargetTriple();
  const Target *T = TargetRegistry::lookupTarget(Triple, Error);
  if (!T) {
    Error = "no code generator for " + Triple + ": " + Error;
    return nullptr;
  }
  TargetOptions Options;
  return std::unique_ptr<TargetMachine>(T->createTargetMachine(
      Triple, "x86-64", "", Options, Reloc::PIC_, std::nullopt, CodeGenOpt::Default));
}

/// M as a native object for the host.
static std::string emitObject(Module &M) {
  std::string Error;
  std::unique_ptr<TargetMachine> TM = targetMachineFor(M, Error);
  if (!TM)
    throw SpecError("", Error);
  M.setDataLayout(TM->createDataLayout());
  SmallVector<char, 0> Object;
  raw_svector_ostream ObjectStream(Object);
  legacy::PassManager PM;
  if (TM->addPassesToEmitFile(PM, ObjectStream, nullptr, CGFT_ObjectFile))
    throw SpecError("", "the code generator cannot emit an object file");

  LLVMContext &Ctx = M.getContext();
  auto *Errors = new CodeGenErrorHandler(M);
  std::unique_ptr<DiagnosticHandler> Previous = Ctx.getDiagnosticHandler();
  Ctx.setDiagnosticHandler(std::unique_ptr<DiagnosticHandler>(Errors));
  auto Restore = make_scope_exit([&] { Ctx.setDiagnosticHandler(std::move(Previous)); });
  SchedulingGate Gate(M);
  PM.run(M);
  if (Errors->firstError)
    throw *Errors->firstError;
  return std::string(Object.data(), Object.size());
}

void writeOutput(Module &M, const std::string &Path, bool EmitLLVM) {
  std::string Problems;
  raw_string_ostream ProblemStream(Problems);
  if (verifyModule(M, &ProblemStream))
    throw SpecError("", "internal error: the specialized module does not verify: " + Problems);
  std::string Contents;
  if (EmitLLVM) {
    raw_string_ostream OS(Contents);
    M.print(OS, nullptr);
  } else {
    Contents = emitObject(M);
  }
  if (Path == "-") {
    outs() << Contents;
    return;
  }
  writeFileAtomically(Path, Contents);
}

/// Private constants (string literals and the like) are left out: constant data
/// needs no binding (it is copied). A private variable is kept: the program's
/// copy is the only one. Clang makes one for a local aggregate whose initializer
/// mixes constants with the address of a local: the constant part is copied
/// from `constinit`, which it does not mark constant. (Found by the fuzzing
/// campaign's run-time mode, test/fuzz/README.md; test/jit/jit_host_test.c.)
std::vector<GlobalValue *> embeddedDefinitions(Module &M) {
  std::vector<GlobalValue *> Definitions;
  for (GlobalValue &GV : M.global_values()) {
    auto *Variable = dyn_cast<GlobalVariable>(&GV);
    if ((isa<Function>(GV) || Variable) && !GV.isDeclaration() &&
        !GV.hasAvailableExternallyLinkage() && !GV.getName().startswith("llvm.") &&
        !(GV.hasPrivateLinkage() && (!Variable || Variable->isConstant())))
      Definitions.push_back(&GV);
  }
  return Definitions;
}

/// The generic code as the program runs it: the spec's declarations (calls of
/// the __respec_* builtins) have no run-time meaning, and every definition's
/// address goes into respec_symbols_Name, which keeps them all.
void writeBitcode(const Module &M, const std::string &Path) {
  std::string Bitcode;
  raw_string_ostream Stream(Bitcode);
  WriteBitcodeToFile(M, Stream);
  writeFileAtomically(Path, Bitcode);
}

std::vector<GlobalVariable *> variablesNamed(Module &M, StringRef Spelled) {
  auto [File, Name] = Spelled.rsplit(':');
  if (Name.empty())
    std::swap(File, Name);
  auto FileMatches = [&](StringRef Origin) {
    return File.empty() || Origin == File || Origin.endswith(("/" + File).str());
  };
  std::vector<GlobalVariable *> Found;
  for (GlobalVariable &G : M.globals()) {
    if (G.isDeclaration())
      continue;
    if (MDNode *Origin = G.getMetadata(OriginMetadata)) {
      if (cast<MDString>(Origin->getOperand(1))->getString() == Name &&
          FileMatches(cast<MDString>(Origin->getOperand(0))->getString()))
        Found.push_back(&G);
    } else if (G.getName() == Name && File.empty()) {
      Found.push_back(&G); // a global, or a file-static of the spec (or a file it includes)
    }
  }
  return Found;
}

void eraseRespecBuiltins(Module &M) {
  for (Function &F : M)
    if (F.isDeclaration() && F.getName().startswith("__respec_"))
      for (User *U : make_early_inc_range(F.users()))
        if (auto *Call = dyn_cast<CallBase>(U); Call && Call->getCalledOperand() == &F) {
          // respec_variable() is the variable it names (the specializer
          // refused the spec otherwise); respec_fact(): nothing is known, 0.
          Value *Result = nullptr;
          if (F.getName() == "__respec_variable")
            if (StringRef Spelled; getConstantStringInfo(Call->getArgOperand(0), Spelled))
              if (std::vector<GlobalVariable *> Found = variablesNamed(M, Spelled); Found.size() == 1)
                Result = Found.front();
          if (!Call->getType()->isVoidTy())
            Call->replaceAllUsesWith(Result ? Result : Constant::getNullValue(Call->getType()));
          Call->eraseFromParent();
        }
}

static void prepareEmbeddedCode(Module &M, const std::string &Name, unsigned OptLevel) {
  std::vector<Constant *> Addresses;
  for (GlobalValue *GV : embeddedDefinitions(M))
    Addresses.push_back(GV);
  eraseRespecBuiltins(M);
  LLVMContext &Ctx = M.getContext();
  auto *Table = ArrayType::get(PointerType::getUnqual(Ctx), Addresses.size());
  new GlobalVariable(M, Table, true, GlobalValue::ExternalLinkage,
                     ConstantArray::get(Table, Addresses), "respec_symbols_" + Name);
  new GlobalVariable(M, Type::getInt64Ty(Ctx), true, GlobalValue::ExternalLinkage,
                     ConstantInt::get(Type::getInt64Ty(Ctx), Addresses.size()),
                     "respec_symbols_" + Name + "_count");
  optimize(M, OptLevel, {}, 0);
}

void writeEmbeddedBitcode(Module &M, const std::string &Name, const std::string &Path,
                          bool WithCode, unsigned OptLevel) {
  SmallVector<char, 0> Bitcode;
  raw_svector_ostream BitcodeStream(Bitcode);
  WriteBitcodeToFile(M, BitcodeStream);
  LLVMContext Ctx;
  std::unique_ptr<Module> OwnHolder;
  if (!WithCode)
    OwnHolder = std::make_unique<Module>("respec-embedded-" + Name, Ctx);
  else
    prepareEmbeddedCode(M, Name, OptLevel);
  Module &Holder = WithCode ? M : *OwnHolder;
  Holder.setTargetTriple(M.getTargetTriple());
  LLVMContext &HolderCtx = Holder.getContext();
  Constant *Bytes = ConstantDataArray::get(
      HolderCtx, ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Bitcode.data()), Bitcode.size()));
  auto *Data = new GlobalVariable(Holder, Bytes->getType(), true, GlobalValue::ExternalLinkage,
                                  Bytes, "respec_bitcode_" + Name);
  Data->setAlignment(Align(16));
  new GlobalVariable(Holder, Type::getInt64Ty(HolderCtx), true, GlobalValue::ExternalLinkage,
                     ConstantInt::get(Type::getInt64Ty(HolderCtx), Bitcode.size()),
                     "respec_bitcode_" + Name + "_size");
  writeOutput(Holder, Path, false);
}

void writeHeader(const std::vector<Specialized> &Done, const std::string &SpecPath,
                 const std::string &HeaderPath) {
  std::ifstream In(SpecPath);
  std::vector<std::string> Lines;
  for (std::string Line; std::getline(In, Line);)
    Lines.push_back(Line);
  std::ostringstream H;
  std::string Guard = "RESPEC_GENERATED_" + sys::path::stem(HeaderPath).upper() + "_H";
  std::replace_if(Guard.begin(), Guard.end(), [](char C) { return !isalnum(C); }, '_');
  H << "/* Generated by respec from " << SpecPath << ": the specialized functions. */\n"
    << "#ifndef " << Guard << "\n#define " << Guard << "\n\n";
  for (const std::string &Line : Lines)
    if (std::regex_search(Line, std::regex("^\\s*#\\s*include")))
      H << Line << "\n";
  H << "\n";
  for (const Specialized &S : Done) {
    if (S.declarationLine == 0 || S.declarationLine > Lines.size())
      throw SpecError(SpecPath, "cannot find the declaration of '" +
                                    S.spec->getName().str() + "' for the header");
    std::string Decl;
    for (size_t L = S.declarationLine - 1; L < Lines.size(); ++L) {
      size_t Brace = Lines[L].find('{');
      Decl += Lines[L].substr(0, Brace) + (Brace == std::string::npos ? "\n" : "");
      if (Brace != std::string::npos)
        break;
    }
    Decl = std::regex_replace(Decl, std::regex("RESPEC_SPECIALIZE\\s*"), "");
    Decl = std::regex_replace(Decl, std::regex("\\s+$"), "");
    H << Decl << ";\n";
  }
  H << "\n#endif\n";
  writeFileAtomically(HeaderPath, H.str());
}

} // namespace respec
