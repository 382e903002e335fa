//===- ProfileTrain.h - `respec profile --train`: build, run, profiles -*- C++ -*-===//
//
// What it does. Makes `respec profile` one command for a C project that has a
// build command: the build runs in a copy of the source tree with a compiler
// wrapper that adds the value profiling's compile and link flags to every
// compiler invocation (respec layout's builds, layout/Builds.h: the build's own
// flags stay, and an unchanged build is not run again), then the training
// command runs the program, and the profiles its processes wrote are what the
// report ranks (ProfileReport.h).
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PROFILE_PROFILETRAIN_H
#define RESPEC_PROFILE_PROFILETRAIN_H

#include <string>
#include <vector>

namespace respec::profile {

struct TrainOptions {
  /// The build, run in a copy of sourceDir.
  std::vector<std::string> buildCommand;
  std::string sourceDir = ".";
  /// The program the build makes, relative to sourceDir.
  std::string binary;
  /// A shell command; "{binary}" in it becomes the profiled program's path.
  std::string trainCommand;
  std::string workDir = "respec-profile";
  bool rebuild = false;
  /// What every compile and link gets (respec profile --cflags and --ldflags).
  std::vector<std::string> flags;
  /// What else the build's stamp follows: the plugin's and the runtime's
  /// identity, so that a new respec builds again.
  std::string inputs;
};

/// Builds the program with the profiling (or finds the build current), runs the
/// training command, and returns the profiles it wrote; throws SpecError when
/// the build or the training fails or no process wrote a profile.
std::vector<std::string> trainProfiles(const TrainOptions &Options);

} // namespace respec::profile

#endif
