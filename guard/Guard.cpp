//===- Guard.cpp - respec guard: every statement that may break a predicate ===//
//
// Runs the search over each translation unit with libTooling, then puts the
// units' findings together: the same header line found from two units is one
// finding, a call passes an object "outside" only if no unit defines the
// callee, and a term found in no unit is an error.
//
//===----------------------------------------------------------------------===//
#include "CallRoles.h"
#include "Diagnostics.h"
#include "Fix.h"
#include "Search.h"
#include "SourceDatabase.h"
#include "Terms.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Tooling/Tooling.h"
#include <tuple>

using namespace clang;

namespace respec::guard {

Category categoryOf(Kind K) {
  switch (K) {
  case Kind::Store:
  case Kind::CompoundAssign:
  case Kind::Increment:
  case Kind::ObjectAssign:
  case Kind::MemoryWrite:
    return Category::Write;
  case Kind::Free:
    return Category::Free;
  case Kind::Allocation:
  case Kind::FreshWrite:
  case Kind::FreshFree:
    return Category::Fresh;
  case Kind::AliasAddress:
  case Kind::AliasCast:
  case Kind::AliasUnion:
  case Kind::AliasExternal:
    return Category::Alias;
  }
  llvm_unreachable("every kind has a category");
}

const char *kindName(Kind K) {
  switch (K) {
  case Kind::Store: return "store";
  case Kind::CompoundAssign: return "compound";
  case Kind::Increment: return "increment";
  case Kind::ObjectAssign: return "object";
  case Kind::MemoryWrite: return "memory";
  case Kind::Free: return "free";
  case Kind::Allocation: return "allocation";
  case Kind::FreshWrite: return "fresh-write";
  case Kind::FreshFree: return "fresh-free";
  case Kind::AliasAddress: return "alias-address";
  case Kind::AliasCast: return "alias-cast";
  case Kind::AliasUnion: return "alias-union";
  case Kind::AliasExternal: return "alias-external";
  }
  llvm_unreachable("every kind has a name");
}

bool Finding::operator<(const Finding &O) const {
  return std::tie(file, line, column, kind, subject, message) <
         std::tie(O.file, O.line, O.column, O.kind, O.subject, O.message);
}

bool Finding::operator==(const Finding &O) const {
  return std::tie(file, line, column, kind, subject, message) ==
         std::tie(O.file, O.line, O.column, O.kind, O.subject, O.message);
}

namespace {

/// What every unit contributes, and per term why a unit lacked it.
struct Collected {
  UnitFindings units;
  std::vector<bool> found;
  std::vector<std::string> problems; ///< the most telling reason per term
};

class SearchConsumer : public ASTConsumer {
public:
  SearchConsumer(const std::vector<Term> &Terms, const CallRoles &Roles,
                 const GuardOptions &Options, Collected &Out)
      : Terms(Terms), Roles(Roles), Options(Options), Out(Out) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    collectDefinedFunctions(Ctx, Out.units.definedFunctions);
    ResolvedTerms Resolved(Ctx, Terms);
    for (size_t I = 0; I < Terms.size(); ++I) {
      if (Resolved.found(I)) {
        Out.found[I] = true;
        continue;
      }
      // "no struct named ..." says less than "struct X has no field ...".
      const std::string &Problem = *Resolved.problem(I);
      if (Out.problems[I].empty() || StringRef(Out.problems[I]).startswith("no "))
        Out.problems[I] = Problem;
    }
    if (Resolved.empty())
      return;
    std::optional<FixPlanner> Planner;
    if (Options.fix)
      Planner.emplace(Ctx, Resolved, Options.spidField);
    searchUnit(Ctx, Resolved, Roles, Planner ? &*Planner : nullptr, Out.units);
  }

private:
  const std::vector<Term> &Terms;
  const CallRoles &Roles;
  const GuardOptions &Options;
  Collected &Out;
};

struct SearchAction {
  const std::vector<Term> &Terms;
  const CallRoles &Roles;
  const GuardOptions &Options;
  Collected &Out;
  std::unique_ptr<ASTConsumer> newASTConsumer() {
    return std::make_unique<SearchConsumer>(Terms, Roles, Options, Out);
  }
};

template <typename T> void sortUnique(std::vector<T> &V) {
  std::sort(V.begin(), V.end());
  V.erase(std::unique(V.begin(), V.end()), V.end());
}

} // namespace

GuardResult runGuard(const GuardOptions &Options) {
  std::vector<Term> Terms;
  for (const TermRequest &Request : Options.terms) {
    Term T = parseTerm(Request);
    if (llvm::none_of(Terms, [&](const Term &O) { return O.text == T.text; }))
      Terms.push_back(T);
  }
  if (Terms.empty())
    throw SpecError("", "no term to search for: name one with --term or --spec");
  if (Options.sources.empty())
    throw SpecError("", "no source to search");

  CallRoles Roles(Options.allocators, Options.deallocators);
  Collected Out;
  Out.found.assign(Terms.size(), false);
  Out.problems.assign(Terms.size(), "");
  SourceDatabase Database(Options.sources, {});
  tooling::ClangTool Tool(Database, Database.getAllFiles());
  SearchAction Action{Terms, Roles, Options, Out};
  if (Tool.run(tooling::newFrontendActionFactory(&Action).get()) != 0)
    throw SpecError("", "clang cannot compile the sources (its errors above)");
  for (size_t I = 0; I < Terms.size(); ++I)
    if (!Out.found[I])
      throw SpecError(Terms[I].origin == "--term" ? "" : Terms[I].origin,
                      "term '" + Terms[I].text + "': " + Out.problems[I]);

  GuardResult Result;
  for (const Term &T : Terms)
    Result.terms.push_back(T.text);
  Result.findings = std::move(Out.units.findings);
  for (auto &[F, Callee] : Out.units.callsOut)
    if (Callee.empty() || !Out.units.definedFunctions.count(Callee))
      Result.findings.push_back(F);
  sortUnique(Result.findings);
  if (!Options.fix)
    return Result;

  std::vector<std::pair<Finding, PlannedFix>> &Fixes = Out.units.fixes;
  std::stable_sort(Fixes.begin(), Fixes.end(),
                   [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<PlannedFix> Planned;
  for (size_t I = 0; I < Fixes.size(); ++I)
    if (I == 0 || !(Fixes[I].first == Fixes[I - 1].first))
      Planned.push_back(Fixes[I].second);
  Result.rewrittenFiles = applyFixes(Planned, Options);
  for (Finding &F : Result.findings) {
    auto It = std::lower_bound(Fixes.begin(), Fixes.end(), F,
                               [](const auto &P, const Finding &X) { return P.first < X; });
    if (It != Fixes.end() && It->first == F)
      F.fixStatus = It->second.reason.empty() ? "rewritten" : "not rewritten: " + It->second.reason;
    else if (categoryOf(F.kind) == Category::Write || F.kind == Kind::Free)
      F.fixStatus = "not rewritten: only single stores, compound assignments and increments are";
  }
  return Result;
}

} // namespace respec::guard
