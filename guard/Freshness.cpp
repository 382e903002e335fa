//===- Freshness.cpp - Objects no one else can reach yet ------------------===//
//
// The state at a program point is the set of fresh variables and, for each, the
// fresh objects it was stored into (its holders). Joins intersect the fresh sets
// and unite the holders; blocks are revisited until nothing changes (the sets
// only shrink and grow respectively, so this ends).
//
//===----------------------------------------------------------------------===//
#include "Freshness.h"
#include "ExprContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Analysis/CFG.h"
#include <map>
#include <set>

using namespace clang;

namespace respec::guard {
namespace {

struct State {
  std::set<const VarDecl *> fresh;
  std::map<const VarDecl *, std::set<const VarDecl *>> holders;

  bool operator==(const State &O) const { return fresh == O.fresh && holders == O.holders; }

  void meet(const State &O) {
    std::set<const VarDecl *> Both;
    std::set_intersection(fresh.begin(), fresh.end(), O.fresh.begin(), O.fresh.end(),
                          std::inserter(Both, Both.begin()));
    fresh = std::move(Both);
    for (const auto &[V, Hs] : O.holders)
      holders[V].insert(Hs.begin(), Hs.end());
  }

  void escape(const VarDecl *V) {
    if (!fresh.erase(V))
      return;
    for (const auto &[Held, Hs] : holders)
      if (Hs.count(V))
        escape(Held);
  }
};

/// What a statement does to the state.
enum class Effect { None, Access, Escape, Dies, Held, Gen, Kill };

class Analysis {
public:
  Analysis(ASTContext &Ctx, const ResolvedTerms &Terms, const CallRoles &Roles)
      : Ctx(Ctx), Terms(Terms), Roles(Roles) {}

  bool isPointerVariable(const VarDecl *V) const {
    return V->hasLocalStorage() && !isa<ParmVarDecl>(V) && Terms.pointedRecord(V->getType());
  }
  bool isObjectVariable(const VarDecl *V) const {
    return V->hasLocalStorage() && !isa<ParmVarDecl>(V) && Terms.heldRecord(V->getType());
  }
  const VarDecl *trackedVariable(const Expr *E) const {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    return V && (isPointerVariable(V) || isObjectVariable(V)) ? V : nullptr;
  }

  /// A pointer variable's new value: fresh for an allocation or a null pointer.
  Effect definedBy(const Expr *Value) const {
    const Expr *Stripped = Value->IgnoreParenCasts();
    if (const auto *Call = dyn_cast<CallExpr>(Stripped); Call && Roles.roleOf(Call) == CallRole::Allocate)
      return Effect::Gen;
    if (Value->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      return Effect::Gen;
    return Effect::Kill;
  }

  /// How the use Ref of a tracked pointer variable treats its value; Holder
  /// is set for Effect::Held.
  Effect pointerUse(const DeclRefExpr *Ref, const VarDecl *&Holder) const {
    const Expr *E = outermostSameValue(Ctx, Ref);
    auto Parents = Ctx.getParents(*E);
    if (Parents.empty() || Parents[0].get<VarDecl>())
      return Effect::Escape; // copied into another variable
    const Stmt *User = Parents[0].get<Stmt>();
    if (!User)
      return Effect::Escape;
    if (const auto *Member = dyn_cast<MemberExpr>(User))
      return Member->getBase() == E ? Effect::Access : Effect::Escape;
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(User))
      return Subscript->getBase() == E ? Effect::Access : Effect::Escape;
    if (const auto *Unary = dyn_cast<UnaryOperator>(User)) {
      switch (Unary->getOpcode()) {
      case UO_Deref:
      case UO_LNot:
        return Effect::Access;
      case UO_PreInc:
      case UO_PreDec:
      case UO_PostInc:
      case UO_PostDec:
        return Effect::None; // a new value: Kill at the operator
      default:
        return Effect::Escape;
      }
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(User)) {
      if (Binary->isComparisonOp() || Binary->isLogicalOp() ||
          (Binary->getOpcode() == BO_Comma && Binary->getLHS() == E))
        return Effect::Access;
      if (Binary->isAssignmentOp() && Binary->getLHS() == E)
        return Effect::None; // a new value: Gen or Kill at the assignment
      if (Binary->getOpcode() == BO_Assign && Binary->getRHS() == E &&
          !isa<DeclRefExpr>(Binary->getLHS()->IgnoreParens())) {
        const DeclRefExpr *Target = objectVariable(Binary->getLHS());
        Holder = Target ? trackedVariable(Target) : nullptr;
        return Holder ? Effect::Held : Effect::Escape;
      }
      return Effect::Escape;
    }
    if (const auto *Call = dyn_cast<CallExpr>(User)) {
      switch (Roles.roleOf(Call)) {
      case CallRole::Free:
      case CallRole::Reallocate:
        return Call->getNumArgs() && Call->getArg(0) == E ? Effect::Dies : Effect::Escape;
      case CallRole::WriteMemory:
      case CallRole::ReadMemory:
        return Effect::Access;
      default:
        return Effect::Escape;
      }
    }
    if (isa<UnaryExprOrTypeTraitExpr>(User))
      return Effect::Access;
    if (const auto *If = dyn_cast<IfStmt>(User))
      return If->getCond() == E ? Effect::Access : Effect::Escape;
    if (const auto *While = dyn_cast<WhileStmt>(User))
      return While->getCond() == E ? Effect::Access : Effect::Escape;
    if (const auto *Do = dyn_cast<DoStmt>(User))
      return Do->getCond() == E ? Effect::Access : Effect::Escape;
    if (const auto *For = dyn_cast<ForStmt>(User))
      return For->getCond() == E ? Effect::Access : Effect::Escape;
    if (const auto *Conditional = dyn_cast<ConditionalOperator>(User))
      return Conditional->getCond() == E ? Effect::Access : Effect::Escape;
    return Effect::Escape;
  }

