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

namespace {
/// Reads the words a link gives the linker itself (-Wl, and -Xlinker; the
/// driver's linker command) as GNU ld does: long options with one dash or two,
/// their value joined by '=' or in the next word; short options with their
/// value joined or in the next word. What a word means for respec link: an
/// input (a library, a script: not read here), symbols the link references
/// (-u, --wrap, --defsym, -e), or that every export must stay (-E, -shared, a
/// dynamic list or version script).
class LinkerWordReader {
public:
  explicit LinkerWordReader(LinkLine &Line) : line(Line) {}

  /// Reads one word, carried by the argument Spelling. True when it is an
  /// input of the link (a file, -lNAME, a script), for the caller to handle.
  bool read(StringRef Word, const std::string &Spelling) {
    if (!pending.empty())
      return apply(std::exchange(pending, ""), Word, Spelling);
    std::string Canonical = canonical(Word);
    StringRef W = Canonical;
    if (!W.startswith("-") || W == "-")
      return true;
    if (W.startswith("--")) {
      auto [Option, Value] = W.split('=');
      if (!W.contains('=') && longTakesValue(Option)) {
        pending = Option.str();
        return false;
      }
      return apply(Option.str(), Value, Spelling);
    }
    if (isSectionAddress(W)) { // -Ttext=ADDR, -Ttext ADDR
      if (!W.contains('='))
        pending = W.str();
      return false;
    }
    if (W.size() == 2 && shortTakesValue(W[1])) {
      pending = W.str();
      return false;
    }
    if (W.size() > 2 && shortTakesValue(W[1]))
      return apply(W.take_front(2).str(), W.drop_front(2), Spelling);
    return apply(W.str(), "", Spelling);
  }

private:
  LinkLine &line;
  std::string pending; ///< an option whose value is the next word

  /// "-export-dynamic" is "--export-dynamic": GNU ld takes its long options
  /// with one dash too.
  static std::string canonical(StringRef W) {
    static const std::set<std::string> Long = {
        "export-dynamic", "undefined",      "require-defined",  "entry",
        "wrap",           "defsym",         "version-script",   "dynamic-list",
        "dynamic-list-data", "export-dynamic-symbol", "export-dynamic-symbol-list",
        "library",        "library-path",   "script",           "just-symbols",
        "rpath",          "rpath-link",     "soname",           "shared",
        "trace-symbol",   "exclude-libs",   "dynamic-linker",   "plugin",
        "plugin-opt",     "sysroot",        "Map"};
    if (W.startswith("-") && !W.startswith("--") &&
        Long.count(W.drop_front(1).split('=').first.str()))
      return "-" + W.str();
    return W.str();
  }
  static bool longTakesValue(StringRef Option) {
    static const std::set<std::string> WithValue = {
        "--rpath",        "--rpath-link",      "--soname",         "--entry",
        "--undefined",    "--require-defined", "--defsym",         "--wrap",
        "--trace-symbol", "--exclude-libs",    "--dynamic-linker", "--plugin",
        "--plugin-opt",   "--sysroot",         "--version-script", "--dynamic-list",
        "--export-dynamic-symbol", "--export-dynamic-symbol-list", "--library-path",
        "--library",      "--script",          "--just-symbols",   "--Map"};
    return WithValue.count(Option.str()) != 0;
  }
  /// -z relro, -m elf_x86_64, -u SYM, -lNAME, -T script, ... (joined or not).
  static bool shortTakesValue(char C) { return StringRef("zmheuyIOLoTRl").contains(C); }
  static bool isSectionAddress(StringRef W) {
    for (StringRef Section : {"-Ttext", "-Tdata", "-Tbss", "-Ttext-segment",
                              "-Trodata-segment", "-Tldata-segment"})
      if (W == Section || W.startswith((Section + "=").str()))
        return true;
    return false;
  }

