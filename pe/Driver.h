//===- Driver.h - From C sources to a specialized object --------*- C++ -*-===//
//
// The steps around the specializer: compile the spec and the generic sources to
// LLVM IR with clang (the same headers and flags the user builds with), link
// them into one module, find the RESPEC_SPECIALIZE functions, specialize each,
// give the module the linkage of an object that sits beside the generic one,
// optimize with LLVM's standard pipeline, and write the result atomically.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_DRIVER_H
#define RESPEC_PE_DRIVER_H

#include "Specializer.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include <memory>
#include <string>
#include <vector>

namespace respec {

struct Inputs {
  std::string spec;                  ///< the spec file
  std::vector<std::string> sources;  ///< generic sources
  std::vector<std::string> clangFlags;
  std::vector<std::string> onlyFunctions; ///< empty: every spec function
};

/// Compiles and links the inputs; throws SpecError (with clang's diagnostics
/// already printed) when clang rejects a file or linking fails.
std::unique_ptr<llvm::Module> compileAndLink(llvm::LLVMContext &Ctx, const Inputs &In);

/// The spec functions of M (marked RESPEC_SPECIALIZE), filtered by Only.
std::vector<llvm::Function *> findSpecFunctions(llvm::Module &M,
                                                const std::vector<std::string> &Only);

struct Specialized {
  llvm::Function *spec;
  SpecializationResult result;
  unsigned declarationLine = 0; ///< of the spec function, in the spec file
};

/// Specializes every spec function into a new function beside it. The spec
/// functions keep their generic bodies, so later specs may still unfold them.
std::vector<Specialized> specializeModule(llvm::Module &M,
                                          const std::vector<llvm::Function *> &Specs,
                                          const SpecializeOptions &Options);

/// Moves each specialized body into its spec function (same name, same
/// signature) and deletes the generic body.
void installSpecializedBodies(std::vector<Specialized> &Done);

/// Linkage for an object linked beside the generic one: spec functions stay
/// exported, generic functions and constants become private copies, mutable
/// global variables become weak so that they bind to the program's own
/// definition when there is one.
void internalizeForLinking(llvm::Module &M, const std::vector<Specialized> &Done);

/// LLVM's default pipeline at -O<Level> (0 = none), vectorizers as clang sets them.
void optimize(llvm::Module &M, unsigned Level);

/// A pass pipeline with every analysis registered, built once and run on any
/// number of modules. The run-time specializer cleans every residual module
/// with the same short pipeline; registering the analyses and parsing the
/// pipeline each time is little work but touches much of LLVM's code, which a
/// generation that comes after other work finds cold.
class PassPipeline {
public:
  /// A pipeline in opt's -passes syntax; throws SpecError if it does not parse.
  explicit PassPipeline(llvm::StringRef Text);
  /// LLVM's default pipeline at -O<Level>, Level 1 to 3.
  explicit PassPipeline(unsigned Level);

  /// Runs the pipeline on M, then forgets every analysis result (M may go).
  void run(llvm::Module &M);

private:
  llvm::PassBuilder builder;
  llvm::LoopAnalysisManager loopAnalyses;
  llvm::FunctionAnalysisManager functionAnalyses;
  llvm::CGSCCAnalysisManager cgsccAnalyses;
  llvm::ModuleAnalysisManager moduleAnalyses;
  llvm::ModulePassManager passes;

  explicit PassPipeline(const llvm::PipelineTuningOptions &Tuning);
};

/// Writes textual IR, or a native object; atomically (temp file, then rename).
void writeOutput(llvm::Module &M, const std::string &Path, bool EmitLLVM);

/// A C header declaring the spec functions, from the spec's own source text.
void writeHeader(const std::vector<Specialized> &Done, const std::string &SpecPath,
                 const std::string &HeaderPath);

/// Writes an object defining respec_bitcode_NAME (the bitcode of M) and
/// respec_bitcode_NAME_size, for run-time specialization (respec/jit.h).
void writeEmbeddedBitcode(const llvm::Module &M, const std::string &Name,
                          const std::string &Path);

/// Replaces Path atomically with Contents.
void writeFileAtomically(const std::string &Path, const std::string &Contents);

} // namespace respec

#endif
