//===- ExternalFacts.h - Facts a spec declares about external code -*- C++ -*-===//
//
// The declarations RESPEC_PURE, RESPEC_STABLE and RESPEC_STABLE_TABLE (and their
// _AS forms) of include/respec/respec.h, read from the linked module: each is a
// constant `struct respec_fact_` annotated "respec.pure", "respec.stable" or
// "respec.stable_table", whose annotation carries the declaration's file:line.
// ExternalFacts.cpp checks them (every misuse is an error at that file:line)
// and states the contract; EvaluateFacts.cpp and LibraryCalls.cpp give them
// their meaning during specialization.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_EXTERNALFACTS_H
#define RESPEC_PE_EXTERNALFACTS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include <string>
#include <vector>

namespace respec {

struct ExternalFact {
  enum Kind {
    Pure,        ///< RESPEC_PURE(fn)
    Stable,      ///< RESPEC_STABLE(fn, nbytes): the bytes at fn()
    StableTable, ///< RESPEC_STABLE_TABLE(fn, first, count): the elements around *fn()
  } kind;
  llvm::Function *function = nullptr;
  unsigned index = 0;      ///< in ExternalFacts::all()
  std::string where;       ///< file:line of the declaration
  std::string declaration; ///< as written, e.g. "RESPEC_PURE(strlen)"
  std::string bundle;      ///< the macro that declared it with others, if any
  /// Stable memory: the bytes [offset, offset + size) from the pointer fn()
  /// returns (Stable) or from the pointer *fn() holds (StableTable).
  int64_t offset = 0;
  uint64_t size = 0;
  uint64_t elementSize = 1;
  /// The _AS forms: the contents the spec vouches for (size bytes), which
  /// build-time specialization folds; null: known only at run time.
  llvm::Constant *contents = nullptr;
  llvm::GlobalVariable *contentsGlobal = nullptr;
};

/// Every fact of a module; throws SpecError (at the declaration) for misuse.
class ExternalFacts {
public:
  ExternalFacts() = default;
  explicit ExternalFacts(llvm::Module &M);

  const std::vector<ExternalFact> &all() const { return facts; }
  /// The fact about F, if the spec declared one.
  const ExternalFact *about(const llvm::Function *F) const {
    auto It = byFunction.find(F);
    return It == byFunction.end() ? nullptr : &facts[It->second];
  }
  /// The fact about the function named Name, if any.
  const ExternalFact *aboutName(llvm::StringRef Name) const;

  /// Whether V is one of respec's fact declarations (dropped from the output).
  static bool isDeclarationGlobal(const llvm::GlobalVariable &V);

private:
  std::vector<ExternalFact> facts;
  llvm::DenseMap<const llvm::Function *, unsigned> byFunction;
};

} // namespace respec

#endif
