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

#include "Layout.h"
#include <string>
#include <vector>

namespace respec::profile {

/// Builds Options.binary from Options.buildCommand in a copy of
/// Options.sourceDir (under Options.workDir; rebuilt only when its inputs or
/// Options.rebuild say so), with Flags added to every compile and link (respec
/// profile --cflags and --ldflags) and Inputs followed by its stamp (the
/// plugin's and runtime's identity, so that a new respec builds again); runs
/// Options.trainCommand ("{binary}" becomes the built program) and returns the
/// profiles it wrote. Throws SpecError when the build or the training fails or
/// no process wrote a profile. The other fields of LayoutOptions are BOLT's.
std::vector<std::string> trainProfiles(const layout::LayoutOptions &Options,
                                       const std::vector<std::string> &Flags,
                                       const std::string &Inputs);

} // namespace respec::profile

#endif
