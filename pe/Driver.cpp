//===- Driver.cpp - From C sources to a specialized object ----------------===//
#include "Driver.h"
#include "Diagnostics.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LegacyPassManager.h"
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
#include <fstream>
#include <regex>
#include <sstream>

using namespace llvm;

namespace respec {

static std::string clangPath() {
  if (const char *Env = getenv("RESPEC_CLANG"))
    return Env;
  return RESPEC_DEFAULT_CLANG;
}

static std::unique_ptr<Module> compileOne(LLVMContext &Ctx, const std::string &File,
                                          const Inputs &In, const std::string &TempDir) {
  if (!sys::fs::exists(File))
    throw SpecError(File, "no such file");
  std::string Out = TempDir + "/" + sys::path::stem(File).str() + "." +
                    std::to_string(std::hash<std::string>()(File)) + ".bc";
  // -O2 without LLVM passes: optimizable IR exactly as the front end wrote it.
  // No lifetime markers: the specializer drops them anyway, and without them
  // clang does not route returns from inner scopes through shared cleanup
  // blocks, where paths with different static states would meet.
  std::vector<std::string> Args = {clangPath(), "-c", "-emit-llvm", "-O2", "-Xclang",
                                   "-disable-llvm-passes", "-Xclang",
                                   "-disable-lifetime-markers", "-gline-tables-only",
                                   "-fno-discard-value-names", "-D__RESPEC_PE__",
                                   "-I" RESPEC_INCLUDE_DIR};
  Args.insert(Args.end(), In.clangFlags.begin(), In.clangFlags.end());
  Args.insert(Args.end(), {File, "-o", Out});
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

std::unique_ptr<Module> compileAndLink(LLVMContext &Ctx, const Inputs &In) {
  SmallString<128> TempDir;
  if (std::error_code EC = sys::fs::createUniqueDirectory("respec", TempDir))
    throw SpecError("", "cannot create a temporary directory: " + EC.message());
  std::unique_ptr<Module> Linked;
  std::vector<std::string> Files = {In.spec};
  Files.insert(Files.end(), In.sources.begin(), In.sources.end());
  try {
    for (const std::string &File : Files) {
      std::unique_ptr<Module> M = compileOne(Ctx, File, In, TempDir.str().str());
      if (!Linked) {
        Linked = std::move(M);
        Linked->setModuleIdentifier("respec");
      } else if (Linker::linkModules(*Linked, std::move(M))) {
        throw SpecError(File, "cannot link with the other inputs (duplicate definitions?)");
      }
    }
  } catch (...) {
    sys::fs::remove(TempDir);
    throw;
  }
  sys::fs::remove(TempDir);
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
  }
}

void internalizeForLinking(Module &M, const std::vector<Specialized> &Done) {
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
    G.setLinkage(G.isConstant() ? GlobalValue::InternalLinkage : GlobalValue::WeakAnyLinkage);
  }
  if (GlobalVariable *Annotations = M.getGlobalVariable("llvm.global.annotations"))
    Annotations->eraseFromParent();
}

PassPipeline::PassPipeline(const PipelineTuningOptions &Tuning) : builder(nullptr, Tuning) {
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(cgsccAnalyses);
  builder.registerFunctionAnalyses(functionAnalyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses, moduleAnalyses);
}

PassPipeline::PassPipeline(StringRef Text) : PassPipeline(PipelineTuningOptions()) {
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

PassPipeline::PassPipeline(unsigned Level) : PassPipeline(clangTuning()) {
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

void optimize(Module &M, unsigned Level) {
  if (Level > 0)
    PassPipeline(Level).run(M);
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

void writeOutput(Module &M, const std::string &Path, bool EmitLLVM) {
  std::string Buffer;
  raw_string_ostream OS(Buffer);
  if (EmitLLVM) {
    M.print(OS, nullptr);
  } else {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    std::string Triple = M.getTargetTriple().empty() ? sys::getDefaultTargetTriple()
                                                     : M.getTargetTriple();
    std::string Error;
    const Target *T = TargetRegistry::lookupTarget(Triple, Error);
    if (!T)
      throw SpecError("", "no code generator for " + Triple + ": " + Error);
    TargetOptions Options;
    std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
        Triple, "x86-64", "", Options, Reloc::PIC_, std::nullopt, CodeGenOpt::Default));
    M.setDataLayout(TM->createDataLayout());
    SmallVector<char, 0> Object;
    raw_svector_ostream ObjectStream(Object);
    legacy::PassManager PM;
    if (TM->addPassesToEmitFile(PM, ObjectStream, nullptr, CGFT_ObjectFile))
      throw SpecError("", "the code generator cannot emit an object file");
    PM.run(M);
    OS << StringRef(Object.data(), Object.size());
  }
  if (Path == "-") {
    outs() << OS.str();
    return;
  }
  writeFileAtomically(Path, OS.str());
}

void writeEmbeddedBitcode(const Module &M, const std::string &Name, const std::string &Path) {
  SmallVector<char, 0> Bitcode;
  raw_svector_ostream BitcodeStream(Bitcode);
  WriteBitcodeToFile(M, BitcodeStream);
  LLVMContext Ctx;
  Module Holder("respec-embedded-" + Name, Ctx);
  Holder.setTargetTriple(M.getTargetTriple());
  Constant *Bytes = ConstantDataArray::get(
      Ctx, ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Bitcode.data()), Bitcode.size()));
  auto *Data = new GlobalVariable(Holder, Bytes->getType(), true, GlobalValue::ExternalLinkage,
                                  Bytes, "respec_bitcode_" + Name);
  Data->setAlignment(Align(16));
  new GlobalVariable(Holder, Type::getInt64Ty(Ctx), true, GlobalValue::ExternalLinkage,
                     ConstantInt::get(Type::getInt64Ty(Ctx), Bitcode.size()),
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
