//===- HostProgram.h - The running program, seen by run-time specialization -*- C++ -*-===//
//
// At run time the specializer works on the memory of the program it runs in:
// a static pointer is an address in that program, and the generic code's
// functions and variables are the program's own, file-static ones included.
// This interface says where each of them is; librespec-jit implements it from
// the program's symbol tables (jit/HostSymbols.h). HostMemory.cpp says what
// the specializer does with it.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_HOSTPROGRAM_H
#define RESPEC_PE_HOSTPROGRAM_H

#include "llvm/IR/GlobalValue.h"
#include <cstdint>
#include <optional>

namespace respec {

class HostProgram {
public:
  virtual ~HostProgram() = default;
  /// Where the program holds Symbol, a definition of the generic code; none
  /// when the program has no such symbol (or several it cannot tell apart).
  virtual std::optional<uint64_t> addressOf(const llvm::GlobalValue &Symbol) const = 0;
  /// The generic code's definition the program holds at Address: a function
  /// that starts there, or a variable that contains it (Offset: how far in).
  virtual llvm::GlobalValue *symbolAt(uint64_t Address, uint64_t &Offset) const = 0;
};

} // namespace respec

#endif
