//===- SourceDatabase.cpp - How guard runs clang over the sources ---------===//
#include "SourceDatabase.h"
#include "Driver.h"

using namespace clang;

namespace respec::guard {

SourceDatabase::SourceDatabase(const std::vector<SourceFile> &Sources,
                               const std::vector<std::string> &ExtraFlags) {
  for (const SourceFile &S : Sources) {
    std::vector<std::string> Line = {clangPath()};
    Line.insert(Line.end(), S.flags.begin(), S.flags.end());
    Line.insert(Line.end(), ExtraFlags.begin(), ExtraFlags.end());
    Line.insert(Line.end(), {"-w", S.path});
    Commands[S.path] = tooling::CompileCommand(S.directory, S.path, Line, "");
  }
}

std::vector<tooling::CompileCommand> SourceDatabase::getCompileCommands(StringRef File) const {
  auto It = Commands.find(File.str());
  if (It == Commands.end())
    return {};
  return {It->second};
}

std::vector<std::string> SourceDatabase::getAllFiles() const {
  std::vector<std::string> Files;
  for (const auto &[Path, Command] : Commands)
    Files.push_back(Path);
  return Files;
}

} // namespace respec::guard
