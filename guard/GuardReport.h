//===- GuardReport.h - guard's findings as text or SARIF 2.1 -*- C++ -*-===//
//
// Text is one line per finding, as compilers print diagnostics
// (`file:line:col: kind: subject: what`), then counts per category, per kind
// and per term. SARIF 2.1.0 is what editors and CI services load (the format
// clang-tidy and CodeQL results are converted to): one run, one rule per kind,
// one result per finding.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_GUARD_GUARDREPORT_H
#define RESPEC_GUARD_GUARDREPORT_H

#include "Guard.h"

namespace respec::guard {

std::string renderText(const GuardResult &Result);
/// One finding as the text prints it: `file:line:col: kind: subject: what`.
std::string findingText(const Finding &F);
std::string renderSarif(const GuardResult &Result, const std::string &ToolVersion);

} // namespace respec::guard

#endif
