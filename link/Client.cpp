//===- Client.cpp - Reading a library's client: symbols and properties ----===//
//
// Each file is read with LLVM's object library; ELF files are taken apart
// with ELFFile (x86-64 and other 64-bit little-endian targets): relocatable
// objects give their undefined symbols and their .note.respec.property notes;
// shared objects and executables their undefined dynamic symbols, their
// DT_NEEDED libraries (followed) and, for a program, its property notes.
//
//===----------------------------------------------------------------------===//
#include "Client.h"
#include "LinkLine.h"
#include "link.h"
#include "loader_dirs.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/IRObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <regex>
#include <sstream>

using namespace llvm;
using namespace llvm::object;

namespace respec::link {

static constexpr const char *PropertySection = ".note.respec.property";

Client::Client(std::vector<const link_rules *> Excluded, std::vector<std::string> DirsForNeeded)
    : excluded(std::move(Excluded)), dirsForNeeded(std::move(DirsForNeeded)) {}

const link_rules *Client::decidingRules(const std::string &Path) const {
  for (const link_rules *R : excluded)
    if (link_rules_names_library(R, Path.c_str()))
      return R;
  return nullptr;
}

void Client::addProperty(const std::string &Property, const std::string &From) {
  files.push_back({From, {}, {}, {Property}, nullptr});
}

void Client::addReference(const std::string &Symbol, const std::string &From) {
  files.push_back({From, {Symbol}, {}, {}, nullptr});
}

void Client::addUnread(const std::string &Spelling, const std::string &Why) {
  unreadFiles.push_back({Spelling, Why});
}

/// An ELF file's section headers; none when they cannot be read.
template <class ELFT> static typename ELFT::ShdrRange sectionsOf(const ELFFile<ELFT> &E) {
  Expected<typename ELFT::ShdrRange> Sections = E.sections();
  if (Sections)
    return *Sections;
  consumeError(Sections.takeError());
  return {};
}

/// The properties disclosed in an ELF file's note sections.
template <class ELFT>
static std::vector<std::string> propertiesOf(const ELFFile<ELFT> &E) {
  std::vector<std::string> Found;
  for (const typename ELFT::Shdr &Sec : sectionsOf(E)) {
    Expected<StringRef> Name = E.getSectionName(Sec);
    if (!Name || *Name != PropertySection || Sec.sh_type != ELF::SHT_NOTE) {
      if (!Name)
        consumeError(Name.takeError());
      continue;
    }
    Error Err = Error::success();
    for (const typename ELFT::Note &N : E.notes(Sec, Err))
      if (N.getName() == "respec" && N.getType() == RESPEC_PROPERTY_NOTE_TYPE) {
        StringRef Text = N.getDescAsStringRef();
        Found.push_back(Text.take_until([](char C) { return C == '\0'; }).str());
      }
    consumeError(std::move(Err));
  }
  return Found;
}

/// What an ELF shared object or program says of the libraries it needs.
struct NeededLibraries {
  std::vector<std::string> names;           ///< DT_NEEDED
  std::optional<std::string> rpath, runpath; ///< DT_RPATH, DT_RUNPATH
};

/// Which dynamic symbols (by index) are defined at a non-default version
/// (`sym@VER`, not `sym@@VER`): those bind only programs linked against that
/// version long ago, so a new link never resolves a reference to them (glibc
/// keeps Sun RPC's functions so, for old binaries).
template <class ELFT> static std::vector<bool> hiddenVersionsOf(const ELFFile<ELFT> &E) {
  std::vector<bool> Hidden;
  auto Sections = E.sections();
  if (!Sections) {
    consumeError(Sections.takeError());
    return Hidden;
  }
  for (const auto &Sec : *Sections) {
    if (Sec.sh_type != ELF::SHT_GNU_versym)
      continue;
    auto Versions = E.template getSectionContentsAsArray<typename ELFT::Versym>(Sec);
    if (!Versions) {
      consumeError(Versions.takeError());
      return Hidden;
    }
    for (const auto &V : *Versions)
      Hidden.push_back(V.vs_index & ELF::VERSYM_HIDDEN);
  }
  return Hidden;
}

template <class ELFT> static NeededLibraries neededOf(const ELFFile<ELFT> &E) {
  NeededLibraries Needed;
  for (const typename ELFT::Shdr &Sec : sectionsOf(E)) {
    if (Sec.sh_type != ELF::SHT_DYNAMIC)
      continue;
    Expected<StringRef> Strings = E.getLinkAsStrtab(Sec);
    auto Entries = E.template getSectionContentsAsArray<typename ELFT::Dyn>(Sec);
    if (!Strings || !Entries) {
      if (!Strings)
        consumeError(Strings.takeError());
      if (!Entries)
        consumeError(Entries.takeError());
      continue;
    }
    for (const typename ELFT::Dyn &D : *Entries) {
      if (D.getVal() >= Strings->size())
        continue;
      std::string Value =
          Strings->drop_front(D.getVal()).take_until([](char C) { return C == '\0'; }).str();
      if (D.getTag() == ELF::DT_NEEDED)
        Needed.names.push_back(Value);
      else if (D.getTag() == ELF::DT_RPATH)
        Needed.rpath = Value;
      else if (D.getTag() == ELF::DT_RUNPATH)
        Needed.runpath = Value;
    }
  }
  return Needed;
}

void Client::addFile(const std::string &Path, bool IsProgram) {
  SmallString<256> Real;
  std::string Key = sys::fs::real_path(Path, Real) ? Path : Real.str().str();
  if (!seen.insert(Key).second)
    return; // already read (a library named twice, or needed by two)
  const link_rules *DecidedBy = decidingRules(Path);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer) {
    unreadFiles.push_back({Path, Buffer.getError().message()});
    return;
  }
  StringRef Text = (*Buffer)->getBuffer();
  if (identify_magic(Text) == file_magic::unknown) {
    addLinkerScript(Path, Text);
    return;
  }
  auto ReadBinary = [&](MemoryBufferRef Ref, const std::string &Name, bool ReadProperties) {
    Expected<std::unique_ptr<Binary>> Bin = createBinary(Ref, &context);
    if (!Bin) {
      unreadFiles.push_back({Name, toString(Bin.takeError())});
      return;
    }
    File F{Name, {}, {}, {}, DecidedBy};
    NeededLibraries Needed;
    if (auto *ELF = dyn_cast<ELFObjectFileBase>(Bin->get())) {
      bool Linked = ELF->getEType() == ELF::ET_EXEC || ELF->getEType() == ELF::ET_DYN;
      auto *LE64 = dyn_cast<ELF64LEObjectFile>(ELF);
      if (!LE64) {
        unreadFiles.push_back({Name, "not a 64-bit little-endian ELF file"});
        return;
      }
      std::vector<bool> Hidden;
      if (Linked)
        Hidden = hiddenVersionsOf(LE64->getELFFile());
      auto Symbols = Linked ? ELF->getDynamicSymbolIterators() : ELF->symbols();
      for (const ELFSymbolRef &S : Symbols) {
        Expected<uint32_t> Flags = S.getFlags();
        Expected<StringRef> SymName = S.getName();
        if (!Flags || !SymName) {
          consumeError(Flags.takeError());
          consumeError(SymName.takeError());
          continue;
        }
        if (SymName->empty())
          continue;
        uint32_t Index = S.getRawDataRefImpl().d.b;
        if (*Flags & SymbolRef::SF_Undefined)
          F.undefined.push_back(SymName->str());
        else if ((*Flags & SymbolRef::SF_Global) && !(Index < Hidden.size() && Hidden[Index]))
          F.defined.push_back(SymName->str());
      }
      // A shared library's own notes are not the program's disclosures.
      if (ReadProperties && (!Linked || IsProgram))
        F.disclosed = propertiesOf(LE64->getELFFile());
      if (Linked)
        Needed = neededOf(LE64->getELFFile());
    } else if (auto *IR = dyn_cast<IRObjectFile>(Bin->get())) {
      for (const BasicSymbolRef &S : IR->symbols()) {
        Expected<uint32_t> Flags = S.getFlags();
        SmallString<64> SymName;
        raw_svector_ostream OS(SymName);
        if (!Flags || S.printName(OS)) {
          consumeError(Flags.takeError());
          continue;
        }
        if (*Flags & SymbolRef::SF_Undefined)
          F.undefined.push_back(SymName.str().str());
        else if (*Flags & SymbolRef::SF_Global)
          F.defined.push_back(SymName.str().str());
      }
    } else {
      unreadFiles.push_back({Name, "neither an ELF object, an archive nor LLVM bitcode"});
      return;
    }
    files.push_back(std::move(F));
    for (const std::string &N : Needed.names)
      addNeeded(N, Name, Needed);
  };
  Expected<std::unique_ptr<Binary>> Bin = createBinary((*Buffer)->getMemBufferRef(), &context);
  if (!Bin) {
    unreadFiles.push_back({Path, toString(Bin.takeError())});
    return;
  }
  if (auto *A = dyn_cast<Archive>(Bin->get())) {
    Error Err = Error::success();
    for (const Archive::Child &C : A->children(Err)) {
      Expected<StringRef> Member = C.getName();
      Expected<MemoryBufferRef> Ref = C.getMemoryBufferRef();
      std::string Name = Path + "(" + (Member ? Member->str() : "?") + ")";
      if (!Member)
        consumeError(Member.takeError());
      if (!Ref) {
        unreadFiles.push_back({Name, toString(Ref.takeError())});
        continue;
      }
      if (identify_magic(Ref->getBuffer()) == file_magic::unknown)
        continue; // the archive's own tables
      ReadBinary(*Ref, Name, false); // pulled into the link or not: unknown
    }
    if (Err)
      unreadFiles.push_back({Path, toString(std::move(Err))});
    return;
  }
  ReadBinary((*Buffer)->getMemBufferRef(), Path, true);
}

