//===- GuardCommand.h - `respec guard` -*- C++ -*-===//
//
// The guard subcommand (guard/Guard.h): its own options, so main.cpp hands it
// the arguments after `guard` and returns its exit status.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_TOOLS_GUARDCOMMAND_H
#define RESPEC_TOOLS_GUARDCOMMAND_H

/// Runs `respec guard` on the arguments that follow the word guard.
int runGuardCommand(int Argc, char **Argv);

#endif