  /// A local object escapes only when its address is taken (or, for an array
  /// of them, when it decays to a pointer other than to index it).
  Effect objectUse(const DeclRefExpr *Ref) const {
    const Expr *E = outermostSameValue(Ctx, Ref);
    auto Parents = Ctx.getParents(*E);
    const Stmt *User = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (const auto *Unary = dyn_cast_or_null<UnaryOperator>(User);
        Unary && Unary->getOpcode() == UO_AddrOf)
      return Effect::Escape;
    if (E != Ref && Ref->getType()->isArrayType()) {
      const auto *Subscript = dyn_cast_or_null<ArraySubscriptExpr>(User);
      return Subscript && Subscript->getBase() == E ? Effect::Access : Effect::Escape;
    }
    return Effect::Access;
  }

  /// Applies one CFG element; with Record, notes the freshness at each use.
  void transfer(const Stmt *S, State &St, llvm::DenseMap<const DeclRefExpr *, bool> *Record) {
    if (const auto *Decls = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : Decls->decls())
        if (const auto *V = dyn_cast<VarDecl>(D)) {
          if (isObjectVariable(V) ||
              (isPointerVariable(V) && V->getInit() && definedBy(V->getInit()) == Effect::Gen))
            gen(V, St);
          else if (isPointerVariable(V))
            St.fresh.erase(V);
        }
      return;
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(S)) {
      if (const VarDecl *V = trackedVariable(Binary->getLHS()); V && isPointerVariable(V)) {
        if (Binary->getOpcode() == BO_Assign && definedBy(Binary->getRHS()) == Effect::Gen)
          gen(V, St);
        else if (Binary->isAssignmentOp())
          St.fresh.erase(V);
      }
      return;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(S)) {
      if (const VarDecl *V = trackedVariable(Unary->getSubExpr());
          V && isPointerVariable(V) && Unary->isIncrementDecrementOp())
        St.fresh.erase(V);
      return;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    const VarDecl *V = Ref ? trackedVariable(Ref) : nullptr;
    if (!V)
      return;
    if (Record) {
      auto [It, Inserted] = Record->try_emplace(Ref, true);
      It->second = It->second && St.fresh.count(V);
    }
    const VarDecl *Holder = nullptr;
    Effect E = isPointerVariable(V) ? pointerUse(Ref, Holder) : objectUse(Ref);
    if (E == Effect::Escape)
      St.escape(V);
    else if (E == Effect::Held) {
      if (St.fresh.count(Holder))
        St.holders[V].insert(Holder);
      else
        St.escape(V);
    }
  }

private:
  static void gen(const VarDecl *V, State &St) {
    St.fresh.insert(V);
    St.holders.erase(V);
  }

  ASTContext &Ctx;
  const ResolvedTerms &Terms;
  const CallRoles &Roles;
};

} // namespace

Freshness::Freshness(const FunctionDecl &Function, ASTContext &Ctx, const ResolvedTerms &Terms,
                     const CallRoles &Roles) {
  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  std::unique_ptr<CFG> Graph = CFG::buildCFG(&Function, Function.getBody(), &Ctx, Options);
  if (!Graph)
    return; // no use is fresh
  Analysis A(Ctx, Terms, Roles);
  std::map<const CFGBlock *, State> Out;
  auto In = [&](const CFGBlock &B) -> std::optional<State> {
    if (&B == &Graph->getEntry())
      return State();
    std::optional<State> Joined;
    for (const CFGBlock::AdjacentBlock &Pred : B.preds()) {
      auto It = Pred.getReachableBlock() ? Out.find(Pred.getReachableBlock()) : Out.end();
      if (It == Out.end())
        continue; // not reached yet: no constraint
      if (Joined)
        Joined->meet(It->second);
      else
        Joined = It->second;
    }
    return Joined;
  };
  auto Run = [&](const CFGBlock &B, State St,
                 llvm::DenseMap<const DeclRefExpr *, bool> *Record) {
    for (const CFGElement &Element : B)
      if (std::optional<CFGStmt> S = Element.getAs<CFGStmt>())
        A.transfer(S->getStmt(), St, Record);
    return St;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const CFGBlock *B : *Graph) {
      std::optional<State> Entry = In(*B);
      if (!Entry)
        continue;
      State Exit = Run(*B, std::move(*Entry), nullptr);
      auto [It, Inserted] = Out.try_emplace(B, Exit);
      if (Inserted || !(It->second == Exit)) {
        It->second = std::move(Exit);
        Changed = true;
      }
    }
  }
  for (const CFGBlock *B : *Graph)
    if (std::optional<State> Entry = In(*B))
      Run(*B, std::move(*Entry), &FreshAtUse);
}

bool Freshness::isFresh(const DeclRefExpr *Use) const {
  auto It = FreshAtUse.find(Use);
  return It != FreshAtUse.end() && It->second;
}

} // namespace respec::guard
