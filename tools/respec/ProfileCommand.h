//===- ProfileCommand.h - `respec profile` -*- C++ -*-===//
//
// The profile subcommand (profile/ProfileReport.h, profile/ValueProfilePass.cpp): its
// own options, so main.cpp hands it the arguments after `profile` and returns
// its exit status.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_TOOLS_PROFILECOMMAND_H
#define RESPEC_TOOLS_PROFILECOMMAND_H

/// Runs `respec profile` on the arguments that follow the word profile.
int runProfileCommand(int Argc, char **Argv);

#endif
