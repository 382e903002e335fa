//===- Cachegrind.cpp - Instruction-cache and branch figures of a variant -===//
#include "Cachegrind.h"
#include "Diagnostics.h"
#include "Files.h"
#include "Process.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>

using namespace llvm;

namespace respec::layout {

namespace {

/// Adds the summary of one cachegrind output file to Figures.
void addSummary(const std::string &File, CacheFigures &Figures) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(File);
  if (!Text)
    throw SpecError(File, "cannot read: " + Text.getError().message());
  SmallVector<StringRef> Events, Totals;
  SmallVector<StringRef> Lines;
  (*Text)->getBuffer().split(Lines, '\n');
  for (StringRef Line : Lines) {
    if (Line.consume_front("events:"))
      Line.trim().split(Events, ' ', -1, /*KeepEmpty=*/false);
    else if (Line.consume_front("summary:"))
      Line.trim().split(Totals, ' ', -1, /*KeepEmpty=*/false);
  }
  std::map<StringRef, uint64_t> Count;
  for (size_t I = 0; I < Events.size() && I < Totals.size(); ++I)
    Totals[I].getAsInteger(10, Count[Events[I]]);
  if (!Count.count("I1mr") || !Count.count("Bcm"))
    throw SpecError(File, "no cache and branch simulation in cachegrind's output");
  Figures.instructions += Count["Ir"];
  Figures.instructionCacheMisses += Count["I1mr"];
  Figures.mispredictedBranches += Count["Bcm"] + Count["Bim"];
}

} // namespace

CacheFigures cachegrind(const Toolchain &Tools, const std::string &Command,
                        const std::string &Binary, const std::string &Directory) {
  freshDirectory(Directory);
  std::string Stripped = Directory + "/program";
  runOrThrow({{Tools.objcopy, "--strip-debug", Binary, Stripped}, "", {},
              Directory + "/strip.log"},
             "llvm-objcopy --strip-debug");
  std::string Wrapper = Directory + "/run";
  writeExecutable(Wrapper, "#!/bin/sh\nexec " + shellQuote(Tools.valgrind) +
                               " --tool=cachegrind --cache-sim=yes --branch-sim=yes "
                               "--cachegrind-out-file=" +
                               shellQuote(Directory + "/out.%p") + " " + shellQuote(Stripped) +
                               " \"$@\"\n");
  runOrThrow({shell(withBinary(Command, Wrapper)), "", {{"RESPEC_LAYOUT_BINARY", Wrapper}},
              Directory + "/command.log"},
             "the --cachegrind command on " + Binary);
  std::vector<std::string> Outputs = filesStartingWith(Directory, "out.");
  if (Outputs.empty())
    throw SpecError(Binary, "the --cachegrind command never ran {binary}");
  CacheFigures Figures;
  for (const std::string &Output : Outputs)
    addSummary(Output, Figures);
  return Figures;
}

} // namespace respec::layout
