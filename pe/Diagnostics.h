//===- Diagnostics.h - Errors the user can act on ---------------*- C++ -*-===//
//
// Every error respec reports names a place in the user's sources (file:line)
// when one exists. Specialization errors are thrown as SpecError and turned into
// a message and a non-zero exit by the driver, which also makes sure no partial
// output file is left behind.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_DIAGNOSTICS_H
#define RESPEC_PE_DIAGNOSTICS_H

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <stdexcept>
#include <string>

namespace respec {

/// A source file's path as the user can open it from the current directory:
/// relative to it when the file is under it, absolute otherwise. Debug info
/// names a file relative to the directory clang compiled in (Directory),
/// which need not be the user's.
inline std::string displayPath(llvm::StringRef Directory, llvm::StringRef Filename) {
  llvm::SmallString<256> Path(Filename);
  if (!llvm::sys::path::is_absolute(Path) && !Directory.empty()) {
    Path = Directory;
    llvm::sys::path::append(Path, Filename);
  }
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Cwd;
  if (!llvm::sys::fs::current_path(Cwd)) {
    llvm::sys::path::remove_dots(Cwd, /*remove_dot_dot=*/true);
    llvm::StringRef Under = Path;
    if (Under.consume_front(Cwd) && !Under.empty() && llvm::sys::path::is_separator(Under[0]))
      return Under.drop_front().str();
  }
  return Path.str().str();
}

/// "file:line" (or "file:line:col") of a debug location, or "" when unknown.
inline std::string formatLocation(const llvm::DebugLoc &Loc) {
  if (!Loc)
    return "";
  std::string Where =
      displayPath(Loc->getDirectory(), Loc->getFilename()) + ":" + std::to_string(Loc.getLine());
  if (Loc.getCol())
    Where += ":" + std::to_string(Loc.getCol());
  return Where;
}

class SpecError : public std::runtime_error {
public:
  SpecError(const std::string &Where, const std::string &Message)
      : std::runtime_error(Message), where(Where) {}
  SpecError(const llvm::DebugLoc &Loc, const std::string &Message)
      : SpecError(formatLocation(Loc), Message) {}
  std::string where; ///< file:line, may be empty
};

} // namespace respec

#endif
