//===- Process.h - Running the user's commands and LLVM's tools -*- C++ -*-===//
//
// Every stage of the layout pipeline is another program: the user's build and
// workloads, clang, llvm-bolt, perf. A Command says how to run one; a command
// that cannot start, or fails, is an error that names its log.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_LAYOUT_PROCESS_H
#define RESPEC_LAYOUT_PROCESS_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <utility>
#include <vector>

namespace respec::layout {

struct Command {
  std::vector<std::string> argv;
  /// Runs there (empty: the current directory).
  std::string directory;
  /// Variables added to (or replacing those of) respec's environment.
  std::vector<std::pair<std::string, std::string>> environment;
  /// Standard output and error go there (empty: respec's own).
  std::string log;
};

/// The command's exit status (127 for the shell's 126 and 127: a command it
/// could not run). Throws SpecError if it cannot be started or a signal kills it.
int run(const Command &C);

/// Runs C and throws SpecError saying what failed (`What`) and where its log
/// is, unless it exits with 0.
void runOrThrow(const Command &C, const std::string &What);

/// `sh -c SCRIPT`: how the training and measuring commands run.
std::vector<std::string> shell(llvm::StringRef Script);

/// Text quoted for sh.
std::string shellQuote(llvm::StringRef Text);

/// Text with every "{binary}" replaced by the quoted path.
std::string withBinary(llvm::StringRef Script, llvm::StringRef Binary);

/// The last lines of a log, for an error message.
std::string tail(const std::string &Log, unsigned Lines = 15);

} // namespace respec::layout

#endif
