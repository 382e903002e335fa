//===- ExprContext.h - Where an expression's value goes -*- C++ -*-===//
//
// Both the search and the freshness analysis ask the same two questions of an
// expression: what uses its value (looking through parentheses and casts, which
// keep a pointer's identity), and through which local variable an lvalue
// reaches memory (`p->a.b[2]` through p, `d.f` through d).
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_GUARD_EXPRCONTEXT_H
#define RESPEC_GUARD_EXPRCONTEXT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace respec::guard {

/// E, or the outermost parenthesis or cast around it.
const clang::Expr *outermostSameValue(clang::ASTContext &Ctx, const clang::Expr *E);

/// What uses E's value (after outermostSameValue): a statement or a variable
/// it initializes; null at the top of a body.
const clang::Stmt *userOf(clang::ASTContext &Ctx, const clang::Expr *E);
const clang::VarDecl *initializedVariable(clang::ASTContext &Ctx, const clang::Expr *E);

/// The local or global variable whose object the lvalue Object is part of
/// (`d.f`, `d.a[i]`: d), or whose pointer value it is reached through (`p->f`,
/// `*p`, `p[i]`, `p->a.b`: p). Null when reached some other way (`p->next->f`,
/// `f()->g`): then no variable stands for the object.
const clang::DeclRefExpr *objectVariable(const clang::Expr *Object);
/// The same for the object a pointer expression points to (`p`, `&d`, `&p->f`,
/// `(char *)p`).
const clang::DeclRefExpr *pointerVariable(const clang::Expr *Pointer);

} // namespace respec::guard

#endif