void Client::addNeeded(const std::string &Name, const std::string &By,
                       const NeededLibraries &Paths) {
  std::vector<const char *> Dirs;
  for (const std::string &D : dirsForNeeded)
    Dirs.push_back(D.c_str());
  char *Found = link_find_needed(Name.c_str(), By.c_str(),
                                 Paths.rpath ? Paths.rpath->c_str() : nullptr,
                                 Paths.runpath ? Paths.runpath->c_str() : nullptr, Dirs.data(),
                                 Dirs.size());
  if (!Found) {
    unreadFiles.push_back({Name, "needed by " + By + ", found in no library directory"});
    return;
  }
  std::string Path = Found;
  free(Found);
  addFile(Path);
}

/// A GNU ld script (libc.so, libm.so): the files its GROUP and INPUT name.
void Client::addLinkerScript(const std::string &Path, StringRef Text) {
  static const std::regex Command(R"((GROUP|INPUT)\s*\(([^)]*(\([^)]*\)[^)]*)*)\))");
  std::string Script = Text.str();
  bool Any = false;
  for (std::sregex_iterator I(Script.begin(), Script.end(), Command), E; I != E; ++I) {
    std::string Inside = (*I)[2];
    // AS_NEEDED ( ... ) lists files as well.
    for (char &C : Inside)
      if (C == '(' || C == ')' || C == ',')
        C = ' ';
    std::istringstream Words(Inside);
    for (std::string W; Words >> W;) {
      if (W == "AS_NEEDED")
        continue;
      Any = true;
      // A name the script's directory does not hold is looked for in the
      // library directories, as ld does; -lNAME as a library.
      std::string Found;
      if (W.rfind("-l", 0) == 0) {
        Found = findLibrary(StringRef(W).drop_front(2), dirsForNeeded, false);
      } else if (sys::path::is_absolute(W)) {
        addFile(W);
        continue;
      } else {
        SmallString<256> Beside = sys::path::parent_path(Path);
        sys::path::append(Beside, W);
        if (sys::fs::exists(Beside)) {
          addFile(Beside.str().str());
          continue;
        }
        Found = findLibrary(":" + W, dirsForNeeded, false); // -l:FILE: the name as it is
      }
      if (Found.empty())
        unreadFiles.push_back({W, "named by " + Path + ", found in no library directory"});
      else
        addFile(Found);
    }
  }
  if (!Any)
    unreadFiles.push_back({Path, "neither an object, an archive nor a linker script with "
                                 "GROUP or INPUT"});
}

