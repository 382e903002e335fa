//===- Report.h - What the specialization did, line by line -----*- C++ -*-===//
//
// `respec explain` shows every source line of the generic code that a
// specialization reached, marked by binding time, as Tempo did with colors:
//   static    every instruction of the line was evaluated away
//   residual  every instruction of the line is left in the specialized code
//   mixed     some of each (e.g. a store of a computed-away value)
// followed by a summary of the statistics and the notes (budget hits, constructs
// kept residual). Rendered for a terminal (colored on a tty) or as one
// self-contained HTML page, or as JSON for tools (respec profile's prediction:
// a line's row is [line, evaluated, residual, branches evaluated, branches
// residual]).
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_REPORT_H
#define RESPEC_PE_REPORT_H

#include "Driver.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

namespace respec {

/// Binding time of one source line: how often its instructions were evaluated
/// away and how often they were left residual; and of those, its conditional
/// branches' (conditionalBranches: respec profile charges a residual branch its
/// mispredictions).
struct LineBindingTime {
  unsigned evaluated = 0, residual = 0;
  unsigned branchesEvaluated = 0, branchesResidual = 0;
};

/// One reached generic function: its file and the lines it spans.
struct FunctionListing {
  std::string name, file;
  unsigned first = 0, last = 0;
  std::map<unsigned, LineBindingTime> lines;
};

struct ReportEntry {
  std::string function;
  SpecializeStats stats;
  std::vector<std::string> notes;         ///< "file:line: message"
  /// "file:line: lines that used it", one per respec_assume() reached.
  std::vector<std::string> assumptions;
  /// "file:line: RESPEC_PURE(strlen): folded at ...", one per declared fact
  /// this specialization used or reached.
  std::vector<std::string> facts;
  std::vector<FunctionListing> listings;
  unsigned instructionsAfter = 0;         ///< after LLVM's cleanup pipeline
  /// Conditional branches (conditionalBranches) left residual, and in the code
  /// after cleanup (which proves some and makes others selects).
  unsigned conditionalBranchesEmitted = 0, conditionalBranchesAfter = 0;
};

/// Text for an HTML page (respec explain's, respec profile's).
std::string htmlEscape(llvm::StringRef Text);

/// One declared fact and what it did: "file:line: RESPEC_PURE(strlen): folded
/// at a.c:3; ...".
std::string describeFact(const ExternalFactReport &F);

/// Captures what the report needs from a result. Call it before cleanup
/// passes delete the generic functions the result refers to.
ReportEntry makeReportEntry(const std::string &Function, const SpecializationResult &R);

void printTextReport(llvm::raw_ostream &OS, const std::vector<ReportEntry> &Entries,
                     bool Color);
std::string renderHtmlReport(const std::vector<ReportEntry> &Entries,
                             const std::string &Title);
/// The same, for programs: each specialized function's statistics (by the text
/// report's labels), notes, its conditional branches emitted and after cleanup,
/// and, per reached generic function, its lines as [line, times evaluated away,
/// times left residual, of which conditional branches: times evaluated away,
/// times left residual], files absolute.
std::string renderJsonReport(const std::vector<ReportEntry> &Entries);

/// How many conditional branches a terminator is: 1 for a conditional br, a
/// switch's cases (a chain of compares, as small switches are lowered), 0
/// otherwise.
unsigned conditionalBranches(const llvm::Instruction &I);

} // namespace respec

#endif
