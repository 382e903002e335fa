//===- SourceDatabase.h - How guard runs clang over the sources -*- C++ -*-===//
//
// libTooling reads a compilation database; guard's sources already carry their
// flags (from the project's compile_commands.json through the respec command,
// or from its command line), so this one serves them as they are, compiled by
// the clang respec is built with (whose builtin headers libTooling then finds),
// with warnings off: the project's warnings are not guard's business.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_GUARD_SOURCEDATABASE_H
#define RESPEC_GUARD_SOURCEDATABASE_H

#include "Guard.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <map>

namespace respec::guard {

class SourceDatabase : public clang::tooling::CompilationDatabase {
public:
  /// ExtraFlags follow each source's own.
  SourceDatabase(const std::vector<SourceFile> &Sources,
                 const std::vector<std::string> &ExtraFlags);

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override;
  std::vector<std::string> getAllFiles() const override;

private:
  std::map<std::string, clang::tooling::CompileCommand> Commands;
};

} // namespace respec::guard

#endif
