//===- Fix.h - Guarding direct writes with RESPEC_GUARDED_STORE -*- C++ -*-===//
//
// `respec guard --fix` turns each direct write of a term that is a statement of
// its own into a guarded store:
//
//     cu->cu_wait = wait;        ->  RESPEC_GUARDED_STORE(cu->spid, cu->cu_wait, wait);
//     ct->ct_wait.tv_usec += d;  ->  RESPEC_GUARDED_STORE(ct->spid, ct->ct_wait.tv_usec,
//                                                         ct->ct_wait.tv_usec + (d));
//     counter++;                 ->  RESPEC_GUARDED_STORE(counter_spid, counter, counter + 1);
//
// The SPID is a `respec_spid` member of the struct that declares the term, added
// just before the struct's first term when it has none (so the first member and a
// trailing array keep their places), or for a global term a variable NAME_spid
// declared beside each declaration of the global. Each rewritten file includes
// <respec/runtime.h>. Writes the macro cannot express are left as they are, with
// the reason: spelled inside a macro, value used by an enclosing expression,
// object expression with side effects (the macro evaluates it again), struct
// declared in a system header.
//
// Nothing is written unless every source still compiles with all rewrites
// applied (each translation unit parsed again over the rewritten files); then
// each file is replaced atomically.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_GUARD_FIX_H
#define RESPEC_GUARD_FIX_H

#include "Guard.h"
#include "Terms.h"
#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Core/Replacement.h"

namespace respec::guard {

/// The edits that guard one write, or why it is left as it is.
struct PlannedFix {
  std::vector<clang::tooling::Replacement> edits;
  std::string reason; ///< empty when edits is the rewrite
};

class FixPlanner {
public:
  FixPlanner(clang::ASTContext &Ctx, const ResolvedTerms &Terms, std::string SpidField)
      : Ctx(Ctx), Terms(Terms), SpidField(std::move(SpidField)) {}

  /// Write is the assignment or increment; Access the term's MemberExpr or
  /// DeclRefExpr within its left-hand side.
  PlannedFix plan(const clang::Expr *Write, const clang::Expr *Access, const Term &T) const;

private:
  std::string text(const clang::Expr *E) const;
  std::string spidDeclarations(const clang::Expr *Access, const Term &T,
                               std::vector<clang::tooling::Replacement> &Edits,
                               std::string &Reason) const;

  clang::ASTContext &Ctx;
  const ResolvedTerms &Terms;
  std::string SpidField;
};

/// The absolute, symlink-free path of the file a location is spelled in (its
/// expansion's, for a macro); empty for a location in no file.
std::string filePathOf(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// Applies every planned rewrite, checks that the sources compile over them,
/// then replaces the files. Returns the files written; throws SpecError
/// (nothing written) when the rewritten sources do not compile.
std::vector<std::string> applyFixes(const std::vector<PlannedFix> &Fixes,
                                    const GuardOptions &Options);

} // namespace respec::guard

#endif
