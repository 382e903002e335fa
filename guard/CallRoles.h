//===- CallRoles.h - Calls that allocate, free or write memory -*- C++ -*-===//
//
// A few C library functions matter to the search by what they do, not by what
// code they run: an allocator makes a fresh object, a deallocator ends one, a
// memory function writes bytes through its destination. Their calls are
// classified by these roles and are not "code outside the analyzed sources"
// (the object does not escape into them). Projects with their own allocators
// name them (--allocator, --deallocator).
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_GUARD_CALLROLES_H
#define RESPEC_GUARD_CALLROLES_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/StringSet.h"
#include <string>
#include <vector>

namespace respec::guard {

enum class CallRole { None, Allocate, Free, Reallocate, WriteMemory, ReadMemory };

class CallRoles {
public:
  CallRoles(const std::vector<std::string> &Allocators,
            const std::vector<std::string> &Deallocators);

  /// The role of a call (None for an indirect call or any other function).
  CallRole roleOf(const clang::CallExpr *Call) const;
  /// For a WriteMemory call: the argument it writes through (bcopy's second).
  static const clang::Expr *destinationOf(const clang::CallExpr *Call);

private:
  llvm::StringSet<> Allocators, Deallocators;
};

} // namespace respec::guard

#endif
