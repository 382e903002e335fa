//===- ClangOptions.cpp - What respec needs to know of clang's options ----===//
//
// Lists of clang 16's driver options by how they take values (Options.td:
// Separate and JoinedOrSeparate kinds), limited to what a C compile can use.
//
//===----------------------------------------------------------------------===//
#include "ClangOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace respec {

bool takesSeparateValue(StringRef Option) {
  static const StringSet<> Separate = {
      // Preprocessor and include paths.
      "-D", "-U", "-I", "-F", "-A", "-include", "-imacros", "-include-pch", "-isystem",
      "-isystem-after", "-cxx-isystem", "-idirafter", "-iquote", "-isysroot", "-iprefix",
      "-iwithprefix", "-iwithprefixbefore", "-iwithsysroot", "-iframework",
      "-iframeworkwithsysroot", "-ivfsoverlay", "--sysroot",
      // Dependency files.
      "-MF", "-MT", "-MQ", "-MJ",
      // Language, target, toolchain.
      "-x", "-target", "-arch", "-B", "-resource-dir", "-working-directory", "--config",
      "-G", "--param",
      // Arguments for other tools.
      "-Xclang", "-Xpreprocessor", "-Xassembler", "-Xlinker", "-Xanalyzer", "-mllvm",
      "-Xopenmp-target", "-Xcuda-fatbinary", "-Xcuda-ptxas", "-Xarch_host", "-Xarch_device",
      "-serialize-diagnostics",
      // Linker options (unused by a compile, but their values are not files).
      "-L", "-l", "-T", "-e", "-u", "-z"};
  return Separate.contains(Option) || Option.startswith("-Xarch_");
}

namespace {
/// An option whose value is a path relative to the current directory.
/// Longer spellings first: "-isystem-after" is not "-isystem" joined with "-after".
const char *const PathOptions[] = {
    "-isystem-after", "-isystem",  "-include-pch", "-include",       "-imacros",
    "-idirafter",     "-iquote",   "-isysroot",    "-iframework",    "-ivfsoverlay",
    "-resource-dir=", "-resource-dir", "--sysroot=", "--sysroot",    "-I",
    "-F"};
/// Begins like "-iframework" but its value is relative to the sysroot.
const char *const NotPathOption = "-iframeworkwithsysroot";

std::string absolute(StringRef Path, StringRef Directory) {
  // "=dir" and "$SYSROOT/dir" are relative to the sysroot, not to here.
  if (Path.empty() || Path.startswith("=") || Path.startswith("$SYSROOT"))
    return Path.str();
  SmallString<256> Absolute(Path);
  sys::fs::make_absolute(Directory, Absolute);
  return Absolute.str().str();
}
} // namespace

std::vector<std::string> withAbsolutePaths(const std::vector<std::string> &Flags,
                                           StringRef Directory) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < Flags.size(); ++I) {
    StringRef Flag = Flags[I];
    Out.push_back(Flag.str());
    if (Flag.startswith(NotPathOption))
      continue;
    const char *const *Option =
        llvm::find_if(PathOptions, [&](const char *O) { return Flag.startswith(O); });
    if (Option == std::end(PathOptions))
      continue;
    StringRef Joined = Flag.drop_front(strlen(*Option));
    if (!Joined.empty())
      Out.back() = *Option + absolute(Joined, Directory);
    else if (I + 1 < Flags.size() && takesSeparateValue(Flag))
      Out.push_back(absolute(Flags[++I], Directory));
  }
  return Out;
}

} // namespace respec
