//===- LinkCommand.h - `respec link` -*- C++ -*-===//
//
// The link subcommand (link/Link.h): its own options, so main.cpp hands it
// the arguments after `link` and returns its exit status.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_TOOLS_LINKCOMMAND_H
#define RESPEC_TOOLS_LINKCOMMAND_H

/// Runs `respec link` on the arguments that follow the word link.
int runLinkCommand(int Argc, char **Argv);

#endif
