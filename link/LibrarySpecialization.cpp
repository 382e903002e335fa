//===- LibrarySpecialization.cpp - A library's code, for one client -------===//
#include "LibrarySpecialization.h"
#include "Diagnostics.h"
#include "Driver.h"
#include "SingleTargetCalls.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace respec::link {

/// The facts of Variant's `when` line that must hold (not the negated ones).
static std::set<std::string> requiredFacts(const link_variant &Variant) {
  std::set<std::string> Facts;
  for (size_t I = 0; I < Variant.when_count; ++I)
    if (!Variant.when[I].negated)
      Facts.insert(Variant.when[I].fact);
  return Facts;
}

/// Replaces Function's definition, for the rest of the program, with an
/// entry that runs Spec (the specialized body) while every byte at Checks
/// is not zero, and the library's own function (now internal) otherwise.
static void installEntry(Module &M, Function &Generic, Function &Spec,
                         const std::vector<std::string> &CheckSymbols) {
  std::string Name = Generic.getName().str();
  Generic.setName(Name + ".generic");
  Generic.setLinkage(GlobalValue::InternalLinkage);
  Spec.setLinkage(GlobalValue::InternalLinkage);
  Function *Entry = Function::Create(Generic.getFunctionType(), GlobalValue::ExternalLinkage,
                                     Name, M);
  Entry->copyAttributesFrom(&Generic);
  Entry->setVisibility(GlobalValue::DefaultVisibility);
  LLVMContext &Ctx = M.getContext();
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Entry));
  std::vector<Value *> Args;
  for (Argument &A : Entry->args())
    Args.push_back(&A);
  auto Return = [&](Function &Callee) {
    CallInst *Call = B.CreateCall(&Callee, Args);
    Call->setTailCall();
    if (Entry->getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Call);
  };
  if (CheckSymbols.empty())
    return Return(Spec);
  Value *Holds = B.getTrue();
  for (const std::string &Symbol : CheckSymbols) {
    Constant *Byte = M.getOrInsertGlobal(Symbol, B.getInt8Ty());
    Holds = B.CreateAnd(Holds, B.CreateICmpNE(B.CreateLoad(B.getInt8Ty(), Byte, Symbol),
                                              B.getInt8(0)));
  }
  BasicBlock *Specialized = BasicBlock::Create(Ctx, "specialized", Entry);
  BasicBlock *Fallback = BasicBlock::Create(Ctx, "generic", Entry);
  B.CreateCondBr(Holds, Specialized, Fallback);
  B.SetInsertPoint(Specialized);
  Return(Spec);
  B.SetInsertPoint(Fallback);
  Return(Generic);
}

/// Makes every definition of M that Exports does not name internal.
static void keepOnlyExports(Module &M, const std::set<std::string> &Exports) {
  auto Hide = [&](GlobalValue &G) {
    if (!G.isDeclaration() && !G.hasLocalLinkage() && !G.getName().startswith("llvm.") &&
        !Exports.count(G.getName().str())) {
      G.setLinkage(GlobalValue::InternalLinkage);
      G.setVisibility(GlobalValue::DefaultVisibility);
    }
  };
  for (Function &F : M)
    Hide(F);
  for (GlobalVariable &G : M.globals())
    Hide(G);
  for (GlobalAlias &A : M.aliases())
    Hide(A);
}

