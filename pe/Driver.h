//===- Driver.h - From C sources to a specialized object --------*- C++ -*-===//
//
// The steps around the specializer: compile the spec and the generic sources to
// LLVM IR with clang (the same headers and flags the user builds with), link
// them into one module, find the RESPEC_SPECIALIZE functions, specialize each,
// check that the result can share the program's static state, give the module
// the linkage of an object that sits beside the generic one (or replaces it),
// optimize with LLVM's standard pipeline, and write the result atomically.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_DRIVER_H
#define RESPEC_PE_DRIVER_H

#include "Specializer.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace respec {

/// How the user's build compiles one file (from its compilation database).
struct CompileCommand {
  std::string directory;            ///< the build ran here; relative paths resolve here
  std::vector<std::string> flags;   ///< clang flags only: no compiler, -c, -o, file, -M...
};

struct Inputs {
  std::string spec;                  ///< the spec file
  std::vector<std::string> sources;  ///< generic sources
  /// For every file, after its own command's flags; paths in them absolute,
  /// since a file with its own command is compiled in its build's directory.
  std::vector<std::string> clangFlags;
  /// A file's own command (key: the file as in spec or sources), if it has one.
  std::map<std::string, CompileCommand> ownCommands;
  std::vector<std::string> onlyFunctions; ///< empty: every spec function
};

/// The clang respec runs: $RESPEC_CLANG, or the one of the LLVM it is built with.
std::string clangPath();

/// The directory holding respec/respec.h, put on every compile's include path:
/// beside the running executable as installed (<prefix>/bin/respec finds
/// <prefix>/include, wherever the prefix was moved), else the source tree's
/// include/ (a build-tree respec).
std::string includeDir();

/// Compiles and links the inputs; throws SpecError (with clang's diagnostics
/// already printed) when clang rejects a file or linking fails. Every mutable
/// static variable of a generic source (not the spec) is marked with the file
/// and name it had before linking, for findCopiedMutableStatics.
std::unique_ptr<llvm::Module> compileAndLink(llvm::LLVMContext &Ctx, const Inputs &In);

/// The spec functions of M (marked RESPEC_SPECIALIZE), filtered by Only.
std::vector<llvm::Function *> findSpecFunctions(llvm::Module &M,
                                                const std::vector<std::string> &Only);

struct Specialized {
  llvm::Function *spec;
  SpecializationResult result;
  unsigned declarationLine = 0; ///< of the spec function, in the spec file
  /// Names of its recursive variants (result.variants): the clean-up may inline
  /// or delete them, so later passes find them by name (specializedCode).
  std::vector<std::string> variantNames;
};

/// The functions of M that hold S's specialized code: the spec function and
/// the recursive variants the clean-up kept.
std::vector<llvm::Function *> specializedCode(llvm::Module &M, const Specialized &S);

/// Specializes every spec function into a new function beside it. The spec
/// functions keep their generic bodies, so later specs may still unfold them.
std::vector<Specialized> specializeModule(llvm::Module &M,
                                          const std::vector<llvm::Function *> &Specs,
                                          const SpecializeOptions &Options);

/// Moves each specialized body into its spec function (same name, same
/// signature) and deletes the generic body.
void installSpecializedBodies(std::vector<Specialized> &Done);

/// Every function, variable and alias that code in Roots uses, directly or
/// through the bodies and initializers of others (what must come with it),
/// Roots themselves excepted.
std::set<const llvm::GlobalValue *>
globalsReachedFrom(const std::vector<const llvm::Function *> &Roots);

/// A static variable of a generic source that the output object would have a
/// copy of, apart from the program's own.
struct CopiedStatic {
  std::string where;    ///< file:line of its declaration (the file alone if unknown)
  std::string variable; ///< as the source names it: 'next', or 'counter' in f()
  std::string file;     ///< the generic source that defines it
};

/// The static variables (function-local ones too) of the generic sources that
/// the specialized functions reach, directly or through the generic functions
/// they still call, and that the generic code may write (a store, or an address
/// respec does not follow). An object linked beside the generic one would
/// carry private copies of them, apart from the program's, and the -O2 cleanup
/// would even fold a copy the residual code never writes to its initializer.
/// Never-written ones are safe to copy. Compiles their files again with full
/// debug info, for the lines of the declarations.
std::vector<CopiedStatic> findCopiedMutableStatics(const llvm::Module &M,
                                                   const std::vector<Specialized> &Done,
                                                   const Inputs &In);

