//===- CallRoles.cpp - Calls that allocate, free or write memory ----------===//
//
// Functions are recognized by name, with clang's builtin spellings
// (__builtin_memcpy) and glibc's fortified ones (__builtin___memcpy_chk) folded
// onto the plain name, since _FORTIFY_SOURCE headers turn one into the other.
//
//===----------------------------------------------------------------------===//
#include "CallRoles.h"
#include "clang/AST/Decl.h"

using namespace clang;

namespace respec::guard {
namespace {

llvm::StringRef plainName(llvm::StringRef Name) {
  if (Name.consume_front("__builtin___"))
    Name.consume_back("_chk");
  else
    Name.consume_front("__builtin_");
  return Name;
}

} // namespace

CallRoles::CallRoles(const std::vector<std::string> &ExtraAllocators,
                     const std::vector<std::string> &ExtraDeallocators) {
  for (const char *Name : {"malloc", "calloc", "aligned_alloc", "memalign", "valloc", "pvalloc"})
    Allocators.insert(Name);
  for (const std::string &Name : ExtraAllocators)
    Allocators.insert(Name);
  Deallocators.insert("free");
  for (const std::string &Name : ExtraDeallocators)
    Deallocators.insert(Name);
}

CallRole CallRoles::roleOf(const CallExpr *Call) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return CallRole::None;
  llvm::StringRef Name = plainName(Callee->getName());
  if (Allocators.contains(Name))
    return CallRole::Allocate;
  if (Deallocators.contains(Name))
    return CallRole::Free;
  if (Name == "realloc" || Name == "reallocarray")
    return CallRole::Reallocate;
  if (Name == "memcpy" || Name == "memmove" || Name == "mempcpy" || Name == "memset" ||
      Name == "bzero" || Name == "explicit_bzero" || Name == "bcopy")
    return CallRole::WriteMemory;
  if (Name == "memcmp" || Name == "bcmp" || Name == "memchr")
    return CallRole::ReadMemory;
  return CallRole::None;
}

const Expr *CallRoles::destinationOf(const CallExpr *Call) {
  unsigned Index = plainName(Call->getDirectCallee()->getName()) == "bcopy" ? 1 : 0;
  return Index < Call->getNumArgs() ? Call->getArg(Index) : nullptr;
}

} // namespace respec::guard
