//===- Builds.cpp - The user's build, once per compile configuration -------===//
#include "Builds.h"
#include "Diagnostics.h"
#include "Files.h"
#include "Process.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>

using namespace llvm;

namespace respec::layout {

namespace {

/// Path relative to Directory when it lies under it, or "".
std::string under(StringRef Path, StringRef Directory) {
  StringRef Rest = Path;
  if (Rest.consume_front(Directory) && !Rest.empty() && sys::path::is_separator(Rest[0]))
    return Rest.drop_front().str();
  return "";
}

/// The sizes and times of every file under Source (but the paths Excluded:
/// the work directory, respec layout's outputs), as one digest: a build is
/// current when none changed.
std::string treeFingerprint(const std::string &Source, const std::vector<std::string> &Excluded) {
  std::vector<std::string> Lines;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Source, EC, /*follow_symlinks=*/false), End;
       It != End && !EC; It.increment(EC)) {
    if (llvm::is_contained(Excluded, It->path())) {
      It.no_push();
      continue;
    }
    sys::fs::file_status Status;
    if (sys::fs::status(It->path(), Status, /*follow=*/false))
      continue;
    Lines.push_back(It->path() + " " + std::to_string(Status.getSize()) + " " +
                    std::to_string(Status.getLastModificationTime().time_since_epoch().count()));
  }
  if (EC)
    throw SpecError(Source, "cannot read the source tree: " + EC.message());
  std::sort(Lines.begin(), Lines.end());
  uint64_t Digest = 0;
  for (const std::string &Line : Lines)
    Digest = xxHash64(Line) ^ (Digest * 0x100000001b3ULL);
  return std::to_string(Lines.size()) + " files, " + utohexstr(Digest);
}

/// The compiler a stage's build runs, under every name builds use for one.
void writeCompilerWrapper(const std::string &BinDir, const Toolchain &Tools,
                          const BuildStage &Stage) {
  createDirectory(BinDir);
  std::string Script = "#!/bin/sh\n# respec " + Stage.tool + ": the compiler of stage " + Stage.name +
                       "\nexec " + shellQuote(Tools.clang) + " \"$@\"";
  for (const std::string &Flag : Stage.flags)
    Script += " " + shellQuote(Flag);
  Script += " -Wno-unused-command-line-argument\n";
  for (const char *Name : {"cc", "gcc", "clang", "clang-16"})
    writeExecutable(BinDir + "/" + Name, Script);
}

} // namespace

std::vector<std::string> relocationFlags() { return {"-fuse-ld=lld", "-Wl,--emit-relocs"}; }

std::string inputsOfCommand(const std::vector<std::string> &Words) {
  std::string Inputs;
  for (const std::string &Word : Words)
    if (sys::fs::is_regular_file(Word))
      Inputs += fileIdentity(absolutePath(Word)) + "\n";
  for (const char *Name : {"CFLAGS", "CPPFLAGS", "LDFLAGS", "MAKEFLAGS"})
    if (const char *Value = getenv(Name))
      Inputs += std::string(Name) + "=" + Value + "\n";
  return Inputs;
}

std::string fileIdentity(const std::string &Path) {
  sys::fs::file_status Status;
  if (sys::fs::status(Path, Status))
    throw SpecError(Path, "no such file");
  return Path + " " + std::to_string(Status.getSize()) + " " +
         std::to_string(Status.getLastModificationTime().time_since_epoch().count());
}

bool stampMatches(const std::string &Directory, const std::string &Key) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Stamp = MemoryBuffer::getFile(Directory + "/stamp");
  return Stamp && (*Stamp)->getBuffer() == Key;
}

void writeStamp(const std::string &Directory, const std::string &Key) {
  std::error_code EC;
  raw_fd_ostream Out(Directory + "/stamp", EC);
  if (EC)
    throw SpecError(Directory + "/stamp", "cannot write: " + EC.message());
  Out << Key;
}

