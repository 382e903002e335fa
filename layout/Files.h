//===- Files.h - The work directory's files, for every stage -----*- C++ -*-===//
#ifndef RESPEC_LAYOUT_FILES_H
#define RESPEC_LAYOUT_FILES_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace respec::layout {

/// Path made absolute, without . and .. (as stamps and the work directory use it).
std::string absolutePath(const std::string &Path);

/// Creates Directory (and its parents) if missing; throws SpecError if it cannot.
void createDirectory(const std::string &Directory);

/// Directory, empty: what a stage made before is removed first.
void freshDirectory(const std::string &Directory);

/// Writes Text to Path as an executable script (rwxr-xr-x).
void writeExecutable(const std::string &Path, llvm::StringRef Text);

/// The files in Directory whose names start with Prefix, sorted.
std::vector<std::string> filesStartingWith(const std::string &Directory, llvm::StringRef Prefix);

} // namespace respec::layout

#endif