  bool apply(const std::string &Option, StringRef Value, const std::string &Spelling) {
    static const std::set<std::string> Inputs = {"-l", "--library", "-T",
                                                 "--script", "-R", "--just-symbols"};
    // A dynamic list, a version script or an export pattern names what to
    // export: not read here, so every export stays.
    static const std::set<std::string> ExportAll = {
        "-E", "--export-dynamic", "--shared", "-Bshareable", "--dynamic-list",
        "--dynamic-list-data", "--version-script", "--export-dynamic-symbol",
        "--export-dynamic-symbol-list"};
    if (Inputs.count(Option))
      return true;
    if (ExportAll.count(Option))
      line.exportsEverything = true;
    for (std::string &Symbol : symbolsNamedBy(Option, Value))
      line.linkerSymbols.push_back({std::move(Symbol), Spelling});
    return false;
  }
};
} // namespace

static bool isSource(StringRef File) {
  static const std::set<std::string> Extensions = {".c", ".cc", ".cpp", ".cxx", ".C",
                                                   ".i", ".s", ".S", ".m", ".mm"};
  return Extensions.count(sys::path::extension(File).str()) != 0;
}

/// A linker program (GNU ld, gold, lld, mold), rather than a compiler driver.
static bool isLinker(StringRef Program) {
  StringRef Name = sys::path::filename(Program);
  return Name == "ld" || Name.startswith("ld.") || Name == "lld" || Name == "mold" ||
         Name == "gold" || Name.endswith("-ld") || Name.contains("-ld.");
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
  // Only a linker's command says what the link is made of.
  if (Words.empty() || !isLinker(Words[0]) && sys::path::filename(Words[0]) != "collect2")
    return {};
  return Words;
}

std::string findLibrary(StringRef Name, const std::vector<std::string> &Dirs, bool Static) {
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
  LinkerWordReader UserLinkerWords(L); // -Wl, and -Xlinker: one stream of words
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
    for (StringRef W : ForLinker)
      if (UserLinkerWords.read(W, Spelling))
        L.linkerInputs.push_back(Spelling);
    if (A == "-rdynamic")
      L.exportsEverything = true;
    if ((A == "-u" || A == "-e") && Separate)
      L.linkerSymbols.push_back({Value.str(), A.str() + " " + Value.str()});
    else if (A.startswith("-u") && A.size() > 2 && A != "-undef")
      L.linkerSymbols.push_back({A.drop_front(2).str(), A.str()});
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
  for (size_t I = 1; I < Command.size(); ++I) {
    StringRef A = Command[I];
    if (A.startswith("-Wl,")) {
      SmallVector<StringRef, 4> Words;
      A.drop_front(4).split(Words, ',', -1, false);
      for (StringRef W : Words)
        UserWords.insert(W.str());
    } else if (A == "-l" && I + 1 < Command.size()) { // the driver writes -lNAME
      UserWords.insert("-l" + Command[I + 1]);
    }
  }
  // A linker run directly adds nothing of its own.
  std::vector<std::string> Linker;
  if (!isLinker(Command[0])) {
    Linker = driverLinkerCommand(Command);
    if (Linker.empty())
      L.driverProblem = "'" + Command[0] + " -###' did not show the linker's command";
  }
  L.searchDirs = CommandDirs;
  std::vector<std::pair<std::string, bool>> DriverLibraries; // -lNAME, static
  bool DriverStatic = false;
  LinkerWordReader DriverWords(L);
  for (size_t I = 1; I < Linker.size(); ++I) {
    StringRef W = Linker[I];
    if (W == "-static" || W == "-Bstatic")
      DriverStatic = true;
    else if (W == "-Bdynamic" || W == "-call_shared")
      DriverStatic = false;
    if ((W == "-L" && I + 1 < Linker.size()) || (W.startswith("-L") && W.size() > 2)) {
      std::string Dir = W == "-L" ? Linker[++I] : W.drop_front(2).str();
      if (std::find(L.searchDirs.begin(), L.searchDirs.end(), Dir) == L.searchDirs.end())
        L.searchDirs.push_back(Dir);
      continue;
    }
    // Every word is read (an option's value is not an input; the driver's own
    // options, such as a sanitizer's --dynamic-list, count); the inputs that
    // the command did not name are the driver's.
    bool Input = DriverWords.read(W, "the compiler driver's linker command");
    if (!Input || UserWords.count(W.str()))
      continue;
    if (W.startswith("-l") && W.size() > 2)
      DriverLibraries.push_back({W.str(), DriverStatic});
    else if (!W.startswith("-"))
      L.driverInputs.push_back(W.str());
    else
      L.linkerInputs.push_back(W.str() + " (from the compiler driver)");
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
