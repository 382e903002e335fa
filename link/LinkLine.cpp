//===- LinkLine.cpp - Taking a link command apart -------------------------===//
#include "LinkLine.h"
#include "Diagnostics.h"
#include "loader_dirs.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <set>
#include <utility>

using namespace llvm;

namespace respec::link {

/// Driver options whose value is the next argument (gcc's and clang's that
/// can appear on a link line).
static bool takesValue(StringRef A) {
  static const std::set<std::string> WithValue = {
      "-o",        "-L",      "-l",         "-Xlinker", "-T",      "-u",
      "-e",        "-z",      "-x",         "-include", "-isystem", "-I",
      "-MF",       "-MT",     "-MQ",        "-D",       "-U",      "-specs",
      "--sysroot", "-target", "--target",   "-B",       "-Xclang", "-arch",
      "-rpath",    "-soname", "-dynamic-linker"};
  return WithValue.count(A.str()) != 0;
}

/// Options of the linker itself (given through -Wl, or -Xlinker) whose value is
/// the next word: `-z relro`, `-rpath DIR`. Their values are not inputs.
static bool linkerOptionTakesValue(StringRef W) {
  static const std::set<std::string> WithValue = {
      "-z",           "-rpath",          "-rpath-link",      "-soname",    "-h",
      "-m",           "-e",              "--entry",          "-Map",       "-O",
      "-u",           "--undefined",     "--defsym",         "--wrap",     "-y",
      "--trace-symbol", "--exclude-libs", "--dynamic-linker", "-I",        "-plugin",
      "-plugin-opt",  "--sysroot",       "--version-script", "--dynamic-list",
      "-Ttext",       "-Tdata",          "-Tbss",
      "-L",           "--library-path",  "--require-defined", "--export-dynamic-symbol",
      "--export-dynamic-symbol-list"};
  return WithValue.count(W.str()) != 0;
}

/// The symbols a linker option makes the link reference, given its value
/// (`-u SYM`, `--wrap=SYM`, `--defsym=A=B+4`, `-e SYM`): the exports of a
/// specialized library must keep them. Empty for any other option.
static std::vector<std::string> symbolsNamedBy(StringRef Option, StringRef Value) {
  if (Option == "-u" || Option == "--undefined" || Option == "--require-defined" ||
      Option == "-e" || Option == "--entry")
    return {Value.str()};
  if (Option == "--wrap")
    return {Value.str(), "__real_" + Value.str(), "__wrap_" + Value.str()};
  if (Option == "--defsym") { // every name in the expression after '='
    std::vector<std::string> Names;
    StringRef Expression = Value.split('=').second;
    while (!Expression.empty()) {
      size_t Start = Expression.find_if([](char C) { return isAlpha(C) || C == '_' || C == '.'; });
      if (Start == StringRef::npos)
        break;
      Expression = Expression.drop_front(Start);
      StringRef Name =
          Expression.take_while([](char C) { return isAlnum(C) || C == '_' || C == '.'; });
      Names.push_back(Name.str());
      Expression = Expression.drop_front(Name.size());
    }
    return Names;
  }
  return {};
}

static bool isSource(StringRef File) {
  static const std::set<std::string> Extensions = {".c", ".cc", ".cpp", ".cxx", ".C",
                                                   ".i", ".s", ".S", ".m", ".mm"};
  return Extensions.count(sys::path::extension(File).str()) != 0;
}

/// The linker command the driver would run for Command (`CC ... -###`), as
/// words; empty if the driver does not say (it fails, or does not know -###).
static std::vector<std::string> driverLinkerCommand(const std::vector<std::string> &Command) {
  ErrorOr<std::string> Program = sys::findProgramByName(Command[0]);
  if (!Program)
    return {};
  SmallString<128> Out;
  if (sys::fs::createTemporaryFile("respec-link-driver", "txt", Out))
    return {};
  std::vector<StringRef> Args(Command.begin(), Command.end());
  Args[0] = *Program;
  Args.push_back("-###");
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(""), StringRef(Out)};
  int Status = sys::ExecuteAndWait(*Program, Args, std::nullopt, Redirects);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Out);
  sys::fs::remove(Out);
  if (Status != 0 || !Text)
    return {};
  // The commands it would run are the lines that start with a space (gcc and
  // clang alike); the linker's is the last.
  SmallVector<StringRef, 16> Lines;
  (*Text)->getBuffer().split(Lines, '\n');
  StringRef Last;
  for (StringRef Line : Lines)
    if (Line.startswith(" "))
      Last = Line;
  std::vector<std::string> Words;
  for (size_t I = 0; I < Last.size();) { // words, "quoted" with \ escapes or bare
    while (I < Last.size() && Last[I] == ' ')
      ++I;
    if (I == Last.size())
      break;
    std::string Word;
    bool Quoted = false;
    for (; I < Last.size() && (Quoted || Last[I] != ' '); ++I) {
      if (Last[I] == '"')
        Quoted = !Quoted;
      else if (Last[I] == '\\' && I + 1 < Last.size())
        Word += Last[++I];
      else
        Word += Last[I];
    }
    Words.push_back(std::move(Word));
  }
  return Words;
}

