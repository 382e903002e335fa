//===- Usage.h - Command-line mistakes, said the same way by every command -===//
#ifndef RESPEC_TOOLS_USAGE_H
#define RESPEC_TOOLS_USAGE_H

#include "llvm/ADT/StringRef.h"
#include <string>

/// Says what is wrong with the command line of Command ("respec", "respec
/// guard", ...) and where its help is, then exits with status 2.
[[noreturn]] void usageError(llvm::StringRef Command, const std::string &Message);

/// The value of the option at Argv[I]: the next argument, I moved to it; a
/// usage error when there is none.
std::string optionValue(llvm::StringRef Command, int Argc, char **Argv, int &I);

#endif
