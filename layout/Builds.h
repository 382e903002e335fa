//===- Builds.h - The user's build, once per compile configuration -*- C++ -*-===//
//
// A stage's build runs the user's build command in its own copy of the source
// tree (so that stages never share objects built with other flags, and the
// user's tree is never written), with a compiler wrapper that adds the
// stage's flags (Layout.h says how builds find it). A stamp records what the
// build was made from — the command and the files it names, the flags, the
// compiler and make variables of the environment, and the sizes and times of
// the source tree's files — so that an unchanged stage is not built again.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_LAYOUT_BUILDS_H
#define RESPEC_LAYOUT_BUILDS_H

#include "Layout.h"
#include "Toolchain.h"
#include <string>
#include <vector>

namespace respec::layout {

struct BuildStage {
  std::string name;
  /// Added to every compiler invocation (compiling and linking).
  std::vector<std::string> flags;
  /// What else the build reads that its stamp must follow (a profile's identity).
  std::string inputs;
  /// The command that builds, for progress lines ("layout: build o2: ...").
  std::string tool = "layout";
  /// Whether the program must keep its relocations (BOLT's stages).
  bool keepsRelocations = true;
};

/// The flags every stage needs: lld keeps the relocations BOLT uses.
std::vector<std::string> relocationFlags();

/// Builds the stage (or finds it current) and returns the program's path.
std::string buildStage(const LayoutOptions &Options, const Toolchain &Tools,
                       const BuildStage &Stage);

/// Throws SpecError unless Binary keeps its relocations (linked with
/// --emit-relocs), saying how to link it so.
void checkRelocations(const std::string &Binary);

/// What a command reads besides its text, for stamps: the identity of each of
/// its words that names a file (a build script, a library), and the compiler
/// and make variables of respec's environment.
std::string inputsOfCommand(const std::vector<std::string> &Words);

/// A digest of a file's identity (path, size, modification time), for stamps.
std::string fileIdentity(const std::string &Path);

/// True when Directory/stamp holds Key (and so what it stamps is current).
bool stampMatches(const std::string &Directory, const std::string &Key);
void writeStamp(const std::string &Directory, const std::string &Key);

} // namespace respec::layout

#endif
