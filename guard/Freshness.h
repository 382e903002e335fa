//===- Freshness.h - Objects no one else can reach yet -*- C++ -*-===//
//
// A write cannot break a live predicate when no predicate can cover the object
// it writes: the object was made in this function and nobody else has seen it.
// Establishing a predicate needs the object's SPID, so needs a pointer to it.
//
// A local pointer variable holds a *fresh* object from its assignment of an
// allocator's result (or of a null pointer, which points to nothing) until the
// pointer *escapes*; a local variable of a record type is a fresh object from its
// declaration until its address is taken. A pointer escapes when its value goes
// anywhere but
//   - an access through it (`p->f`, `*p`, `p[i]`; also `&p->f`: see Guard.h's
//     limits on member pointers), a test (`if (p)`, `p == q`), sizeof;
//   - a memory function's argument (memset(p, ...)), a deallocator's (the object
//     dies: it is freed fresh);
//   - a store into another fresh object (`cl->cl_private = (char *)cu`): it
//     escapes when that one does (the holder relation).
// Copies into other variables, returns, arguments of other calls, pointer
// arithmetic, stores elsewhere: all escape. A variable is fresh at a use when it
// is fresh on every path to it (a forward must-analysis over clang's CFG).
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_GUARD_FRESHNESS_H
#define RESPEC_GUARD_FRESHNESS_H

#include "CallRoles.h"
#include "Terms.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"

namespace respec::guard {

class Freshness {
public:
  Freshness(const clang::FunctionDecl &Function, clang::ASTContext &Ctx,
            const ResolvedTerms &Terms, const CallRoles &Roles);

  /// Whether the variable Use refers to holds a fresh object where Use is.
  bool isFresh(const clang::DeclRefExpr *Use) const;

private:
  /// Per use: fresh on every visit of it (a statement the CFG lists twice).
  llvm::DenseMap<const clang::DeclRefExpr *, bool> FreshAtUse;
};

} // namespace respec::guard

#endif
