//===- Search.h - The statements of one translation unit that may write a term -*- C++ -*-===//
//
// Walks every function (and file-scope initializer) spelled in the project's own
// files — not in system headers — and classifies what it finds as Guard.h says.
// Calls whose callee may lie outside the analyzed sources are kept apart: only
// once every unit is read is it known which functions the sources define.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_GUARD_SEARCH_H
#define RESPEC_GUARD_SEARCH_H

#include "CallRoles.h"
#include "Fix.h"
#include "Terms.h"
#include "clang/AST/ASTContext.h"
#include <set>

namespace respec::guard {

struct UnitFindings {
  std::vector<Finding> findings;
  /// Passing an object that holds terms to a call: a finding if the callee
  /// (empty: an indirect call) is defined in none of the analyzed sources.
  std::vector<std::pair<Finding, std::string>> callsOut;
  std::set<std::string> definedFunctions;
  /// With --fix: the rewrite of each direct write, keyed by its finding.
  std::vector<std::pair<Finding, PlannedFix>> fixes;
};

/// Adds the functions the unit defines outside system headers.
void collectDefinedFunctions(clang::ASTContext &Ctx, std::set<std::string> &Out);

/// Appends what the unit holds to Out. Planner is null without --fix.
void searchUnit(clang::ASTContext &Ctx, const ResolvedTerms &Terms, const CallRoles &Roles,
                const FixPlanner *Planner, UnitFindings &Out);

} // namespace respec::guard

#endif
