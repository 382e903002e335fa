//===- Terms.h - Predicate terms, named and resolved in one translation unit -*- C++ -*-===//
//
// The user names a term as C spells it:
//   struct cu_data::cu_total   a field of a struct (or `union u::f`) by its tag
//   CLIENT::cl_auth            a field of the struct a typedef names (if no such
//                              typedef exists, a struct tag CLIENT)
//   rpc_createerr              a file-scope variable
// Each translation unit has its own declarations, so a term is resolved once per
// unit, by name. The record that declares a field term is a *containing record*:
// any object of that type, or that holds one by value, holds the term.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_GUARD_TERMS_H
#define RESPEC_GUARD_TERMS_H

#include "Guard.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

namespace respec::guard {

struct Term {
  std::string text;   ///< as named, normalized ("struct cu_data::cu_total")
  std::string origin; ///< "--term" or spec.c:LINE
  std::string record; ///< field term: "struct cu_data", "CLIENT"; empty for a global
  std::string field;  ///< field term: the field
  std::string global; ///< global term: the variable

  bool isGlobal() const { return record.empty(); }
};

/// Parses the syntax above; throws SpecError at the request's origin when it is not.
Term parseTerm(const TermRequest &Request);

/// The terms as declarations of one translation unit.
class ResolvedTerms {
public:
  ResolvedTerms(clang::ASTContext &Ctx, const std::vector<Term> &Terms);

  /// The term a field or file-scope variable is, if any.
  const Term *termOf(const clang::ValueDecl *D) const;
  /// Whether T is, or holds by value (as a member, array element, nested
  /// struct), an object of a containing record; that record if so.
  const clang::RecordDecl *heldRecord(clang::QualType T) const;
  /// Whether T points to such an object.
  const clang::RecordDecl *pointedRecord(clang::QualType T) const;
  /// How the user names the record (for record-wide findings).
  std::string recordName(const clang::RecordDecl *R) const;
  /// Whether the term was found here; otherwise why not.
  bool found(size_t TermIndex) const { return !Problems[TermIndex]; }
  const std::optional<std::string> &problem(size_t TermIndex) const {
    return Problems[TermIndex];
  }
  bool empty() const { return TermByDecl.empty(); }

private:
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::Decl *, const Term *> TermByDecl; ///< canonical decls
  llvm::DenseMap<const clang::RecordDecl *, std::string> RecordNames;
  mutable llvm::DenseMap<const clang::Type *, const clang::RecordDecl *> HeldCache;
  std::vector<std::optional<std::string>> Problems;
};

} // namespace respec::guard

#endif
