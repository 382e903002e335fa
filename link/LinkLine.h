//===- LinkLine.h - A compiler driver's link command, taken apart -*- C++ -*-===//
//
// `respec link -- cc main.o -L. -lfoo -o prog` runs the link command it is
// given, with libraries replaced by the variants their rules choose. To do
// that it must know the command's inputs (objects, archives, shared objects,
// -l libraries resolved as the linker resolves them: -L directories first,
// then the compiler's own library directories, shared before static unless
// -static or -Wl,-Bstatic is in force) and the arguments that spell each; and
// what the driver adds by itself, from the linker command it shows with -###.
// The command itself is never reordered: a replacement takes the place of
// the arguments that named the library.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_LINK_LINKLINE_H
#define RESPEC_LINK_LINKLINE_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace respec::link {

struct LinkInput {
  size_t first = 0, count = 1; ///< the arguments that name it
  std::string spelling;        ///< as the command writes it: main.o, -lfoo
  std::string path;            ///< the file; empty for a library not found
  bool library = false;        ///< -lNAME or -l:FILE
};

struct LinkLine {
  std::vector<std::string> arguments; ///< the command, compiler first
  std::vector<LinkInput> inputs;
  std::vector<std::string> searchDirs; ///< -L, then the compiler's
  std::string output;                  ///< -o (a.out when absent)
  /// -shared, -rdynamic, -Wl,--export-dynamic: every export of the link stays
  /// visible to what is not linked yet (programs, dlsym, dlopen'ed modules).
  bool exportsEverything = false;
  /// Symbols the linker is told to reference (-u, --wrap, --defsym, -e), and
  /// the argument that names each.
  std::vector<std::pair<std::string, std::string>> linkerSymbols;
  /// Inputs handed to the linker itself (-Wl,-lfoo, -Xlinker libx.a): not
  /// read, so they count as referencing every symbol.
  std::vector<std::string> linkerInputs;
  /// What the compiler driver links by itself (`CC ... -###`): start files and
  /// libraries (-lc, -lgcc_s, -lstdc++), as files; a library not found stays
  /// -lNAME. When the driver would not say, driverProblem says why.
  std::vector<std::string> driverInputs;
  std::string driverProblem;
};

/// Takes the command apart; throws SpecError for what respec link cannot
/// handle (a source file to compile, no command).
LinkLine parseLinkLine(const std::vector<std::string> &Command);

/// The library -lNAME (Name: NAME, or :FILE for -l:FILE) names, as the linker
/// finds it in Dirs: libNAME.so then libNAME.a in each directory (only .a when
/// Static). Empty when no directory holds it.
std::string findLibrary(llvm::StringRef Name, const std::vector<std::string> &Dirs,
                        bool Static);

/// The directories the dynamic loader searches for a DT_NEEDED library,
/// after the link's own (loader_dirs.h).
std::vector<std::string> systemLibraryDirs();

} // namespace respec::link

#endif
