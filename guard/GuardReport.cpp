//===- GuardReport.cpp - guard's findings as text or SARIF 2.1 -----------------===//
#include "GuardReport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include <map>

using namespace llvm;

namespace respec::guard {
namespace {

const Kind AllKinds[] = {Kind::Store,         Kind::CompoundAssign, Kind::Increment,
                         Kind::ObjectAssign,  Kind::MemoryWrite,    Kind::Free,
                         Kind::Allocation,    Kind::FreshWrite,     Kind::FreshFree,
                         Kind::AliasAddress,  Kind::AliasCast,      Kind::AliasUnion,
                         Kind::AliasExternal};

const char *ruleDescription(Kind K) {
  switch (K) {
  case Kind::Store: return "A store to a predicate term: needs RESPEC_GUARDED_STORE.";
  case Kind::CompoundAssign: return "A compound assignment to a predicate term: needs a guard.";
  case Kind::Increment: return "An increment or decrement of a predicate term: needs a guard.";
  case Kind::ObjectAssign: return "An assignment of a whole object holding predicate terms: needs a guard.";
  case Kind::MemoryWrite: return "memcpy/memmove/memset over a predicate term or an object holding terms: needs a guard.";
  case Kind::Free: return "An object holding predicate terms dies: a live predicate on it must be broken first.";
  case Kind::Allocation: return "Allocation of an object holding predicate terms (cannot break a live predicate).";
  case Kind::FreshWrite: return "A write to an object no one else can reach yet (cannot break a live predicate).";
  case Kind::FreshFree: return "Freeing an object no one else could reach (cannot break a live predicate).";
  case Kind::AliasAddress: return "The address of a predicate term is taken: writes through it are not found.";
  case Kind::AliasCast: return "A cast to or from a pointer to an object holding predicate terms: writes through the other type are not found.";
  case Kind::AliasUnion: return "A union overlays predicate terms: writes through its other members are not found.";
  case Kind::AliasExternal: return "An object holding predicate terms is passed to code outside the analyzed sources.";
  }
  llvm_unreachable("every kind has a description");
}

const char *categoryName(Category C) {
  switch (C) {
  case Category::Write: return "write";
  case Category::Free: return "free";
  case Category::Fresh: return "fresh";
  case Category::Alias: return "alias";
  }
  llvm_unreachable("every category has a name");
}

/// The path as the user would type it from here, when it is below here.
std::string shownPath(const std::string &Path) {
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd) && StringRef(Path).startswith(Cwd.str().str() + "/"))
    return Path.substr(Cwd.size() + 1);
  return Path;
}

std::string fileUri(const std::string &Path) {
  std::string Uri = "file://";
  for (unsigned char C : Path) {
    if (isalnum(C) || StringRef("/-._~").contains(C))
      Uri += C;
    else
      Uri += formatv("%{0:X2}", unsigned(C)).str();
  }
  return Uri;
}

} // namespace

std::string findingText(const Finding &F) {
  return shownPath(F.file) + ":" + std::to_string(F.line) + ":" + std::to_string(F.column) + ": " +
         kindName(F.kind) + ": " + F.subject + ": " + F.message;
}

std::string renderText(const GuardResult &Result) {
  std::string Out;
  raw_string_ostream OS(Out);
  std::map<Kind, unsigned> PerKind;
  std::map<Category, unsigned> PerCategory;
  std::map<std::string, std::map<Category, unsigned>> PerSubject;
  for (const Finding &F : Result.findings) {
    OS << findingText(F);
    if (!F.fixStatus.empty())
      OS << " [" << F.fixStatus << "]";
    OS << "\n";
    ++PerKind[F.kind];
    ++PerCategory[categoryOf(F.kind)];
    ++PerSubject[F.subject][categoryOf(F.kind)];
  }
  for (const std::string &File : Result.rewrittenFiles)
    OS << "rewritten: " << shownPath(File) << "\n";
  OS << formatv("summary: {0} writes and {1} frees need a guard; {2} allocations, {3} writes "
                "and {4} frees of fresh objects need none; {5} alias warnings to review\n",
                PerCategory[Category::Write], PerCategory[Category::Free],
                PerKind[Kind::Allocation], PerKind[Kind::FreshWrite], PerKind[Kind::FreshFree],
                PerCategory[Category::Alias]);
  OS << "by kind:";
  for (Kind K : AllKinds)
    OS << " " << kindName(K) << " " << PerKind[K] << (K == Kind::AliasExternal ? "\n" : ",");
  OS << formatv("{0,-40} {1,6} {2,6} {3,6} {4,6}\n", "by term or record:", "write", "free",
                "fresh", "alias");
  std::vector<std::string> Subjects = Result.terms;
  for (const auto &[Subject, Counts] : PerSubject)
    if (!llvm::is_contained(Subjects, Subject))
      Subjects.push_back(Subject);
  for (const std::string &Subject : Subjects) {
    std::map<Category, unsigned> &C = PerSubject[Subject];
    OS << formatv("  {0,-38} {1,6} {2,6} {3,6} {4,6}\n", Subject, C[Category::Write],
                  C[Category::Free], C[Category::Fresh], C[Category::Alias]);
  }
  return Out;
}

std::string renderSarif(const GuardResult &Result, const std::string &ToolVersion) {
  json::Array Rules, Results;
  std::map<Kind, size_t> RuleIndex;
  for (Kind K : AllKinds) {
    RuleIndex[K] = Rules.size();
    Rules.push_back(json::Object{
        {"id", kindName(K)},
        {"shortDescription", json::Object{{"text", ruleDescription(K)}}},
        {"defaultConfiguration",
         json::Object{{"level", categoryOf(K) == Category::Fresh ? "note" : "warning"}}},
        {"properties", json::Object{{"category", categoryName(categoryOf(K))}}}});
  }
  for (const Finding &F : Result.findings) {
    json::Object Properties{{"subject", F.subject}, {"category", categoryName(categoryOf(F.kind))}};
    if (!F.fixStatus.empty())
      Properties["fix"] = F.fixStatus;
    Results.push_back(json::Object{
        {"ruleId", kindName(F.kind)},
        {"ruleIndex", int64_t(RuleIndex[F.kind])},
        {"level", categoryOf(F.kind) == Category::Fresh ? "note" : "warning"},
        {"message", json::Object{{"text", F.subject + ": " + F.message}}},
        {"locations",
         json::Array{json::Object{
             {"physicalLocation",
              json::Object{{"artifactLocation", json::Object{{"uri", fileUri(F.file)}}},
                           {"region", json::Object{{"startLine", int64_t(F.line)},
                                                   {"startColumn", int64_t(F.column)}}}}}}}},
        {"properties", std::move(Properties)}});
  }
  json::Object Driver{{"name", "respec-guard"},
                      {"version", ToolVersion},
                      {"rules", std::move(Rules)}};
  json::Object Run{{"tool", json::Object{{"driver", std::move(Driver)}}},
                   {"results", std::move(Results)},
                   {"properties", json::Object{{"terms", json::Array(Result.terms)}}}};
  json::Object Log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                   {"version", "2.1.0"},
                   {"runs", json::Array{std::move(Run)}}};
  return formatv("{0:2}\n", json::Value(std::move(Log))).str();
}

} // namespace respec::guard
