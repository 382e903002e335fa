//===- Files.cpp - The work directory's files, for every stage ------------===//
#include "Files.h"
#include "Diagnostics.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;

namespace respec::layout {

std::string absolutePath(const std::string &Path) {
  SmallString<256> Absolute(Path);
  sys::fs::make_absolute(Absolute);
  sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return Absolute.str().str();
}

void createDirectory(const std::string &Directory) {
  if (std::error_code EC = sys::fs::create_directories(Directory))
    throw SpecError(Directory, "cannot create: " + EC.message());
}

void freshDirectory(const std::string &Directory) {
  sys::fs::remove_directories(Directory);
  createDirectory(Directory);
}

void writeExecutable(const std::string &Path, StringRef Text) {
  std::error_code EC;
  raw_fd_ostream Out(Path, EC);
  if (EC)
    throw SpecError(Path, "cannot write: " + EC.message());
  Out << Text;
  Out.close();
  if (Out.has_error())
    throw SpecError(Path, "cannot write: " + Out.error().message());
  sys::fs::setPermissions(Path, sys::fs::all_read | sys::fs::all_exe | sys::fs::owner_write);
}

std::vector<std::string> filesStartingWith(const std::string &Directory, StringRef Prefix) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Directory, EC), End; It != End && !EC; It.increment(EC))
    if (sys::path::filename(It->path()).startswith(Prefix))
      Files.push_back(It->path());
  std::sort(Files.begin(), Files.end());
  return Files;
}

} // namespace respec::layout
