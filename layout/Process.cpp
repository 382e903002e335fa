//===- Process.cpp - Running the user's commands and LLVM's tools ---------===//
#include "Process.h"
#include "Diagnostics.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include <cstdlib>
#include <map>
#include <optional>

extern char **environ;

using namespace llvm;

namespace respec::layout {

int run(const Command &C) {
  std::vector<std::string> Argv = C.argv;
  if (!C.directory.empty()) // ExecuteAndWait has no working directory
    Argv.insert(Argv.begin(), {"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", C.directory});
  std::string Program = Argv[0];
  if (Program.find('/') == std::string::npos) {
    ErrorOr<std::string> Found = sys::findProgramByName(Program);
    if (!Found)
      throw SpecError(Program, "no such program in PATH");
    Program = *Found;
  }
  std::map<std::string, std::string> Environment;
  for (char **Entry = environ; *Entry; ++Entry) {
    StringRef Name, Value;
    std::tie(Name, Value) = StringRef(*Entry).split('=');
    Environment[Name.str()] = Value.str();
  }
  for (const auto &[Name, Value] : C.environment)
    Environment[Name] = Value;
  std::vector<std::string> EnvironmentLines;
  for (const auto &[Name, Value] : Environment)
    EnvironmentLines.push_back(Name + "=" + Value);
  std::vector<StringRef> Args(Argv.begin(), Argv.end());
  std::vector<StringRef> Env(EnvironmentLines.begin(), EnvironmentLines.end());
  std::optional<StringRef> Redirects[3] = {std::nullopt, std::nullopt, std::nullopt};
  if (!C.log.empty())
    Redirects[1] = Redirects[2] = StringRef(C.log);
  std::string Error;
  bool ExecutionFailed = false;
  int Status =
      sys::ExecuteAndWait(Program, Args, Env, Redirects, 0, 0, &Error, &ExecutionFailed);
  if (ExecutionFailed)
    throw SpecError(Program, "cannot run: " + Error);
  if (Status == -2) // killed by a signal; LLVM names it only in Error
    throw SpecError(C.argv.front(), Error + (C.log.empty() ? "" : "; its output is in " + C.log));
  if (Status == -1) // exit status 126 or 127: the shell could not run a command
    return 127;
  return Status;
}

std::string tail(const std::string &Log, unsigned Lines) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Log);
  if (!Text)
    return "";
  StringRef All = (*Text)->getBuffer().rtrim();
  size_t Start = All.size();
  for (unsigned I = 0; I < Lines && Start != StringRef::npos && Start > 0; ++I)
    Start = All.rfind('\n', Start - 1);
  return (Start == StringRef::npos ? All : All.drop_front(Start + 1)).str();
}

void runOrThrow(const Command &C, const std::string &What) {
  int Status = run(C);
  if (Status == 0)
    return;
  std::string Message = What + " failed (exit status " + std::to_string(Status) + ")";
  if (!C.log.empty())
    Message += "; its output is in " + C.log + ", ending:\n" + tail(C.log);
  throw SpecError("respec layout", Message);
}

std::vector<std::string> shell(StringRef Script) { return {"/bin/sh", "-c", Script.str()}; }

std::string shellQuote(StringRef Text) {
  std::string Quoted = "'";
  for (char Ch : Text)
    Quoted += Ch == '\'' ? std::string("'\\''") : std::string(1, Ch);
  return Quoted + "'";
}

std::string withBinary(StringRef Script, StringRef Binary) {
  std::string Out;
  const StringRef Placeholder = "{binary}";
  while (true) {
    size_t At = Script.find(Placeholder);
    Out += Script.take_front(At).str();
    if (At == StringRef::npos)
      return Out;
    Out += shellQuote(Binary);
    Script = Script.drop_front(At + Placeholder.size());
  }
}

} // namespace respec::layout
