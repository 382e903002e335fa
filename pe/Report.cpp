//===- Report.cpp - What the specialization did, line by line -------------===//
#include "Report.h"
#include "Diagnostics.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>
#include <set>
#include <sstream>

using namespace llvm;

namespace respec {
namespace {

enum class LineKind { Unreached, Static, Residual, Mixed };

LineKind kindOf(const LineBindingTime &L) {
  if (!L.evaluated && !L.residual)
    return LineKind::Unreached;
  return !L.residual ? LineKind::Static : !L.evaluated ? LineKind::Residual : LineKind::Mixed;
}

std::vector<FunctionListing> listings(const SpecializationResult &R) {
  std::map<const DISubprogram *, FunctionListing> ByFunction;
  for (auto &[I, BT] : R.bindingTimes) {
    const DebugLoc &Loc = I->getDebugLoc();
    if (!Loc || !Loc.getLine())
      continue;
    // Attribute inlined-at locations to the function the line is written in.
    DISubprogram *SP = Loc->getScope()->getSubprogram();
    if (!SP)
      continue;
    FunctionListing &L = ByFunction[SP];
    if (L.name.empty()) {
      L.name = SP->getName().str();
      L.file = displayPath(SP->getDirectory(), SP->getFilename());
      L.first = L.last = SP->getLine();
    }
    LineBindingTime &Line = L.lines[Loc.getLine()];
    Line.evaluated += BT.evaluated;
    Line.residual += BT.residual;
    Line.branchesEvaluated += BT.evaluated * conditionalBranches(*I);
    Line.branchesResidual += BT.residual * conditionalBranches(*I);
    L.last = std::max(L.last, Loc.getLine() + 1);
  }
  std::vector<FunctionListing> Out;
  for (auto &[SP, L] : ByFunction)
    Out.push_back(std::move(L));
  std::sort(Out.begin(), Out.end(), [](const FunctionListing &A, const FunctionListing &B) {
    return std::tie(A.file, A.first) < std::tie(B.file, B.first);
  });
  return Out;
}

std::vector<std::string> readLines(const std::string &File) {
  std::vector<std::string> Lines;
  auto Buffer = MemoryBuffer::getFile(File);
  if (!Buffer)
    return Lines;
  std::istringstream In((*Buffer)->getBuffer().str());
  for (std::string Line; std::getline(In, Line);)
    Lines.push_back(Line);
  return Lines;
}

struct Summary {
  unsigned staticLines = 0, residualLines = 0, mixedLines = 0;
};

Summary countLines(const std::vector<FunctionListing> &Ls) {
  Summary S;
  for (const FunctionListing &L : Ls)
    for (auto &[N, Info] : L.lines)
      switch (kindOf(Info)) {
      case LineKind::Static: ++S.staticLines; break;
      case LineKind::Residual: ++S.residualLines; break;
      case LineKind::Mixed: ++S.mixedLines; break;
      case LineKind::Unreached: break;
      }
  return S;
}

std::vector<std::pair<std::string, std::string>> statRows(const ReportEntry &E) {
  const SpecializeStats &S = E.stats;
  auto N = [](unsigned V) { return std::to_string(V); };
  return {
      {"generic instructions reached", N(S.instructionsBefore)},
      {"specialized instructions (after cleanup)", N(E.instructionsAfter)},
      {"instruction executions evaluated away", N(S.instructionsEvaluated)},
      {"residual instructions emitted", N(S.instructionsResidual)},
      {"branches folded", N(S.branchesFolded)},
      {"calls unfolded", N(S.callsUnfolded)},
      {"indirect calls devirtualized", N(S.indirectCallsDevirtualized)},
      {"loop iterations unrolled", N(S.loopIterationsUnrolled)},
      {"loops kept residual", N(S.loopsKeptResidual)},
      {"loops keyed on their program counter", N(S.loopsKeyedOnProgramData)},
      {"loops keyed on the state their iterations read", N(S.loopsKeyedOnLiveState)},
      {"functions specialized for a recursive call", N(S.recursiveVariants)},
      {"residual calls whose writes were found at the call site", N(S.callEffectsAnalyzed)},
      {"residual branch edges on which a dynamic value is known", N(S.edgesRefined)},
      {"budget hits", N(S.budgetHits)},
      {"attempts (each restart follows a round of loop generalization or a budget hit)", N(S.restarts + 1)},
      {"specialized blocks", N(S.blocksSpecialized)},
      {"work: instructions evaluated, all attempts (--max-work per attempt)",
       std::to_string(S.work)},
  };
}

const char *marker(LineKind K) {
  switch (K) {
  case LineKind::Static: return "S";
  case LineKind::Residual: return "D";
  case LineKind::Mixed: return "M";
  case LineKind::Unreached: return " ";
  }
  return " ";
}

std::string locations(const std::vector<DebugLoc> &Locs) {
  std::string Out;
  for (size_t U = 0; U < Locs.size(); ++U)
    Out += (U ? ", " : "") + formatLocation(Locs[U]);
  return Out;
}

} // namespace

std::string htmlEscape(StringRef Text) {
  std::string Out;
  for (char C : Text)
    switch (C) {
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '&': Out += "&amp;"; break;
    case '"': Out += "&quot;"; break;
    default: Out += C;
    }
  return Out;
}

std::string describeFact(const ExternalFactReport &F) {
  std::string Line = F.where + ": " + F.declaration + ":";
  std::string Sep = " ";
  auto Part = [&](const std::string &P) {
    Line += Sep + P;
    Sep = "; ";
  };
  if (!F.decided.empty())
    Part("folded at " + locations(F.decided));
  if (!F.kept.empty())
    Part((StringRef(F.declaration).startswith("RESPEC_PURE")
              ? "residual calls kept memory at "
              : "read through the pointer fetched on entry at ") +
         locations(F.kept));
  if (F.guarded)
    Part("checked on entry (the generic code runs when the memory differs)");
  if (F.callsUnfolded && F.callsUnfolded == F.callsReached && !F.hadEffect())
    Part("unfolded (respec has the definition)");
  if (!F.unusable.empty())
    Part("not used: " + F.unusable);
  if (!F.hadEffect() && F.unusable.empty() && !F.callsUnfolded)
    Part("no effect");
  return Line;
}

unsigned conditionalBranches(const Instruction &I) {
  if (auto *Br = dyn_cast<BranchInst>(&I))
    return Br->isConditional();
  if (auto *Switch = dyn_cast<SwitchInst>(&I))
    return Switch->getNumCases();
  return 0;
}

ReportEntry makeReportEntry(const std::string &Function, const SpecializationResult &R) {
  ReportEntry E;
  E.function = Function;
  E.stats = R.stats;
  E.listings = listings(R);
  for (auto &[I, BT] : R.bindingTimes)
    E.conditionalBranchesEmitted += BT.residual * conditionalBranches(*I);
  for (const Note &N : R.notes)
    E.notes.push_back((N.loc ? formatLocation(N.loc) + ": " : "") + N.message);
  for (const Assumption &A : R.assumptions) {
    std::string Line = formatLocation(A.loc) + ": ";
    if (A.usedAt.empty())
      Line += "no effect";
    for (size_t U = 0; U < A.usedAt.size(); ++U)
      Line += (U ? ", " : "used at ") + formatLocation(A.usedAt[U]);
    E.assumptions.push_back(Line);
  }
  for (const ExternalFactReport &F : R.externalFacts)
    if (F.hadEffect() || F.callsReached || F.guarded)
      E.facts.push_back(describeFact(F));
  return E;
}

void printTextReport(raw_ostream &OS, const std::vector<ReportEntry> &Entries, bool Color) {
  auto Paint = [&](LineKind K, const std::string &Text) -> std::string {
    if (!Color)
      return Text;
    const char *Code = K == LineKind::Static     ? "\x1b[34m"
                       : K == LineKind::Residual ? "\x1b[1;31m"
                       : K == LineKind::Mixed    ? "\x1b[35m"
                                                 : "\x1b[2m";
    return Code + Text + "\x1b[0m";
  };
  for (const ReportEntry &E : Entries) {
    OS << "=== " << E.function << " ===\n";
    OS << "legend: " << Paint(LineKind::Static, "S static (evaluated away)") << "  "
       << Paint(LineKind::Residual, "D residual") << "  "
       << Paint(LineKind::Mixed, "M mixed") << "\n\n";
    const auto &Ls = E.listings;
    for (const FunctionListing &L : Ls) {
      std::vector<std::string> Source = readLines(L.file);
      OS << L.file << ": " << L.name << "\n";
      for (unsigned N = L.first; N < L.last && N <= Source.size(); ++N) {
        auto It = L.lines.find(N);
        LineKind K = It == L.lines.end() ? LineKind::Unreached : kindOf(It->second);
        std::string Num = std::to_string(N);
        OS << std::string(5 - std::min<size_t>(5, Num.size()), ' ') << Num << ' ' << marker(K)
           << " | " << Paint(K, Source[N - 1]) << "\n";
      }
      OS << "\n";
    }
    Summary Lines = countLines(Ls);
    OS << "summary: " << Lines.staticLines << " static, " << Lines.residualLines
       << " residual, " << Lines.mixedLines << " mixed lines\n";
    for (auto &[Label, Value] : statRows(E))
      OS << "  " << Label << ": " << Value << "\n";
    for (const std::string &N : E.notes)
      OS << "  note: " << N << "\n";
    for (const std::string &A : E.assumptions)
      OS << "  assumption: " << A << "\n";
    for (const std::string &F : E.facts)
      OS << "  fact: " << F << "\n";
    OS << "\n";
  }
}

std::string renderHtmlReport(const std::vector<ReportEntry> &Entries, const std::string &Title) {
  std::ostringstream H;
  H << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << htmlEscape(Title)
    << "</title>\n<style>\n"
       "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\n"
       "h1{font-size:1.4em}h2{font-size:1.2em;margin-top:2em}\n"
       "table.stats{border-collapse:collapse}table.stats td{padding:2px 12px;border-bottom:1px solid #ddd}\n"
       "pre{margin:0;font:13px/1.35 ui-monospace,monospace}\n"
       ".src{border:1px solid #ccc;margin:1em 0;overflow-x:auto}\n"
       ".src .h{background:#eee;padding:4px 8px;font-weight:600}\n"
       ".ln{color:#999;display:inline-block;width:4em;text-align:right;padding-right:1em}\n"
       ".S{background:#dbe8ff;color:#123c8c}.D{background:#ffd9d6;color:#8c1010;font-weight:600}\n"
       ".M{background:#f1dcf7;color:#5b1670}.U{color:#888}\n"
       ".legend span{padding:2px 8px;margin-right:8px}.note{color:#8a5a00}\n"
       "</style></head><body>\n<h1>"
    << htmlEscape(Title) << "</h1>\n<p class=\"legend\"><span class=\"S\">static: evaluated away</span>"
       "<span class=\"D\">residual: left in the specialized code</span>"
       "<span class=\"M\">mixed</span><span class=\"U\">not reached</span></p>\n";
  for (const ReportEntry &E : Entries) {
    const auto &Ls = E.listings;
    Summary Lines = countLines(Ls);
    H << "<h2>" << htmlEscape(E.function) << "</h2>\n<table class=\"stats\">\n";
    H << "<tr><td>lines static / residual / mixed</td><td>" << Lines.staticLines << " / "
      << Lines.residualLines << " / " << Lines.mixedLines << "</td></tr>\n";
    for (auto &[Label, Value] : statRows(E))
      H << "<tr><td>" << htmlEscape(Label) << "</td><td>" << Value << "</td></tr>\n";
    H << "</table>\n";
    for (const std::string &N : E.notes)
      H << "<p class=\"note\">note: " << htmlEscape(N) << "</p>\n";
    for (const std::string &A : E.assumptions)
      H << "<p class=\"note\">assumption: " << htmlEscape(A) << "</p>\n";
    for (const std::string &F : E.facts)
      H << "<p class=\"note\">fact: " << htmlEscape(F) << "</p>\n";
    for (const FunctionListing &L : Ls) {
      std::vector<std::string> Source = readLines(L.file);
      H << "<div class=\"src\"><div class=\"h\">" << htmlEscape(L.name) << " &mdash; "
        << htmlEscape(L.file) << "</div><pre>";
      for (unsigned N = L.first; N < L.last && N <= Source.size(); ++N) {
        auto It = L.lines.find(N);
        LineKind K = It == L.lines.end() ? LineKind::Unreached : kindOf(It->second);
        const char *Class = K == LineKind::Static     ? "S"
                            : K == LineKind::Residual ? "D"
                            : K == LineKind::Mixed    ? "M"
                                                      : "U";
        H << "<span class=\"" << Class << "\"";
        if (It != L.lines.end())
          H << " title=\"evaluated " << It->second.evaluated << "x, residual "
            << It->second.residual << "x\"";
        H << "><span class=\"ln\">" << N << "</span>" << htmlEscape(Source[N - 1])
          << "</span>\n";
      }
      H << "</pre></div>\n";
    }
  }
  H << "</body></html>\n";
  return H.str();
}

std::string renderJsonReport(const std::vector<ReportEntry> &Entries) {
  json::Array Functions;
  for (const ReportEntry &E : Entries) {
    json::Object Stats;
    for (auto &[Label, Value] : statRows(E))
      Stats[Label] = Value;
    json::Array Listings;
    for (const FunctionListing &L : E.listings) {
      // Absolute: a tool reading this runs elsewhere (respec profile's report).
      SmallString<256> File(L.file);
      sys::fs::make_absolute(File);
      json::Array Lines;
      for (auto &[N, Info] : L.lines)
        Lines.push_back(
            json::Array{N, Info.evaluated, Info.residual, Info.branchesEvaluated, Info.branchesResidual});
      Listings.push_back(json::Object{{"function", L.name},
                                      {"file", File.str().str()},
                                      {"lines", std::move(Lines)}});
    }
    Functions.push_back(json::Object{{"function", E.function},
                                     {"instructionsAfter", E.instructionsAfter},
                                     {"conditionalBranchesEmitted", E.conditionalBranchesEmitted},
                                     {"conditionalBranchesAfter", E.conditionalBranchesAfter},
                                     {"stats", std::move(Stats)},
                                     {"notes", json::Array(E.notes)},
                                     {"listings", std::move(Listings)}});
  }
  std::string Out;
  raw_string_ostream OS(Out);
  OS << formatv("{0}", json::Value(json::Object{{"functions", std::move(Functions)}})) << "\n";
  return Out;
}

} // namespace respec
