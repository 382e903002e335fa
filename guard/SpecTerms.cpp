//===- SpecTerms.cpp - The terms a spec's respec_assume facts rest on -----===//
//
// A spec states facts about memory with respec_assume(lvalue == constant)
// (include/respec/respec.h). Specialized code built on such a fact is correct
// while the lvalue keeps its value, and the lvalue's value depends on every
// field and global its path reads: `xdrs->x_ops->x_putlong == f` rests on
// XDR::x_ops as much as on struct xdr_ops::x_putlong. Those are the terms.
// The spec is compiled as respec compiles it (__RESPEC_PE__ defined), where
// respec_assume(c) is the call __respec_assume(!!(c)).
//
//===----------------------------------------------------------------------===//
#include "Diagnostics.h"
#include "Driver.h"
#include "Guard.h"
#include "Driver.h"
#include "SourceDatabase.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Tooling/Tooling.h"

using namespace clang;

namespace respec::guard {
namespace {

/// How a term names the record: its tag, or the typedef of an anonymous one.
std::string recordName(const RecordDecl *R) {
  if (R->getIdentifier())
    return (R->isUnion() ? "union " : "struct ") + R->getName().str();
  if (const TypedefNameDecl *Typedef = R->getTypedefNameForAnonDecl())
    return Typedef->getName().str();
  return "";
}

struct AssumptionVisitor : RecursiveASTVisitor<AssumptionVisitor> {
  ASTContext &Ctx;
  std::vector<TermRequest> &Out;

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || Callee->getName() != "__respec_assume" ||
        Call->getNumArgs() != 1)
      return true;
    PresumedLoc Where =
        Ctx.getSourceManager().getPresumedLoc(Ctx.getSourceManager().getExpansionLoc(Call->getBeginLoc()));
    std::string Origin = std::string(Where.getFilename()) + ":" + std::to_string(Where.getLine());
    const Expr *Condition = Call->getArg(0)->IgnoreParenImpCasts();
    for (const auto *Not = dyn_cast<UnaryOperator>(Condition); Not && Not->getOpcode() == UO_LNot;
         Not = dyn_cast<UnaryOperator>(Condition))
      Condition = Not->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Compare = dyn_cast<BinaryOperator>(Condition);
        Compare && Compare->isEqualityOp())
      Condition = Compare->getLHS()->isEvaluatable(Ctx) ? Compare->getRHS() : Compare->getLHS();
    addPath(Condition, Origin);
    return true;
  }

  /// Every field and global the lvalue's path reads.
  void addPath(const Expr *E, const std::string &Origin) {
    for (E = E->IgnoreParenCasts();; ) {
      if (const auto *Member = dyn_cast<MemberExpr>(E)) {
        const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
        std::string Record = Field ? recordName(Field->getParent()) : "";
        if (!Record.empty())
          Out.push_back({Record + "::" + Field->getName().str(), Origin});
        E = Member->getBase()->IgnoreParenCasts();
      } else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
        E = Subscript->getBase()->IgnoreParenCasts();
      } else if (const auto *Deref = dyn_cast<UnaryOperator>(E);
                 Deref && Deref->getOpcode() == UO_Deref) {
        E = Deref->getSubExpr()->IgnoreParenCasts();
      } else {
        const auto *Ref = dyn_cast<DeclRefExpr>(E);
        const auto *Global = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
        if (Global && Global->isFileVarDecl())
          Out.push_back({Global->getName().str(), Origin});
        return;
      }
    }
  }
};

struct SpecConsumer : ASTConsumer {
  std::vector<TermRequest> &Out;
  explicit SpecConsumer(std::vector<TermRequest> &Out) : Out(Out) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    AssumptionVisitor{{}, Ctx, Out}.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
};

struct SpecAction {
  std::vector<TermRequest> &Out;
  std::unique_ptr<ASTConsumer> newASTConsumer() { return std::make_unique<SpecConsumer>(Out); }
};

} // namespace

std::vector<TermRequest> termsOfSpec(const SourceFile &Spec) {
  std::vector<TermRequest> Terms;
  // A spec includes <respec/respec.h>: respec's own, wherever the spec's flags
  // look first.
  SourceDatabase Database({Spec}, {"-D__RESPEC_PE__", "-I" + includeDir()});
  tooling::ClangTool Tool(Database, {Spec.path});
  SpecAction Action{Terms};
  if (Tool.run(tooling::newFrontendActionFactory(&Action).get()) != 0)
    throw SpecError(Spec.path, "clang cannot compile the spec (its errors above)");
  if (Terms.empty())
    throw SpecError(Spec.path, "the spec states no fact with respec_assume: no term to search for");
  return Terms;
}

} // namespace respec::guard