/// -lNAME (or -l:FILE) as the linker finds it.
static std::string findLibrary(StringRef Name, const std::vector<std::string> &Dirs,
                               bool Static) {
  std::vector<std::string> Names;
  if (Name.consume_front(":"))
    Names = {Name.str()};
  else if (Static)
    Names = {"lib" + Name.str() + ".a"};
  else
    Names = {"lib" + Name.str() + ".so", "lib" + Name.str() + ".a"};
  for (const std::string &Dir : Dirs)
    for (const std::string &N : Names) {
      SmallString<256> Candidate(Dir);
      sys::path::append(Candidate, N);
      if (sys::fs::exists(Candidate) && !sys::fs::is_directory(Candidate))
        return Candidate.str().str();
    }
  return "";
}

LinkLine parseLinkLine(const std::vector<std::string> &Command) {
  if (Command.empty())
    throw SpecError("", "no link command after '--' (respec link [options] -- cc ... -o prog)");
  LinkLine L;
  L.arguments = Command;
  bool Static = false;
  std::vector<bool> StaticLink; // per input: -static or -Bstatic in force there
  std::vector<std::string> CommandDirs;
  std::string PendingLinkerOption; // the linker's last word, an option wanting a value
  for (size_t I = 1; I < Command.size(); ++I) {
    StringRef A = Command[I];
    bool Separate = takesValue(A) && I + 1 < Command.size();
    StringRef Value = Separate ? StringRef(Command[I + 1]) : StringRef();
    if (A == "-static" || A == "-Wl,-Bstatic" || A == "-Wl,-static")
      Static = true;
    else if (A == "-Wl,-Bdynamic" || A == "-Wl,-call_shared")
      Static = false;
    if (A == "-shared")
      L.exportsEverything = true;
    // What goes to the linker unseen by the driver: any input among it. The words
    // are one stream across -Wl, and -Xlinker (`-Xlinker -z -Xlinker now`).
    SmallVector<StringRef, 4> ForLinker;
    if (A.startswith("-Wl,"))
      A.drop_front(4).split(ForLinker, ',', -1, false);
    else if (A == "-Xlinker" && Separate)
      ForLinker.push_back(Value);
    std::string Spelling = A.str() + (A == "-Xlinker" ? " " + Value.str() : "");
    for (StringRef W : ForLinker) {
      std::string Pending = std::exchange(PendingLinkerOption, "");
      StringRef Option = W, OptionValue;
      if (!Pending.empty()) {
        Option = Pending, OptionValue = W;
      } else if (linkerOptionTakesValue(W)) {
        PendingLinkerOption = W.str();
        continue;
      } else if (W.startswith("--") && W.contains('=')) {
        std::tie(Option, OptionValue) = W.split('=');
      } else if (W.startswith("-l") || W.startswith("--library") || W == "-T" ||
                 W.startswith("--script") || !W.startswith("-")) {
        L.linkerInputs.push_back(Spelling);
        continue;
      }
      // Files and patterns that name symbols to export: not read, so they keep
      // everything exported.
      if (Option == "--dynamic-list" || Option == "--version-script" ||
          Option == "--export-dynamic-symbol" || Option == "--export-dynamic-symbol-list")
        L.linkerInputs.push_back(Spelling);
      if (Option == "-E" || Option == "--export-dynamic")
        L.exportsEverything = true;
      for (std::string &Symbol : symbolsNamedBy(Option, OptionValue))
        L.linkerSymbols.push_back({std::move(Symbol), Spelling});
    }
    if (A == "-rdynamic")
      L.exportsEverything = true;
    if ((A == "-u" || A == "-e") && Separate)
      L.linkerSymbols.push_back({Value.str(), A.str() + " " + Value.str()});
    if (A == "-o" && Separate) {
      L.output = Value.str();
    } else if (A.startswith("-o") && A.size() > 2) {
      L.output = A.drop_front(2).str();
    } else if (A == "-L" && Separate) {
      CommandDirs.push_back(Value.str());
    } else if (A.startswith("-L") && A.size() > 2) {
      CommandDirs.push_back(A.drop_front(2).str());
    } else if (A == "-l" && Separate) {
      L.inputs.push_back({I, 2, "-l" + Value.str(), "", true});
    } else if (A.startswith("-l") && A.size() > 2) {
      L.inputs.push_back({I, 1, A.str(), "", true});
    } else if (!A.startswith("-")) {
      if (isSource(A))
        throw SpecError(A.str(), "respec link links objects: compile this source first "
                                 "(cc -c), then give its object");
      L.inputs.push_back({I, 1, A.str(), A.str(), false});
    }
    StaticLink.resize(L.inputs.size(), Static);
    if (Separate)
      ++I;
  }
  // The driver's own part of the link: its library directories (after the
  // command's -L ones) and the inputs it adds (start files, -lc, -lgcc, -lstdc++).
  std::set<std::string> UserWords(Command.begin(), Command.end());
  for (const std::string &A : Command)
    if (StringRef(A).startswith("-Wl,")) {
      SmallVector<StringRef, 4> Words;
      StringRef(A).drop_front(4).split(Words, ',', -1, false);
      for (StringRef W : Words)
        UserWords.insert(W.str());
    }
  std::vector<std::string> Linker = driverLinkerCommand(Command);
  if (Linker.empty())
    L.driverProblem = "'" + Command[0] + " -###' did not show the linker's command";
  L.searchDirs = CommandDirs;
  std::vector<std::pair<std::string, bool>> DriverLibraries; // -lNAME, static
  bool DriverStatic = false;
  for (size_t I = 1; I < Linker.size(); ++I) {
    StringRef W = Linker[I];
    if (W == "-static" || W == "-Bstatic")
      DriverStatic = true;
    else if (W == "-Bdynamic" || W == "-call_shared")
      DriverStatic = false;
    if (W.startswith("-L") && W.size() > 2) {
      if (std::find(L.searchDirs.begin(), L.searchDirs.end(), W.drop_front(2).str()) ==
          L.searchDirs.end())
        L.searchDirs.push_back(W.drop_front(2).str());
    } else if (linkerOptionTakesValue(W) || W == "-o" || W == "-dynamic-linker") {
      ++I;
    } else if (!UserWords.count(W.str())) {
      if (W.startswith("-l") && W.size() > 2)
        DriverLibraries.push_back({W.str(), DriverStatic});
      else if (!W.startswith("-"))
        L.driverInputs.push_back(W.str());
    }
  }
  for (auto &[Spelling, IsStatic] : DriverLibraries) {
    std::string Path = findLibrary(StringRef(Spelling).drop_front(2), L.searchDirs, IsStatic);
    L.driverInputs.push_back(Path.empty() ? Spelling : Path);
  }
  for (size_t I = 0; I < L.inputs.size(); ++I)
    if (L.inputs[I].library)
      L.inputs[I].path =
          findLibrary(StringRef(L.inputs[I].spelling).drop_front(2), L.searchDirs, StaticLink[I]);
  if (L.output.empty())
    L.output = "a.out";
  return L;
}

std::vector<std::string> systemLibraryDirs() {
  std::vector<std::string> Dirs;
  link_loader_dirs(
      [](const char *Dir, void *Context) {
        static_cast<std::vector<std::string> *>(Context)->push_back(Dir);
      },
      &Dirs);
  return Dirs;
}

} // namespace respec::link
