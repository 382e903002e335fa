//===- CompileCommands.h - A build's own flags for each file ----*- C++ -*-===//
//
// `--compile-commands DIR` (or `-p DIR`): each input file is compiled with the
// flags its build uses, from DIR/compile_commands.json (as CMake, Bear, meson
// write it), so that a project with many -I, -D and -include flags needs no
// copy of them on respec's command line.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_TOOLS_COMPILECOMMANDS_H
#define RESPEC_TOOLS_COMPILECOMMANDS_H

#include "Driver.h"
#include <map>
#include <string>
#include <vector>

namespace respec {

/// The build commands of those of Files (paths from the current directory)
/// that DIR/compile_commands.json lists, matched by absolute path, keyed by
/// the file as given. Each keeps only clang flags: no compiler, -c, -o, input
/// files or dependency-file flags. Throws SpecError naming the database when it
/// cannot be read or is not a compilation database.
std::map<std::string, CompileCommand> loadCompileCommands(const std::string &Dir,
                                                          const std::vector<std::string> &Files);

/// Every entry of DIR/compile_commands.json, keyed by the absolute path of its
/// file (the first entry of a file compiled twice); same flags and errors.
std::map<std::string, CompileCommand> allCompileCommands(const std::string &Dir);

} // namespace respec

#endif