/// How the output object takes part in the program's link.
enum class LinkMode {
  /// Beside the generic sources' own objects (the default): the object
  /// exports only the spec functions; generic functions, constants and aliases
  /// become private copies, mutable global variables (and their aliases)
  /// become weak so that they bind to the program's own definition.
  BesideSources,
  /// Instead of the generic sources (--replaces-sources): every definition
  /// keeps its linkage, so the object's static variables are the program's
  /// only ones and its external definitions serve the rest of the program.
  ReplacesSources,
};

/// Gives M the linkage of Mode, and drops respec's own annotations.
void internalizeForLinking(llvm::Module &M, const std::vector<Specialized> &Done,
                           LinkMode Mode);

/// LLVM's default pipeline at -O<Level> (0 = none), vectorizers as clang sets
/// them; then runs of at least MinReroll repeated instructions in the
/// specialized functions become loops (Reroll.h; 0: never), and if any did,
/// the pipeline runs again so that its loop passes see them.
void optimize(llvm::Module &M, unsigned Level, const std::vector<Specialized> &Done,
              unsigned MinReroll);

/// A pass pipeline with every analysis registered, built once and run on any
/// number of modules. The run-time specializer cleans every residual module
/// with the same short pipeline; registering the analyses and parsing the
/// pipeline each time is little work but touches much of LLVM's code, which a
/// generation that comes after other work finds cold.
class PassPipeline {
public:
  /// A pipeline in opt's -passes syntax; throws SpecError if it does not parse.
  explicit PassPipeline(llvm::StringRef Text);
  /// LLVM's default pipeline at -O<Level>, Level 1 to 3, with TM's cost
  /// models (null: LLVM's target-independent guesses).
  PassPipeline(unsigned Level, llvm::TargetMachine *TM);

  /// Runs the pipeline on M, then forgets every analysis result (M may go).
  void run(llvm::Module &M);

private:
  llvm::PassBuilder builder;
  llvm::LoopAnalysisManager loopAnalyses;
  llvm::FunctionAnalysisManager functionAnalyses;
  llvm::CGSCCAnalysisManager cgsccAnalyses;
  llvm::ModuleAnalysisManager moduleAnalyses;
  llvm::ModulePassManager passes;

  PassPipeline(const llvm::PipelineTuningOptions &Tuning, llvm::TargetMachine *TM);
};

/// Writes textual IR, or a native object; atomically (temp file, then rename).
/// Throws SpecError when M does not verify or the code generator rejects it
/// (inline assembly it cannot assemble: at the asm statement's file:line).
void writeOutput(llvm::Module &M, const std::string &Path, bool EmitLLVM);

/// A C header declaring the spec functions, from the spec's own source text.
void writeHeader(const std::vector<Specialized> &Done, const std::string &SpecPath,
                 const std::string &HeaderPath);

/// Writes M's bitcode atomically.
void writeBitcode(const llvm::Module &M, const std::string &Path);

/// Removes the calls of the spec vocabulary's builtins (__respec_assume, ...)
/// from functions that stay generic: compiled, the spec is a generic
/// function; respec_fact() is 0 there.
void eraseRespecBuiltins(llvm::Module &M);

/// The variables of M that "file.c:name" (or "name") names, as the spec's
/// respec_static_variable() and respec_variable() do: a file-static variable
/// of a generic source by its origin (its file, or one ending in "/file.c"),
/// and with no file, any variable of that name (the spec's own file-statics
/// included). One is an answer; none or several, an error for the caller.
std::vector<llvm::GlobalVariable *> variablesNamed(llvm::Module &M, llvm::StringRef Spelled);

/// Writes an object defining respec_bitcode_NAME (the bitcode of M) and
/// respec_bitcode_NAME_size, for run-time specialization (respec/jit.h).
/// WithCode: the object also holds M itself, compiled at OptLevel, for the
/// program to link instead of the sources, and the address of each of M's
/// definitions (embeddedDefinitions) in respec_symbols_NAME, counted by
/// respec_symbols_NAME_count. M is changed (compiled) then.
void writeEmbeddedBitcode(llvm::Module &M, const std::string &Name, const std::string &Path,
                          bool WithCode, unsigned OptLevel);

/// The functions and variables M defines, in the order of respec_symbols_NAME:
/// the module's own order, which its bitcode keeps.
std::vector<llvm::GlobalValue *> embeddedDefinitions(llvm::Module &M);

/// File (relative to Directory unless absolute) as one spelling per file:
/// symbolic links and dots resolved, or only dots when it does not exist.
std::string canonicalPath(llvm::StringRef Directory, llvm::StringRef File);

/// Replaces Path atomically with Contents.
void writeFileAtomically(const std::string &Path, const std::string &Contents);

} // namespace respec

#endif
