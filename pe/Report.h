//===- Report.h - What the specialization did, line by line -----*- C++ -*-===//
//
// `respec explain` shows every source line of the generic code that a
// specialization reached, marked by binding time, as Tempo did with colors:
//   static    every instruction of the line was evaluated away
//   residual  every instruction of the line is left in the specialized code
//   mixed     some of each (e.g. a store of a computed-away value)
// followed by a summary of the statistics and the notes (budget hits, constructs
// kept residual). Rendered for a terminal (colored on a tty) or as one
// self-contained HTML page.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_REPORT_H
#define RESPEC_PE_REPORT_H

#include "Driver.h"
#include "llvm/Support/raw_ostream.h"

namespace respec {

struct ReportEntry {
  std::string function;
  SpecializationResult result;
  unsigned instructionsAfter = 0; ///< after LLVM's cleanup pipeline
};

void printTextReport(llvm::raw_ostream &OS, const std::vector<ReportEntry> &Entries,
                     bool Color);
std::string renderHtmlReport(const std::vector<ReportEntry> &Entries,
                             const std::string &Title);

} // namespace respec

#endif
