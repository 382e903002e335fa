//===- Client.h - What a library's client references and discloses -*- C++ -*-===//
//
// The client of a library is everything else the program is made of: the
// objects, archives and shared objects on the link line, and the shared
// objects those need (DT_NEEDED, followed), or an already linked program and
// what it needs. Rules ask two things of it (link/rules.h): which symbols it
// references, and which properties it discloses (<respec/link.h>).
//
// References are over-approximated, which keeps every rule sound: a rule can
// only conclude "never referenced" from a complete list.
//   - An archive counts with all its members, not only those the link pulls.
//   - A shared object counts with its undefined dynamic symbols, and so do
//     the libraries it needs, found as the dynamic loader would look (its
//     DT_RPATH, LD_LIBRARY_PATH, its DT_RUNPATH, $ORIGIN expanded; then the
//     link's -L directories, the compiler's library directories, the system
//     ones: loader_dirs.h).
//   - A file that cannot be read (a missing library, a format respec does not
//     know) references every symbol: `unless-referenced` facts fail and
//     `if-referenced` ones hold, each naming that file as the reason.
// Properties come only from the objects on the link line and from the
// program's own notes (the linker carries them there): an archive member's
// note would count only if the link pulled the member, which is not known.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_LINK_CLIENT_H
#define RESPEC_LINK_CLIENT_H

#include "rules.h"
#include "llvm/IR/LLVMContext.h"
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace respec::link {

struct NeededLibraries;

class Client {
public:
  /// Libraries whose files are not part of the client (the ones being
  /// decided), matched with link_rules_names_library: a library's own files
  /// do not count while its rules are evaluated (judge()). DirsForNeeded: where needed shared
  /// objects are looked for, in order.
  Client(std::vector<const link_rules *> Excluded, std::vector<std::string> DirsForNeeded);

  /// Adds a file of the link line, or a linked program: ELF object, archive,
  /// shared object, executable, LLVM bitcode, or a GNU ld script (its GROUP
  /// and INPUT files are added). IsProgram: a linked program, whose notes
  /// are its objects' disclosures (a shared object's are not).
  void addFile(const std::string &Path, bool IsProgram = false);
  /// A property disclosed for the program by From (the command line).
  void addProperty(const std::string &Property, const std::string &From);
  /// A symbol the link command itself references (-Wl,-u,SYM), by From.
  void addReference(const std::string &Symbol, const std::string &From);
  /// A file or library of the link that cannot be read, and why.
  void addUnread(const std::string &Spelling, const std::string &Why);

  /// The library whose rules are being evaluated: its own files are not its
  /// client (every other file counts, other decided libraries' included).
  void judge(const link_rules *Library) { judging = Library; }

  /// The first file referencing a symbol that matches Pattern (the symbol
  /// in Symbol); empty when none does.
  std::string references(const std::string &Pattern, std::string &Symbol) const;
  /// The first file disclosing Property; empty when none does.
  std::string discloses(const std::string &Property) const;

  /// What a specialized Library must export: every symbol referenced by a
  /// file of the link other than Library's own (the client and the other
  /// decided libraries), and every global symbol one of them defines (an
  /// interposing definition: the library's own references to it must still
  /// reach the same definition). None when a file could not be read.
  std::optional<std::set<std::string>> exportsNeeded(const link_rules *Library) const;

  /// Every disclosed property, with the files that disclose it.
  std::vector<std::pair<std::string, std::vector<std::string>>> properties() const;
  /// Files that could not be read, and why.
  const std::vector<std::pair<std::string, std::string>> &unread() const { return unreadFiles; }

  /// The callbacks rules.c evaluates with (valid while this Client lives).
  link_client callbacks() const;

private:
  struct File {
    std::string name;                  ///< as --explain shows it
    std::vector<std::string> undefined; ///< symbols it references
    std::vector<std::string> defined;   ///< global symbols it defines
    std::vector<std::string> disclosed; ///< properties
    const link_rules *decidedBy;        ///< a decided library's file, or null
  };
  std::vector<const link_rules *> excluded;
  const link_rules *judging = nullptr;
  std::vector<std::string> dirsForNeeded;
  std::vector<File> files;
  std::vector<std::pair<std::string, std::string>> unreadFiles;
  std::set<std::string> seen; ///< real paths already added
  llvm::LLVMContext context;  ///< for bitcode objects
  /// Storage for the strings returned through the C callbacks.
  mutable std::string lastFile, lastSymbol;

  const link_rules *decidingRules(const std::string &Path) const;
  void addNeeded(const std::string &Name, const std::string &By,
                 const NeededLibraries &Paths);
  void addLinkerScript(const std::string &Path, llvm::StringRef Text);
};

} // namespace respec::link

#endif
