//===- Search.cpp - The statements of one translation unit that may write a term ===//
//
// One RecursiveASTVisitor; each Visit method recognizes one construct of Guard.h's
// list. A write's object is looked up in the function's Freshness to tell a
// write that needs a guard from the initialization of a fresh object.
//
//===----------------------------------------------------------------------===//
#include "Search.h"
#include "ExprContext.h"
#include "Freshness.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include <optional>

using namespace clang;

namespace respec::guard {
namespace {

/// The term an lvalue writes (all of it or a part: `p->term.tv_sec`,
/// `d.term[i]`), with the expression that names it; null when none.
const Expr *termAccess(const ResolvedTerms &Terms, const Expr *Lvalue, const Term *&T) {
  const Expr *E = Lvalue->IgnoreParens();
  for (;;) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      T = Terms.termOf(Ref->getDecl());
      return T ? Ref : nullptr;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if ((T = Terms.termOf(Member->getMemberDecl())))
        return Member;
      if (Member->isArrow())
        return nullptr; // p->f: what p points to is no part of an object here
      E = Member->getBase()->IgnoreParens();
    } else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = Subscript->getBase()->IgnoreParenImpCasts();
      if (!Base->getType()->isArrayType())
        return nullptr;
      E = Base;
    } else {
      return nullptr;
    }
  }
}

std::string typeName(QualType T) { return "'" + T.getAsString() + "'"; }

class Search : public RecursiveASTVisitor<Search> {
public:
  Search(ASTContext &Ctx, const ResolvedTerms &Terms, const CallRoles &Roles,
         const FixPlanner *Planner, UnitFindings &Out)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Terms(Terms), Roles(Roles), Planner(Planner),
        Out(Out) {}

  bool TraverseFunctionDecl(FunctionDecl *F) {
    if (!F->doesThisDeclarationHaveABody() || !isProjectCode(F->getLocation()))
      return true;
    std::optional<Freshness> Saved = std::move(Fresh);
    Fresh.emplace(*F, Ctx, Terms, Roles);
    bool Continue = RecursiveASTVisitor::TraverseFunctionDecl(F);
    Fresh = std::move(Saved);
    return Continue;
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (!B->isAssignmentOp() || !isProjectCode(B->getBeginLoc()))
      return true;
    const Term *T = nullptr;
    if (const Expr *Access = termAccess(Terms, B->getLHS(), T)) {
      Kind K = B->getOpcode() == BO_Assign ? Kind::Store : Kind::CompoundAssign;
      write(K, B, T->text, describe(B), objectVariable(B->getLHS()), B, Access, T);
    } else if (const RecordDecl *R = Terms.heldRecord(B->getLHS()->getType());
               R && B->getOpcode() == BO_Assign) {
      write(Kind::ObjectAssign, B, Terms.recordName(R),
            "assignment of a whole " + typeName(B->getLHS()->getType()) + ": " + describe(B),
            objectVariable(B->getLHS()));
    }
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *U) {
    if (!isProjectCode(U->getBeginLoc()))
      return true;
    const Term *T = nullptr;
    const Expr *Access = termAccess(Terms, U->getSubExpr(), T);
    if (!Access)
      return true;
    if (U->isIncrementDecrementOp())
      write(Kind::Increment, U, T->text, describe(U), objectVariable(U->getSubExpr()), U, Access,
            T);
    else if (U->getOpcode() == UO_AddrOf && !isMemoryFunctionArgument(U))
      report(Kind::AliasAddress, U, T->text,
             "address of the term taken: " + describe(U) +
                 "; writes through it are not found");
    return true;
  }

  bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
    if (Cast->getCastKind() != CK_ArrayToPointerDecay || !isProjectCode(Cast->getBeginLoc()))
      return true;
    const Term *T = nullptr;
    if (!termAccess(Terms, Cast->getSubExpr(), T) || isMemoryFunctionArgument(Cast) ||
        isa_and_nonnull<ArraySubscriptExpr>(userOf(Ctx, Cast)))
      return true;
    report(Kind::AliasAddress, Cast, T->text,
           "the array term decays to a pointer: " + describe(Cast) +
               "; writes through it are not found");
    return true;
  }

  bool VisitCastExpr(CastExpr *Cast) {
    CastKind CK = Cast->getCastKind();
    if ((CK != CK_BitCast && CK != CK_PointerToIntegral && CK != CK_IntegralToPointer) ||
        !isProjectCode(Cast->getBeginLoc()))
      return true;
    QualType From = Cast->getSubExpr()->getType(), To = Cast->getType();
    const RecordDecl *R = Terms.pointedRecord(From);
    if (!R)
      R = Terms.pointedRecord(To);
    if (!R || samePointee(From, To) || isAllocationOrLibraryArgument(Cast) ||
        Cast->getSubExpr()->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      return true;
    report(Kind::AliasCast, Cast, Terms.recordName(R),
           "cast from " + typeName(From) + " to " + typeName(To) +
               ": the object may be written through the other type");
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (!isProjectCode(Call->getBeginLoc()))
      return true;
    switch (Roles.roleOf(Call)) {
    case CallRole::Allocate:
      allocation(Call);
      break;
    case CallRole::Free:
    case CallRole::Reallocate:
      deallocation(Call);
      break;
    case CallRole::WriteMemory:
      memoryWrite(Call);
      break;
    case CallRole::ReadMemory:
      break;
    case CallRole::None:
      callOut(Call);
      break;
    }
    return true;
  }

  bool VisitRecordDecl(RecordDecl *Union) {
    if (!Union->isUnion() || !Union->isThisDeclarationADefinition() ||
        !isProjectCode(Union->getLocation()))
      return true;
    for (const FieldDecl *F : Union->fields())
      if (const RecordDecl *R = Terms.heldRecord(F->getType())) {
        report(Kind::AliasUnion, Union, Terms.recordName(R),
               "union member '" + F->getNameAsString() + "' holds " + typeName(F->getType()) +
                   ": writes through the union's other members are not found");
        return true;
      }
    for (const FieldDecl *F : Union->fields())
      if (const Term *T = Terms.termOf(F))
        report(Kind::AliasUnion, F, T->text,
               "the term is a union member: writes to the other members overwrite it");
    return true;
  }

private:
  bool isProjectCode(SourceLocation Loc) const {
    Loc = SM.getExpansionLoc(Loc);
    return Loc.isValid() && !SM.isInSystemHeader(Loc);
  }

  template <typename Node> void report(Kind K, const Node *N, std::string Subject,
                                       std::string Message) {
    Out.findings.push_back(makeFinding(K, N->getBeginLoc(), std::move(Subject), std::move(Message)));
  }

  Finding makeFinding(Kind K, SourceLocation Loc, std::string Subject, std::string Message) const {
    Loc = SM.getExpansionLoc(Loc);
    Finding F;
    F.kind = K;
    F.file = filePathOf(SM, Loc);
    F.line = SM.getExpansionLineNumber(Loc);
    F.column = SM.getExpansionColumnNumber(Loc);
    F.subject = std::move(Subject);
    F.message = std::move(Message);
    return F;
  }

  /// A write: of kind K, or initialization when Object (the variable through
  /// which it writes) holds a fresh object. Direct writes (Access set) get a
  /// planned rewrite with --fix.
  void write(Kind K, const Expr *At, std::string Subject, std::string Message,
             const DeclRefExpr *Object, const Expr *Write = nullptr, const Expr *Access = nullptr,
             const Term *T = nullptr) {
    bool IsFresh = Object && Fresh && Fresh->isFresh(Object);
    if (IsFresh)
      Message += " (fresh object: " + Object->getDecl()->getNameAsString() + ")";
    Finding F = makeFinding(IsFresh ? Kind::FreshWrite : K, At->getBeginLoc(), std::move(Subject),
                            std::move(Message));
    if (!IsFresh && Planner && Access)
      Out.fixes.emplace_back(F, Planner->plan(Write, Access, *T));
    Out.findings.push_back(std::move(F));
  }

  /// A short rendering of the statement as spelled (its macro's use, if any).
  std::string describe(const Expr *E) const {
    CharSourceRange Range = SM.getExpansionRange(E->getSourceRange());
    std::string Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
    std::string OneLine;
    for (char C : Text)
      if (!(isspace((unsigned char)C) && !OneLine.empty() && OneLine.back() == ' '))
        OneLine += isspace((unsigned char)C) ? ' ' : C;
    if (OneLine.size() > 72)
      OneLine = OneLine.substr(0, 69) + "...";
    return "'" + OneLine + "'";
  }

  /// Whether E's value (through casts) is an argument of memcpy and the like,
  /// which the memory-write rule covers.
  bool isMemoryFunctionArgument(const Expr *E) const {
    const auto *Call = dyn_cast_or_null<CallExpr>(userOf(Ctx, E));
    CallRole Role = Call ? Roles.roleOf(Call) : CallRole::None;
    return Role == CallRole::WriteMemory || Role == CallRole::ReadMemory;
  }

  /// A cast of an allocator's (or realloc's) result, or of an argument of a deallocator or
  /// memory function: no lasting second view of a live object.
  bool isAllocationOrLibraryArgument(const CastExpr *Cast) const {
    if (const auto *Call = dyn_cast<CallExpr>(Cast->getSubExpr()->IgnoreParenCasts());
        Call && (Roles.roleOf(Call) == CallRole::Allocate ||
                 Roles.roleOf(Call) == CallRole::Reallocate))
      return true;
    const auto *Call = dyn_cast_or_null<CallExpr>(userOf(Ctx, Cast));
    return Call && Roles.roleOf(Call) != CallRole::None;
  }

  bool samePointee(QualType A, QualType B) const {
    const auto *PA = A.getCanonicalType()->getAs<PointerType>();
    const auto *PB = B.getCanonicalType()->getAs<PointerType>();
    return PA && PB &&
           PA->getPointeeType().getUnqualifiedType() == PB->getPointeeType().getUnqualifiedType();
  }

  /// malloc(...) whose result becomes a pointer to an object holding terms.
  void allocation(const CallExpr *Call) {
    QualType Target = outermostSameValue(Ctx, Call)->getType();
    if (const VarDecl *V = initializedVariable(Ctx, Call))
      Target = V->getType();
    else if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(userOf(Ctx, Call));
             Assign && Assign->getOpcode() == BO_Assign)
      Target = Assign->getLHS()->getType();
    if (const RecordDecl *R = Terms.pointedRecord(Target))
      report(Kind::Allocation, Call, Terms.recordName(R),
             "allocation of a fresh " + typeName(Target->getPointeeType()) + ": " + describe(Call));
  }

  void deallocation(const CallExpr *Call) {
    if (!Call->getNumArgs())
      return;
    const Expr *Object = Call->getArg(0);
    const RecordDecl *R = Terms.pointedRecord(Object->IgnoreParenCasts()->getType());
    if (!R)
      return;
    const DeclRefExpr *Variable = pointerVariable(Object);
    bool IsFresh = Variable && Fresh && Fresh->isFresh(Variable);
    std::string Message = (Roles.roleOf(Call) == CallRole::Reallocate
                               ? "reallocation (the object may move; its terms die with it): "
                               : "the object dies with its terms: ") +
                          describe(Call);
    if (IsFresh)
      Message += " (fresh object: " + Variable->getDecl()->getNameAsString() + ")";
    report(IsFresh ? Kind::FreshFree : Kind::Free, Call, Terms.recordName(R), Message);
  }

  void memoryWrite(const CallExpr *Call) {
    const Expr *Destination = CallRoles::destinationOf(Call);
    if (!Destination)
      return;
    const Expr *Stripped = Destination->IgnoreParenCasts();
    if (const auto *Address = dyn_cast<UnaryOperator>(Stripped);
        Address && Address->getOpcode() == UO_AddrOf)
      Stripped = Address->getSubExpr();
    const Term *T = nullptr;
    std::string Subject;
    if (termAccess(Terms, Stripped, T))
      Subject = T->text;
    else if (const RecordDecl *R = Terms.pointedRecord(Destination->IgnoreParenCasts()->getType()))
      Subject = Terms.recordName(R);
    else
      return;
    write(Kind::MemoryWrite, Call, Subject, "memory written by " + describe(Call),
          pointerVariable(Destination));
  }

  /// A pointer to an object that holds terms, passed to a call.
  void callOut(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (const Expr *Argument : Call->arguments()) {
      const RecordDecl *R = Terms.pointedRecord(Argument->IgnoreParenCasts()->getType());
      if (!R)
        continue;
      std::string To = Callee ? "'" + Callee->getNameAsString() +
                                    "', which is defined in none of the analyzed sources"
                              : "an indirect call, whose target may be outside the analyzed "
                                "sources";
      Out.callsOut.emplace_back(
          makeFinding(Kind::AliasExternal, Argument->getBeginLoc(), Terms.recordName(R),
                      "the object is passed to " + To + ": " + describe(Argument)),
          Callee ? Callee->getNameAsString() : "");
    }
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const ResolvedTerms &Terms;
  const CallRoles &Roles;
  const FixPlanner *Planner;
  UnitFindings &Out;
  std::optional<Freshness> Fresh; ///< of the function being walked
};

} // namespace

void collectDefinedFunctions(ASTContext &Ctx, std::set<std::string> &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *F = dyn_cast<FunctionDecl>(D);
        F && F->doesThisDeclarationHaveABody() &&
        !SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
      Out.insert(F->getNameAsString());
}

void searchUnit(ASTContext &Ctx, const ResolvedTerms &Terms, const CallRoles &Roles,
                const FixPlanner *Planner, UnitFindings &Out) {
  Search(Ctx, Terms, Roles, Planner, Out).TraverseDecl(Ctx.getTranslationUnitDecl());
}

} // namespace respec::guard
