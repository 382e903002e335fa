//===- Fix.cpp - Guarding direct writes with RESPEC_GUARDED_STORE ---------===//
//
// Rewrites are planned per translation unit as file offsets (clang's
// tooling::Replacement), so that a header edited from two units — the struct's
// new SPID member — is one edit; applyFixes merges them per file.
//
//===----------------------------------------------------------------------===//
#include "Fix.h"
#include "Diagnostics.h"
#include "Driver.h"
#include "SourceDatabase.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>
#include <regex>

using namespace clang;

namespace respec::guard {

std::string filePathOf(const SourceManager &SM, SourceLocation Loc) {
  Loc = SM.getExpansionLoc(Loc);
  OptionalFileEntryRef File = SM.getFileEntryRefForID(SM.getFileID(Loc));
  if (!File)
    return "";
  SmallString<256> Path(File->getName());
  SM.getFileManager().getVirtualFileSystem().makeAbsolute(Path);
  return canonicalPath("", Path);
}

namespace {

/// Whether E is a statement of its own (its value unused), which the macro,
/// a do-while statement, can replace.
bool isStatementOfItsOwn(ASTContext &Ctx, const Expr *E) {
  auto Parents = Ctx.getParents(*E);
  const Stmt *Parent = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
  if (!Parent)
    return false;
  if (isa<CompoundStmt>(Parent))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return If->getThen() == E || If->getElse() == E;
  if (const auto *While = dyn_cast<WhileStmt>(Parent))
    return While->getBody() == E;
  if (const auto *Do = dyn_cast<DoStmt>(Parent))
    return Do->getBody() == E;
  if (const auto *For = dyn_cast<ForStmt>(Parent))
    return For->getBody() == E;
  if (const auto *Label = dyn_cast<LabelStmt>(Parent))
    return Label->getSubStmt() == E;
  if (const auto *Case = dyn_cast<SwitchCase>(Parent))
    return Case->getSubStmt() == E;
  return false;
}

/// Text fit for one macro argument: parenthesized when a comma could split it.
std::string macroArgument(const std::string &Text) {
  return Text.find(',') == std::string::npos ? Text : "(" + Text + ")";
}

} // namespace

std::string FixPlanner::text(const Expr *E) const {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()),
                              Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

PlannedFix FixPlanner::plan(const Expr *Write, const Expr *Access, const Term &T) const {
  const SourceManager &SM = Ctx.getSourceManager();
  PlannedFix Fix;
  if (Write->getBeginLoc().isMacroID() || Write->getEndLoc().isMacroID()) {
    Fix.reason = "spelled in a macro";
    return Fix;
  }
  if (!isStatementOfItsOwn(Ctx, Write)) {
    Fix.reason = "its value is used by an enclosing expression";
    return Fix;
  }
  const Expr *LHS, *Value = nullptr;
  std::string NewValue;
  if (const auto *B = dyn_cast<BinaryOperator>(Write)) {
    LHS = B->getLHS();
    Value = B->getRHS();
    NewValue = text(Value);
    if (B->isCompoundAssignmentOp())
      NewValue = text(LHS) + " " +
                 BinaryOperator::getOpcodeStr(
                     BinaryOperator::getOpForCompoundAssignment(B->getOpcode()))
                     .str() +
                 " (" + NewValue + ")";
  } else {
    const auto *U = cast<UnaryOperator>(Write);
    LHS = U->getSubExpr();
    NewValue = text(LHS) + (U->isIncrementOp() ? " + 1" : " - 1");
  }
  if (LHS->HasSideEffects(Ctx)) {
    Fix.reason = "the written lvalue has side effects (the macro evaluates it more than once)";
    return Fix;
  }
  std::string Spid = spidDeclarations(Access, T, Fix.edits, Fix.reason);
  if (Spid.empty()) {
    Fix.edits.clear();
    return Fix;
  }
  std::string Guarded = "RESPEC_GUARDED_STORE(" + macroArgument(Spid) + ", " +
                        macroArgument(text(LHS)) + ", " + macroArgument(NewValue) + ")";
  Fix.edits.emplace_back(SM, CharSourceRange::getTokenRange(Write->getSourceRange()), Guarded);
  return Fix;
}

/// The SPID expression for the object Access writes, and the edits that
/// declare the SPID if the sources have none. Empty, with the reason, when it
/// cannot be declared.
std::string FixPlanner::spidDeclarations(const Expr *Access, const Term &T,
                                         std::vector<tooling::Replacement> &Edits,
                                         std::string &Reason) const {
  const SourceManager &SM = Ctx.getSourceManager();
  if (const auto *Member = dyn_cast<MemberExpr>(Access)) {
    const Expr *Base = Member->getBase();
    if (Base->HasSideEffects(Ctx)) {
      Reason = "the object expression has side effects (the macro evaluates it again)";
      return "";
    }
    const RecordDecl *Record = cast<FieldDecl>(Member->getMemberDecl())->getParent();
    bool HasSpid = llvm::any_of(Record->fields(),
                                [&](const FieldDecl *F) { return F->getName() == SpidField; });
    if (!HasSpid) {
      const FieldDecl *FirstTerm = *llvm::find_if(
          Record->fields(), [&](const FieldDecl *F) { return Terms.termOf(F) != nullptr; });
      SourceLocation At = FirstTerm->getBeginLoc();
      if (At.isMacroID() || SM.isInSystemHeader(At)) {
        Reason = "the struct has no '" + SpidField +
                 "' field and is declared in a system header or a macro: add one by hand";
        return "";
      }
      unsigned Column = SM.getSpellingColumnNumber(At);
      StringRef BeforeOnLine = SM.getBufferData(SM.getFileID(At))
                                   .substr(SM.getFileOffset(At) - (Column - 1), Column - 1);
      std::string Declaration = "respec_spid " + SpidField +
                                "; /* respec guard --fix: armed while a predicate covers "
                                "this object */";
      // A term that starts its line gets a line of its own above it, indented
      // alike; one after other code on its line (`struct s { int t; };`), the
      // declaration just before it.
      bool StartsLine = BeforeOnLine.find_first_not_of(" \t") == StringRef::npos;
      Edits.emplace_back(SM, At, 0,
                         StartsLine ? Declaration + "\n" + BeforeOnLine.str() : Declaration + " ");
    }
    return text(Base) + (Member->isArrow() ? "->" : ".") + SpidField;
  }
  const auto *Global = cast<VarDecl>(cast<DeclRefExpr>(Access)->getDecl());
  std::string Name = T.global + "_" + SpidField;
  for (const VarDecl *D : Global->redecls()) {
    SourceLocation End = D->getEndLoc();
    SourceLocation AfterSemi =
        End.isMacroID() || SM.isInSystemHeader(End)
            ? SourceLocation()
            : Lexer::findLocationAfterToken(End, tok::semi, SM, Ctx.getLangOpts(), false);
    if (AfterSemi.isInvalid()) {
      Reason = "a declaration of the variable is in a system header, a macro or a list "
               "(`int a, g, b;`): declare " + Name + " by hand";
      return "";
    }
    std::string Storage = D->getStorageClass() == SC_Static ? "static "
                          : D->hasExternalStorage()          ? "extern "
                                                             : "";
    Edits.emplace_back(SM, AfterSemi, 0, "\n" + Storage + "respec_spid " + Name + ";");
  }
  return Name;
}

namespace {

/// Where <respec/runtime.h> goes: before the file's first #include (after
/// feature macros such as _GNU_SOURCE that must precede every header), else at
/// the top. Empty-length insertion offset.
unsigned includeOffset(StringRef Code) {
  static const std::regex FirstInclude(R"((^|\n)[ \t]*#[ \t]*include\b)");
  std::cmatch M;
  std::string Text = Code.str();
  if (!std::regex_search(Text.c_str(), M, FirstInclude))
    return 0;
  return unsigned(M.position(0) + M.length(1));
}

} // namespace

std::vector<std::string> applyFixes(const std::vector<PlannedFix> &Fixes,
                                    const GuardOptions &Options) {
  std::map<std::string, tooling::Replacements> ByFile;
  for (const PlannedFix &Fix : Fixes)
    for (const tooling::Replacement &Edit : Fix.edits) {
      tooling::Replacements &File = ByFile[Edit.getFilePath().str()];
      if (llvm::is_contained(File, Edit))
        continue; // the same SPID declaration planned from another unit
      if (llvm::Error E = File.add(Edit))
        throw SpecError(Edit.getFilePath().str(),
                        "internal error: two rewrites overlap: " + llvm::toString(std::move(E)));
    }
  std::map<std::string, std::string> Rewritten;
  for (auto &[Path, Edits] : ByFile) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      throw SpecError(Path, "cannot read the file to rewrite: " + Buffer.getError().message());
    StringRef Code = (*Buffer)->getBuffer();
    llvm::Expected<std::string> NewCode = tooling::applyAllReplacements(Code, Edits);
    if (!NewCode)
      throw SpecError(Path, "internal error: cannot apply the rewrites: " +
                                llvm::toString(NewCode.takeError()));
    static const std::regex IncludesRuntime(R"((^|\n)[ \t]*#[ \t]*include[ \t]*<respec/runtime\.h>)");
    if (!std::regex_search(Code.str(), IncludesRuntime))
      NewCode->insert(includeOffset(*NewCode), "#include <respec/runtime.h>\n");
    Rewritten[Path] = *NewCode;
  }
  if (Rewritten.empty())
    return {};

  // Every unit again, over the rewritten files: all compile, or nothing is written.
  SourceDatabase Database(Options.sources, {"-I" + Options.runtimeIncludeDir});
  tooling::ClangTool Check(Database, Database.getAllFiles());
  for (const auto &[Path, Code] : Rewritten)
    Check.mapVirtualFile(Path, Code);
  if (Check.run(tooling::newFrontendActionFactory<SyntaxOnlyAction>().get()) != 0)
    throw SpecError("", "the rewritten sources do not compile (clang's errors above); "
                        "no file was changed");
  std::vector<std::string> Written;
  for (const auto &[Path, Code] : Rewritten) {
    writeFileAtomically(Path, Code);
    Written.push_back(Path);
  }
  return Written;
}

} // namespace respec::guard
