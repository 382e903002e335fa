//===- Cachegrind.cpp - Instruction-cache and branch figures of a variant -===//
#include "Cachegrind.h"
#include "Diagnostics.h"
#include "Process.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
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

CacheFigures cachegrind(const std::string &Command, const std::string &Binary,
                        const std::string &Directory) {
  ErrorOr<std::string> Valgrind = sys::findProgramByName("valgrind");
  if (!Valgrind)
    throw SpecError("respec layout", "--cachegrind needs valgrind: install valgrind");
  sys::fs::remove_directories(Directory);
  if (std::error_code EC = sys::fs::create_directories(Directory))
    throw SpecError(Directory, "cannot create: " + EC.message());
  std::string Stripped = Directory + "/program";
  runOrThrow({{std::string(RESPEC_LLVM_BINDIR) + "/llvm-objcopy", "--strip-debug", Binary,
               Stripped},
              "", {}, Directory + "/strip.log"},
             "llvm-objcopy --strip-debug");
  std::string Wrapper = Directory + "/run";
  {
    std::error_code EC;
    raw_fd_ostream Out(Wrapper, EC);
    if (EC)
      throw SpecError(Wrapper, "cannot write: " + EC.message());
    Out << "#!/bin/sh\nexec " << shellQuote(*Valgrind)
        << " --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file="
        << shellQuote(Directory + "/out.%p") << " " << shellQuote(Stripped) << " \"$@\"\n";
  }
  sys::fs::setPermissions(Wrapper, sys::fs::all_read | sys::fs::all_exe | sys::fs::owner_write);
  runOrThrow({shell(withBinary(Command, Wrapper)), "", {{"RESPEC_LAYOUT_BINARY", Wrapper}},
              Directory + "/command.log"},
             "the --cachegrind command on " + Binary);
  CacheFigures Figures;
  unsigned Outputs = 0;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Directory, EC), End; It != End && !EC; It.increment(EC))
    if (StringRef(It->path()).rsplit('/').second.startswith("out.")) {
      addSummary(It->path(), Figures);
      ++Outputs;
    }
  if (Outputs == 0)
    throw SpecError(Binary, "the --cachegrind command never ran {binary}");
  return Figures;
}

} // namespace respec::layout
