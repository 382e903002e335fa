//===- Usage.cpp - Command-line mistakes, said the same way by every command -===//
#include "Usage.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

[[noreturn]] void usageError(llvm::StringRef Command, const std::string &Message) {
  llvm::errs() << Command << ": error: " << Message << "\nTry '" << Command << " --help'.\n";
  exit(2);
}

std::string optionValue(llvm::StringRef Command, int Argc, char **Argv, int &I) {
  if (I + 1 >= Argc)
    usageError(Command, std::string(Argv[I]) + " needs a value");
  return Argv[++I];
}
