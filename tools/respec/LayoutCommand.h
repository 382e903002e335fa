//===- LayoutCommand.h - `respec layout` -*- C++ -*-===//
//
// The layout subcommand (layout/Layout.h): its own options, so main.cpp hands
// it the arguments after `layout` and returns its exit status.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_TOOLS_LAYOUTCOMMAND_H
#define RESPEC_TOOLS_LAYOUTCOMMAND_H

/// Runs `respec layout` on the arguments that follow the word layout.
int runLayoutCommand(int Argc, char **Argv);

#endif
