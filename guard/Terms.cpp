//===- Terms.cpp - Predicate terms, named and resolved in one translation unit ===//
//
// Resolution looks a name up at file scope (C has one scope for struct tags,
// nested definitions included), so the result does not depend on where in the
// unit the record is defined; a unit that does not define it simply has no term.
//
//===----------------------------------------------------------------------===//
#include "Terms.h"
#include "Diagnostics.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include <regex>

using namespace clang;

namespace respec::guard {

Term parseTerm(const TermRequest &Request) {
  static const std::regex FieldTerm(R"(\s*(?:(struct|union)\s+)?([A-Za-z_]\w*)\s*::\s*([A-Za-z_]\w*)\s*)");
  static const std::regex GlobalTerm(R"(\s*([A-Za-z_]\w*)\s*)");
  std::smatch M;
  Term T;
  T.origin = Request.origin;
  if (std::regex_match(Request.text, M, FieldTerm)) {
    T.record = M[1].matched ? M[1].str() + " " + M[2].str() : M[2].str();
    T.field = M[3].str();
    T.text = T.record + "::" + T.field;
  } else if (std::regex_match(Request.text, M, GlobalTerm)) {
    T.global = M[1].str();
    T.text = T.global;
  } else {
    throw SpecError(Request.origin,
                    "'" + Request.text +
                        "' is not a term: write 'struct TAG::FIELD', 'TYPEDEF::FIELD' or "
                        "'GLOBAL_VARIABLE'");
  }
  return T;
}

namespace {
/// Every struct and union definition and file-scope declaration, by name.
struct FileScopeNames : RecursiveASTVisitor<FileScopeNames> {
  std::map<std::string, const RecordDecl *> tags;
  std::map<std::string, const TypedefNameDecl *> typedefs;
  std::map<std::string, const NamedDecl *> others;

  bool VisitRecordDecl(RecordDecl *R) {
    if (R->isThisDeclarationADefinition() && R->getIdentifier())
      tags.emplace((R->isUnion() ? "union " : "struct ") + R->getName().str(), R);
    return true;
  }
  bool VisitTypedefNameDecl(TypedefNameDecl *T) {
    typedefs.emplace(T->getName().str(), T);
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (V->isFileVarDecl())
      others.emplace(V->getName().str(), V);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *F) {
    others.emplace(F->getName().str(), F);
    return true;
  }
};

FileScopeNames &namesOf(ASTContext &Ctx, std::optional<FileScopeNames> &Cache) {
  if (!Cache) {
    Cache.emplace();
    Cache->TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  return *Cache;
}

std::string where(const ASTContext &Ctx, const Decl *D) {
  PresumedLoc P = Ctx.getSourceManager().getPresumedLoc(D->getLocation());
  return P.isValid() ? std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) : "";
}
} // namespace

ResolvedTerms::ResolvedTerms(ASTContext &Ctx, const std::vector<Term> &Terms) : Ctx(Ctx) {
  std::optional<FileScopeNames> Names;
  for (const Term &T : Terms) {
    std::optional<std::string> &Problem = Problems.emplace_back();
    FileScopeNames &N = namesOf(Ctx, Names);
    if (T.isGlobal()) {
      auto It = N.others.find(T.global);
      const auto *V = It == N.others.end() ? nullptr : dyn_cast<VarDecl>(It->second);
      if (V)
        TermByDecl[V->getCanonicalDecl()] = &T;
      else if (It != N.others.end())
        Problem = "'" + T.global + "' is a function (" + where(Ctx, It->second) +
                  "), not a global variable";
      else
        Problem = "no global variable named '" + T.global + "' in the analyzed sources";
      continue;
    }
    const RecordDecl *R = nullptr;
    if (StringRef(T.record).contains(' ')) {
      auto It = N.tags.find(T.record);
      R = It == N.tags.end() ? nullptr : It->second;
    } else if (auto It = N.typedefs.find(T.record); It != N.typedefs.end()) {
      const RecordType *RT = It->second->getUnderlyingType()->getAsStructureType();
      if (!RT)
        RT = It->second->getUnderlyingType()->getAsUnionType();
      if (!RT) {
        Problem = "typedef '" + T.record + "' (" + where(Ctx, It->second) +
                  ") does not name a struct or union";
        continue;
      }
      R = RT->getDecl()->getDefinition();
    } else if (auto It = N.tags.find("struct " + T.record); It != N.tags.end()) {
      R = It->second;
    }
    if (!R) {
      Problem = "no struct, union or typedef named '" + T.record + "' in the analyzed sources";
      continue;
    }
    const FieldDecl *Field = nullptr;
    std::vector<std::string> FieldNames;
    for (const FieldDecl *F : R->fields()) {
      FieldNames.push_back(F->getName().str());
      if (F->getName() == T.field)
        Field = F;
    }
    if (!Field) {
      Problem = T.record + " (" + where(Ctx, R) + ") has no field '" + T.field +
                "'; its fields: " + llvm::join(FieldNames, ", ");
      continue;
    }
    TermByDecl[Field] = &T;
    RecordNames.try_emplace(R, T.record);
  }
}

const Term *ResolvedTerms::termOf(const ValueDecl *D) const {
  if (!D)
    return nullptr;
  auto It = TermByDecl.find(D->getCanonicalDecl());
  return It == TermByDecl.end() ? nullptr : It->second;
}

const RecordDecl *ResolvedTerms::heldRecord(QualType T) const {
  T = Ctx.getBaseElementType(T.getCanonicalType());
  const auto *RT = T->getAs<RecordType>();
  if (!RT)
    return nullptr;
  const RecordDecl *R = RT->getDecl()->getDefinition();
  if (!R)
    return nullptr;
  if (RecordNames.count(R))
    return R;
  auto [It, Inserted] = HeldCache.try_emplace(RT, nullptr);
  if (!Inserted)
    return It->second;
  for (const FieldDecl *F : R->fields())
    if (const RecordDecl *Held = heldRecord(F->getType()))
      return HeldCache[RT] = Held;
  return nullptr;
}

const RecordDecl *ResolvedTerms::pointedRecord(QualType T) const {
  const auto *P = T.getCanonicalType()->getAs<PointerType>();
  return P ? heldRecord(P->getPointeeType()) : nullptr;
}

std::string ResolvedTerms::recordName(const RecordDecl *R) const {
  auto It = RecordNames.find(R);
  return It == RecordNames.end() ? "" : It->second;
}

} // namespace respec::guard