std::string Client::references(const std::string &Pattern, std::string &Symbol) const {
  for (const File &F : files)
    if (!judging || F.decidedBy != judging)
      for (const std::string &S : F.undefined)
        if (link_symbol_matches(Pattern.c_str(), S.c_str())) {
          Symbol = S;
          return F.name;
        }
  if (!unreadFiles.empty()) {
    Symbol = "any symbol (unread: " + unreadFiles.front().second + ")";
    return unreadFiles.front().first;
  }
  return "";
}

std::string Client::discloses(const std::string &Property) const {
  for (const File &F : files)
    if (!judging || F.decidedBy != judging)
      for (const std::string &P : F.disclosed)
        if (P == Property)
          return F.name;
  return "";
}

std::optional<std::set<std::string>> Client::exportsNeeded(const link_rules *Library) const {
  if (!unreadFiles.empty())
    return std::nullopt;
  std::set<std::string> Symbols;
  for (const File &F : files)
    if (F.decidedBy != Library) {
      for (const std::string &S : F.undefined)
        Symbols.insert(StringRef(S).split('@').first.str());
      for (const std::string &S : F.defined)
        Symbols.insert(StringRef(S).split('@').first.str());
    }
  return Symbols;
}

std::vector<std::pair<std::string, std::vector<std::string>>> Client::properties() const {
  std::vector<std::pair<std::string, std::vector<std::string>>> All;
  for (const File &F : files)
    for (const std::string &P : F.disclosed) {
      auto It = std::find_if(All.begin(), All.end(), [&](auto &E) { return E.first == P; });
      if (It == All.end())
        All.push_back({P, {F.name}});
      else if (std::find(It->second.begin(), It->second.end(), F.name) == It->second.end())
        It->second.push_back(F.name);
    }
  return All;
}

link_client Client::callbacks() const {
  link_client C;
  C.context = const_cast<Client *>(this);
  C.references = [](void *Self, const char *Pattern, const char **Symbol) -> const char * {
    auto *Me = static_cast<Client *>(Self);
    Me->lastFile = Me->references(Pattern, Me->lastSymbol);
    *Symbol = Me->lastSymbol.c_str();
    return Me->lastFile.empty() ? nullptr : Me->lastFile.c_str();
  };
  C.discloses = [](void *Self, const char *Property) -> const char * {
    auto *Me = static_cast<Client *>(Self);
    Me->lastFile = Me->discloses(Property);
    return Me->lastFile.empty() ? nullptr : Me->lastFile.c_str();
  };
  return C;
}

} // namespace respec::link
