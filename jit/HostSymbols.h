//===- HostSymbols.h - The generic code's symbols in the running program -*- C++ -*-===//
//
// Run-time specialization runs in the program whose code it specializes: the
// library the program calls is also the generic code `respec embed` put in it.
// To specialize on the program's state the specializer must know where the
// program holds each function and variable of that code — its operations
// tables, its file-static state, the function an ops table points to.
//
// The dynamic symbol table knows only exported names; file-static functions
// and variables, which system libraries are full of (Sun RPC's `udp_ops`,
// `authnone_private`), are in the full symbol table (.symtab) of the program
// and of each shared object it loaded (dl_iterate_phdr), each local symbol
// after the STT_FILE entry of the source file that defined it. A definition
// of the generic code is bound to the program's symbol of the same name and
// kind (function or variable), and for a file-static one of the same source
// file too (the file a function's debug information names, or the origin
// `respec embed` recorded for a variable: Driver.cpp). A name the program
// does not hold, or holds several times without telling them apart, stays
// unbound: the specializer then treats the symbol as it does at build time.
// Indirect functions (STT_GNU_IFUNC) are never bound: their symbol is the
// resolver, not the code.
//
// A program stripped of .symtab still binds its exported symbols (.dynsym).
//
// All of this guesswork goes when the program links the generic code that
// `respec embed --replaces-sources` compiled from the embedded bitcode itself:
// that object holds the address of each definition, in the bitcode's order
// (embeddedDefinitions, Driver.h), and the binding is exact.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_JIT_HOSTSYMBOLS_H
#define RESPEC_JIT_HOSTSYMBOLS_H

#include "HostProgram.h"
#include "llvm/IR/Module.h"
#include <map>

namespace respec {

class HostSymbols final : public HostProgram {
public:
  /// Reads the program's symbol tables and binds Generic's definitions.
  explicit HostSymbols(llvm::Module &Generic);
  /// Binds Generic's definitions to Addresses, one per embeddedDefinitions()
  /// entry in order; throws SpecError if the counts differ.
  HostSymbols(llvm::Module &Generic, const void *const *Addresses, size_t Count);

  std::optional<uint64_t> addressOf(const llvm::GlobalValue &Symbol) const override;
  llvm::GlobalValue *symbolAt(uint64_t Address, uint64_t &Offset) const override;
  /// Definitions bound, of those the generic code has.
  unsigned bound() const { return unsigned(addresses.size()); }

private:
  void bind(llvm::GlobalValue &Symbol, uint64_t Address, uint64_t Size);

  std::map<const llvm::GlobalValue *, uint64_t> addresses;
  /// By address: the symbol and its size in bytes (0: just its address).
  std::map<uint64_t, std::pair<llvm::GlobalValue *, uint64_t>> byAddress;
};

} // namespace respec

#endif
