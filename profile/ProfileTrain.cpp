//===- ProfileTrain.cpp - `respec profile --train`: build, run, profiles ---===//
#include "ProfileTrain.h"
#include "Builds.h"
#include "Diagnostics.h"
#include "Driver.h"
#include "Files.h"
#include "Process.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;

namespace respec::profile {

std::vector<std::string> trainProfiles(const layout::LayoutOptions &Options,
                                       const std::vector<std::string> &Flags,
                                       const std::string &Inputs) {
  layout::Toolchain Tools;
  Tools.clang = clangPath();
  if (!sys::fs::can_execute(Tools.clang))
    throw SpecError("respec profile", Tools.clang + " not found: install clang-16");
  layout::BuildStage Stage;
  Stage.name = "profiled";
  Stage.flags = Flags;
  Stage.inputs = Inputs;
  Stage.tool = "profile";
  Stage.keepsRelocations = false;
  std::string Binary = layout::buildStage(Options, Tools, Stage);

  // Each run writes fresh profiles: a stale one would be ranked too.
  std::string Directory = layout::absolutePath(Options.workDir) + "/profiles";
  layout::freshDirectory(Directory);
  std::string Log = layout::absolutePath(Options.workDir) + "/train.log";
  errs() << "profile: training " << Binary << " (log: " << Log << ")\n";
  layout::runOrThrow({layout::shell(layout::withBinary(Options.trainCommand, Binary)), "",
                      {{"RESPEC_PROFILE_OUT", Directory + "/profile.%p.txt"}}, Log},
                     "the training command");
  std::vector<std::string> Profiles;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Directory, EC), End; It != End && !EC; It.increment(EC))
    if (StringRef Name = sys::path::filename(It->path());
        Name.startswith("profile.") && (Name.endswith(".txt") || Name.endswith(".txt.files")))
      Profiles.push_back(It->path()); // the files observer's too, if the command preloads it
  std::sort(Profiles.begin(), Profiles.end());
  if (Profiles.empty())
    throw SpecError(Options.trainCommand,
                    "the training wrote no profile (is {binary} in the command? a profile is "
                    "written when the program exits: shut a server down, do not kill it)");
  errs() << "profile: " << Profiles.size() << " profile(s) in " << Directory << "\n";
  return Profiles;
}

} // namespace respec::profile
