//===- ExprContext.cpp - Where an expression's value goes -----------------===//
#include "ExprContext.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace respec::guard {

const Expr *outermostSameValue(ASTContext &Ctx, const Expr *E) {
  for (;;) {
    auto Parents = Ctx.getParents(*E);
    const auto *Parent = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!Parent || !(isa<ParenExpr>(Parent) || isa<CastExpr>(Parent)))
      return E;
    E = Parent;
  }
}

const Stmt *userOf(ASTContext &Ctx, const Expr *E) {
  auto Parents = Ctx.getParents(*outermostSameValue(Ctx, E));
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

const VarDecl *initializedVariable(ASTContext &Ctx, const Expr *E) {
  auto Parents = Ctx.getParents(*outermostSameValue(Ctx, E));
  return Parents.empty() ? nullptr : Parents[0].get<VarDecl>();
}

const DeclRefExpr *objectVariable(const Expr *Object) {
  Object = Object->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Object))
    return Ref;
  if (const auto *Member = dyn_cast<MemberExpr>(Object))
    return Member->isArrow() ? pointerVariable(Member->getBase())
                             : objectVariable(Member->getBase());
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Object)) {
    const Expr *Base = Subscript->getBase()->IgnoreParenImpCasts();
    return Base->getType()->isArrayType() ? objectVariable(Base)
                                          : pointerVariable(Subscript->getBase());
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(Object); Unary && Unary->getOpcode() == UO_Deref)
    return pointerVariable(Unary->getSubExpr());
  return nullptr;
}

const DeclRefExpr *pointerVariable(const Expr *Pointer) {
  Pointer = Pointer->IgnoreParenCasts(); // also an array's decay to its first element
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Pointer))
    return Ref;
  if (const auto *Unary = dyn_cast<UnaryOperator>(Pointer); Unary && Unary->getOpcode() == UO_AddrOf)
    return objectVariable(Unary->getSubExpr());
  return nullptr;
}

} // namespace respec::guard
