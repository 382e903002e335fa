//===- ClangOptions.h - What respec needs to know of clang's options -*- C++ -*-===//
//
// respec passes every option it does not own to clang, so it must know which
// of clang's options take their value as the next argument (`-include foo.h`,
// `-x c`, `-Xclang -foo`): that argument is the option's, not an input file.
// And because a file with its own build command (--compile-commands) is
// compiled in its build's directory, the include paths and forced includes the
// user typed are made absolute first, so they keep meaning what they meant.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_TOOLS_CLANGOPTIONS_H
#define RESPEC_TOOLS_CLANGOPTIONS_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace respec {

/// Whether clang takes the argument after Option (spelled exactly so) as its value.
bool takesSeparateValue(llvm::StringRef Option);

/// Flags with the paths of the path-taking options (-I, -isystem, -include,
/// --sysroot, ... joined or separate) resolved against Directory.
std::vector<std::string> withAbsolutePaths(const std::vector<std::string> &Flags,
                                           llvm::StringRef Directory);

} // namespace respec

#endif