SpecializedLibrary specializeLibrary(const link_rules &Rules, const link_variant &Variant,
                                     const std::set<std::string> &Facts,
                                     const std::set<std::string> *Exports,
                                     const std::string &ObjectPath) {
  std::string Where = std::string(Rules.path) + ":" + std::to_string(Variant.line);
  LLVMContext Ctx;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseIRFile(Variant.bitcode, Diag, Ctx);
  if (!M)
    throw SpecError(Where, "cannot read the library's code " + std::string(Variant.bitcode) +
                               ": " + Diag.getMessage().str());
  std::vector<std::string> SpecNames;
  for (size_t I = 0; I < Variant.replacement_count; ++I) {
    const link_replacement &R = Variant.replacements[I];
    Function *F = M->getFunction(R.function), *S = M->getFunction(R.spec);
    if (!F || F->isDeclaration())
      throw SpecError(Where, std::string(Variant.bitcode) + " defines no function '" +
                                 R.function + "'");
    if (!S || S->isDeclaration())
      throw SpecError(Where, std::string(Variant.bitcode) + " defines no function '" +
                                 R.spec + "'");
    if (F->getFunctionType() != S->getFunctionType())
      throw SpecError(Where, "'" + std::string(R.spec) + "' does not have the type of '" +
                                 R.function + "', whose calls it is to serve");
    SpecNames.push_back(R.spec);
  }
  std::vector<Function *> Specs =
      SpecNames.empty() ? std::vector<Function *>{} : findSpecFunctions(*M, SpecNames);
  for (const std::string &Name : SpecNames)
    if (std::find(Specs.begin(), Specs.end(), M->getFunction(Name)) == Specs.end())
      throw SpecError(Where, "'" + Name + "' is not a RESPEC_SPECIALIZE function of " +
                                 Variant.bitcode);
  // findSpecFunctions keeps the module's order; the rules' order is wanted.
  std::sort(Specs.begin(), Specs.end(), [&](Function *A, Function *B) {
    return std::find(SpecNames.begin(), SpecNames.end(), A->getName()) <
           std::find(SpecNames.begin(), SpecNames.end(), B->getName());
  });

  SpecializeOptions Options;
  Options.facts = Facts;
  std::vector<Specialized> Done = specializeModule(*M, Specs, Options);
  installSpecializedBodies(Done);
  eraseRespecBuiltins(*M);

  SpecializedLibrary Result;
  std::set<std::string> Required = requiredFacts(Variant);
  std::vector<std::string> EntryNames;
  for (size_t I = 0; I < Done.size(); ++I) {
    const link_replacement &R = Variant.replacements[I];
    SpecializedFunction Out{R.function, R.spec, Done[I].result.stats, 0, {}};
    std::set<std::string> Relied = Done[I].result.factsRelied;
    Result.factsRelied.insert(Relied.begin(), Relied.end());
    Relied.insert(Required.begin(), Required.end());
    std::vector<std::string> CheckSymbols;
    for (size_t C = 0; C < Rules.check_count; ++C)
      if (Relied.count(Rules.checks[C].fact)) {
        CheckSymbols.push_back(Rules.checks[C].symbol);
        Out.checks.push_back(std::string(Rules.checks[C].fact) + " (" + Rules.checks[C].symbol +
                             ")");
      }
    installEntry(*M, *M->getFunction(R.function), *Done[I].spec, CheckSymbols);
    Result.functions.push_back(std::move(Out));
  }
  internalizeForLinking(*M, Done, LinkMode::ReplacesSources);
  if (Exports)
    keepOnlyExports(*M, *Exports);
  // What the client cannot reach goes first: the dispatch slots' targets are
  // what is left.
  PassPipeline("globaldce").run(*M);
  Result.dispatch = makeSingleTargetCallsDirect(*M);
  // The clean-up may inline a specialized body into its entry and delete it:
  // its size is counted by name, entry included.
  std::vector<std::vector<std::string>> CodeNames;
  for (const Specialized &S : Done) {
    CodeNames.push_back(S.variantNames);
    CodeNames.back().push_back(S.spec->getName().str());
  }
  optimize(*M, 2, Done, 256);
  for (size_t I = 0; I < Result.functions.size(); ++I) {
    CodeNames[I].push_back(Result.functions[I].function);
    for (const std::string &Name : CodeNames[I])
      if (Function *F = M->getFunction(Name))
        Result.functions[I].instructionsAfter += F->getInstructionCount();
  }
  writeOutput(*M, ObjectPath, false);
  return Result;
}

} // namespace respec::link