std::string buildStage(const LayoutOptions &Options, const Toolchain &Tools,
                       const BuildStage &Stage) {
  std::string Source = absolutePath(Options.sourceDir);
  std::string Work = absolutePath(Options.workDir);
  if (!sys::fs::is_directory(Source))
    throw SpecError(Options.sourceDir, "no such directory (--source)");
  if (sys::fs::exists(Source + "/" + Options.binary))
    throw SpecError(Source + "/" + Options.binary,
                    "the source tree already holds the program: its copy would keep the "
                    "objects built without the stage's flags (make copies their times too); "
                    "clean the tree first (make clean, or a fresh checkout)");
  std::string StageDir = Work + "/" + Stage.name;
  std::string Tree = StageDir + "/tree";
  std::string Binary = Tree + "/" + Options.binary;
  // Paths the copy and the stamp leave out: respec layout's own outputs.
  std::vector<std::string> Excluded = {Work};
  for (const std::string &Output : {Options.output, Options.jsonReport})
    if (!Output.empty())
      for (const char *Suffix : {"", ".partial"})
        Excluded.push_back(absolutePath(Output) + Suffix);

  // The build runs in the copy: a script named by a relative path is the user's.
  std::vector<std::string> Build = Options.buildCommand;
  if (StringRef(Build.front()).contains('/'))
    Build.front() = absolutePath(Build.front());
  std::string Key = "compiler " + Tools.clang + "\nflags";
  for (const std::string &Flag : Stage.flags)
    Key += " " + Flag;
  Key += "\nbuild";
  for (const std::string &Arg : Build)
    Key += " " + shellQuote(Arg);
  Key += "\ninputs " + Stage.inputs + "\n" + inputsOfCommand(Build) + "source " +
         Source + ": " + treeFingerprint(Source, Excluded) + "\n";
  if (!Options.rebuild && stampMatches(StageDir, Key) && sys::fs::exists(Binary)) {
    errs() << Stage.tool << ": build " << Stage.name << ": current (" << StageDir << ")\n";
    return Binary;
  }

  errs() << Stage.tool << ": build " << Stage.name << ": copying " << Source << "\n";
  freshDirectory(StageDir);
  createDirectory(Tree);
  std::string Exclude;
  for (const std::string &Path : Excluded)
    if (std::string Inside = under(Path, Source); !Inside.empty())
      Exclude += " --exclude=" + shellQuote("./" + Inside);
  runOrThrow({shell("tar -C " + shellQuote(Source) + Exclude + " -cf - . | tar -C " +
                    shellQuote(Tree) + " -xf -"),
              "", {}, StageDir + "/copy.log"},
             "copying the source tree");

  std::string BinDir = StageDir + "/bin";
  writeCompilerWrapper(BinDir, Tools, Stage);
  const char *Path = getenv("PATH");
  std::string Log = StageDir + "/build.log";
  errs() << Stage.tool << ": build " << Stage.name << ": running the build (log: " << Log << ")\n";
  runOrThrow({Build, Tree,
              {{"CC", BinDir + "/cc"},
               {"PATH", BinDir + (Path ? ":" + std::string(Path) : std::string())}},
              Log},
             "the build of stage " + Stage.name);
  if (!sys::fs::exists(Binary))
    throw SpecError(Options.binary, "the build of stage " + Stage.name +
                                        " succeeded but made no such file (--binary is "
                                        "relative to the source tree)");
  if (Stage.keepsRelocations)
    checkRelocations(Binary);
  writeStamp(StageDir, Key);
  return Binary;
}

void checkRelocations(const std::string &Binary) {
  Expected<object::OwningBinary<object::ObjectFile>> File =
      object::ObjectFile::createObjectFile(Binary);
  if (!File)
    throw SpecError(Binary, "not an object file: " + toString(File.takeError()));
  const auto *Elf = dyn_cast<object::ELFObjectFileBase>(File->getBinary());
  if (!Elf)
    throw SpecError(Binary, "not an ELF program");
  for (const object::SectionRef &Section : Elf->sections()) {
    Expected<StringRef> Name = Section.getName();
    if (Name && Name->startswith(".rela.text"))
      return;
  }
  throw SpecError(Binary,
                  "has no relocations (no .rela.text): BOLT can then reorder blocks inside "
                  "functions but not move functions; link it with -Wl,--emit-relocs (and "
                  "lld or GNU ld), or let respec layout build it: the build must compile "
                  "and link with $CC or a compiler named cc, gcc or clang found in PATH");
}

} // namespace respec::layout
