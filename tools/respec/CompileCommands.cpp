//===- CompileCommands.cpp - A build's own flags for each file ------------===//
//
// Reads the JSON compilation database (an array of {directory, file,
// arguments | command}), finds the entries of respec's input files, and keeps
// of each entry what changes the IR clang makes: the compile-mode, output and
// dependency-file flags would only write files or fight respec's own.
//
//===----------------------------------------------------------------------===//
#include "CompileCommands.h"
#include "ClangOptions.h"
#include "Diagnostics.h"
#include "Driver.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include <regex>

using namespace llvm;

namespace respec {
namespace {

/// Whether Flag only says where a compile writes: compile mode (respec's is -c
/// -emit-llvm), output file, dependency files. With TakesValue set when the
/// next argument is the flag's value.
bool isOutputFlag(StringRef Flag, bool &TakesValue) {
  TakesValue = Flag == "-o" || Flag == "-MF" || Flag == "-MT" || Flag == "-MQ" || Flag == "-MJ";
  if (TakesValue)
    return true;
  static const char *const Standalone[] = {"-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD",
                                           "-MG", "-MP", "-MV"};
  if (llvm::is_contained(Standalone, Flag))
    return true;
  // Joined values (-ofile, -MFfile), and -Wp,-MD,file as Linux's kbuild writes it.
  return Flag.startswith("-o") || Flag.startswith("-MF") || Flag.startswith("-MT") ||
         Flag.startswith("-MQ") || Flag.startswith("-MJ") || Flag.startswith("-Wp,-MD,") ||
         Flag.startswith("-Wp,-MMD,");
}

/// The clang flags of one entry's arguments (the compiler first).
std::vector<std::string> clangFlagsOf(const std::vector<std::string> &Arguments) {
  std::vector<std::string> Flags;
  for (size_t I = 1; I < Arguments.size(); ++I) {
    StringRef A = Arguments[I];
    if (A == "--")
      break; // only input files follow
    bool TakesValue = false;
    if (isOutputFlag(A, TakesValue)) {
      I += TakesValue;
      continue;
    }
    if (!A.startswith("-"))
      continue; // an input file: respec names the one it compiles
    Flags.push_back(A.str());
    if (takesSeparateValue(A) && I + 1 < Arguments.size())
      Flags.push_back(Arguments[++I]);
  }
  return Flags;
}

/// An entry's arguments: its "arguments", or its "command" split as a shell
/// would; response files (@file, relative to the entry's directory) expanded.
std::vector<std::string> argumentsOf(const json::Object &Entry, StringRef Directory,
                                     const std::string &Where, const std::string &EntryName) {
  BumpPtrAllocator Allocator;
  StringSaver Saver(Allocator);
  SmallVector<const char *, 64> Argv;
  if (const json::Array *Arguments = Entry.getArray("arguments")) {
    for (const json::Value &A : *Arguments) {
      std::optional<StringRef> S = A.getAsString();
      if (!S)
        throw SpecError(Where, EntryName + ": \"arguments\" holds something other than strings");
      Argv.push_back(Saver.save(*S).data());
    }
  } else if (std::optional<StringRef> Command = Entry.getString("command")) {
    cl::TokenizeGNUCommandLine(*Command, Saver, Argv);
  } else {
    throw SpecError(Where, EntryName + " has neither \"arguments\" nor \"command\"");
  }
  cl::ExpansionContext Expansion(Allocator, cl::TokenizeGNUCommandLine);
  Expansion.setCurrentDir(Directory);
  if (Error E = Expansion.expandResponseFiles(Argv))
    throw SpecError(Where, EntryName + ": cannot read a response file: " + toString(std::move(E)));
  return std::vector<std::string>(Argv.begin(), Argv.end());
}

/// The parser's "[line:column, byte=offset]: message" as file:line: message.
SpecError jsonError(const std::string &Path, const std::string &ParserMessage) {
  std::smatch Match;
  if (std::regex_match(ParserMessage, Match, std::regex(R"(\[(\d+):\d+, byte=\d+\]: (.*))")))
    return SpecError(Path + ":" + Match[1].str(), "not valid JSON: " + Match[2].str());
  return SpecError(Path, "not valid JSON: " + ParserMessage);
}

/// Calls Visit(canonical file, its command) for each entry of
/// DIR/compile_commands.json that Wanted(canonical file) accepts, in order.
void forEachEntry(const std::string &Dir, function_ref<bool(const std::string &)> Wanted,
                  function_ref<void(const std::string &, CompileCommand)> Visit) {
  SmallString<256> DatabasePath(Dir);
  sys::path::append(DatabasePath, "compile_commands.json");
  std::string Where = DatabasePath.str().str();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(DatabasePath);
  if (!Text)
    throw SpecError(Where, "cannot read the compilation database: " + Text.getError().message());
  Expected<json::Value> Database = json::parse((*Text)->getBuffer());
  if (!Database)
    throw jsonError(Where, toString(Database.takeError()));
  const json::Array *Entries = Database->getAsArray();
  if (!Entries)
    throw SpecError(Where, "not a compilation database (an array of entries)");

  SmallString<256> DatabaseDir(Dir);
  sys::fs::make_absolute(DatabaseDir);
  for (size_t Index = 0; Index < Entries->size(); ++Index) {
    const json::Object *Entry = (*Entries)[Index].getAsObject();
    std::string EntryName = "entry " + std::to_string(Index + 1);
    std::optional<StringRef> EntryDirectory = Entry ? Entry->getString("directory") : std::nullopt;
    std::optional<StringRef> File = Entry ? Entry->getString("file") : std::nullopt;
    if (!EntryDirectory || !File)
      throw SpecError(Where, EntryName + " lacks \"directory\" or \"file\"");
    SmallString<256> Directory(*EntryDirectory); // absolute, as the format asks, or from here
    sys::fs::make_absolute(DatabaseDir, Directory);
    std::string Canonical = canonicalPath(Directory, *File);
    if (!Wanted(Canonical))
      continue;
    Visit(Canonical, {Directory.str().str(),
                      clangFlagsOf(argumentsOf(*Entry, Directory, Where, EntryName))});
  }
}

} // namespace

std::map<std::string, CompileCommand> loadCompileCommands(const std::string &Dir,
                                                          const std::vector<std::string> &Files) {
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  std::map<std::string, std::string> FileByPath; // canonical path -> the file as given
  for (const std::string &File : Files)
    FileByPath.emplace(canonicalPath(Cwd, File), File);
  std::map<std::string, CompileCommand> Commands;
  forEachEntry(
      Dir,
      [&](const std::string &Canonical) {
        // Not an input, or compiled twice: the first entry counts.
        auto Input = FileByPath.find(Canonical);
        return Input != FileByPath.end() && !Commands.count(Input->second);
      },
      [&](const std::string &Canonical, CompileCommand Command) {
        Commands[FileByPath[Canonical]] = std::move(Command);
      });
  return Commands;
}

std::map<std::string, CompileCommand> allCompileCommands(const std::string &Dir) {
  std::map<std::string, CompileCommand> Commands;
  forEachEntry(
      Dir, [&](const std::string &Canonical) { return !Commands.count(Canonical); },
      [&](const std::string &Canonical, CompileCommand Command) {
        Commands[Canonical] = std::move(Command);
      });
  return Commands;
}

} // namespace respec
