//===- HostSymbols.cpp - The generic code's symbols in the running program -===//
//
// See HostSymbols.h.
//
//===----------------------------------------------------------------------===//
#include "HostSymbols.h"
#include "Diagnostics.h"
#include "Driver.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
// Last: <elf.h> defines the ELF constants (STT_FUNC, ...) as macros, which
// would break llvm::ELF's enumerators of the same names; they are used below.
#include <link.h>
#include <string>
#include <vector>

using namespace llvm;

namespace respec {
namespace {

/// One symbol of the program, where it is now.
struct ProgramSymbol {
  uint64_t address = 0;
  uint64_t size = 0;
  bool function = false;
  bool local = false;
  std::string file; ///< local symbols: the STT_FILE before them
};

struct LoadedObject {
  std::string path;
  uint64_t base = 0;
};

std::vector<LoadedObject> loadedObjects() {
  std::vector<LoadedObject> Objects;
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Out) {
        std::string Path = Info->dlpi_name && *Info->dlpi_name ? Info->dlpi_name : "";
        static_cast<std::vector<LoadedObject> *>(Out)->push_back(
            {Path.empty() ? "/proc/self/exe" : Path, uint64_t(Info->dlpi_addr)});
        return 0;
      },
      &Objects);
  // Objects without a file (the vDSO) have no symbols to read.
  llvm::erase_if(Objects, [](const LoadedObject &O) { return !sys::fs::exists(O.path); });
  return Objects;
}

/// The symbols named in Wanted that Object defines, in the order of its table.
void readSymbols(const LoadedObject &Object, const std::set<std::string> &Wanted,
                 std::multimap<std::string, ProgramSymbol> &Into) {
  auto Binary = object::ObjectFile::createObjectFile(Object.path);
  if (!Binary) {
    consumeError(Binary.takeError());
    return;
  }
  auto *Elf = dyn_cast<object::ELFObjectFileBase>(Binary->getBinary());
  if (!Elf)
    return;
  auto Read = [&](auto Symbols) {
    std::string File;
    for (const object::ELFSymbolRef &Symbol : Symbols) {
      uint8_t Type = Symbol.getELFType();
      Expected<StringRef> Name = Symbol.getName();
      if (!Name) {
        consumeError(Name.takeError());
        continue;
      }
      if (Type == STT_FILE) {
        File = Name->str();
        continue;
      }
      if ((Type != STT_FUNC && Type != STT_OBJECT) || !Wanted.count(Name->str()))
        continue;
      Expected<uint64_t> Value = Symbol.getValue();
      Expected<uint32_t> Flags = Symbol.getFlags();
      if (!Value || !Flags) {
        consumeError(Value.takeError());
        consumeError(Flags.takeError());
        continue;
      }
      if (*Flags & object::SymbolRef::SF_Undefined)
        continue;
      ProgramSymbol S;
      S.address = Object.base + *Value;
      S.size = Symbol.getSize();
      S.function = Type == STT_FUNC;
      S.local = Symbol.getBinding() == STB_LOCAL;
      if (S.local)
        S.file = File;
      Into.emplace(Name->str(), S);
    }
  };
  if (Elf->symbol_begin() != Elf->symbol_end())
    Read(Elf->symbols());
  else
    Read(Elf->getDynamicSymbolIterators());
}

/// The name the program knows GV by: llvm-link renames a file-static symbol
/// whose name another file also uses (`ops` becomes `ops.3`).
std::string programName(const GlobalValue &GV) {
  StringRef Name = GV.getName();
  if (GV.hasLocalLinkage()) {
    auto [Stem, Suffix] = Name.rsplit('.');
    if (!Suffix.empty() && llvm::all_of(Suffix, isDigit))
      return Stem.str();
  }
  return Name.str();
}

/// The source file that defined GV, for telling file-static symbols apart.
std::string sourceFile(const GlobalValue &GV) {
  if (auto *F = dyn_cast<Function>(&GV))
    if (DISubprogram *SP = F->getSubprogram())
      return SP->getFilename().str();
  if (auto *G = dyn_cast<GlobalVariable>(&GV))
    if (MDNode *Origin = G->getMetadata("respec.origin"))
      return cast<MDString>(Origin->getOperand(0))->getString().str();
  return "";
}

} // namespace

HostSymbols::HostSymbols(Module &Generic) {
  std::vector<GlobalValue *> Definitions;
  std::set<std::string> Wanted;
  for (GlobalValue &GV : Generic.global_values())
    if (!GV.isDeclaration() && (isa<Function>(GV) || isa<GlobalVariable>(GV))) {
      Definitions.push_back(&GV);
      Wanted.insert(programName(GV));
    }
  std::multimap<std::string, ProgramSymbol> Symbols;
  for (const LoadedObject &Object : loadedObjects())
    readSymbols(Object, Wanted, Symbols);

  for (GlobalValue *GV : Definitions) {
    std::vector<const ProgramSymbol *> Candidates;
    auto [First, Last] = Symbols.equal_range(programName(*GV));
    for (auto It = First; It != Last; ++It)
      if (It->second.function == isa<Function>(GV) && It->second.local == GV->hasLocalLinkage())
        Candidates.push_back(&It->second);
    if (Candidates.size() > 1 && GV->hasLocalLinkage()) {
      std::string Source = sourceFile(*GV);
      StringRef File = sys::path::filename(Source);
      llvm::erase_if(Candidates, [&](const ProgramSymbol *S) {
        return File.empty() || sys::path::filename(S->file) != File;
      });
    }
    // The same definition seen twice (a table read twice) is one.
    if (Candidates.size() > 1 &&
        llvm::all_of(Candidates, [&](auto *S) { return S->address == Candidates[0]->address; }))
      Candidates.erase(Candidates.begin() + 1, Candidates.end());
    if (Candidates.size() == 1)
      bind(*GV, Candidates[0]->address, Candidates[0]->size);
  }
}

HostSymbols::HostSymbols(Module &Generic, const void *const *Addresses, size_t Count) {
  std::vector<GlobalValue *> Definitions = embeddedDefinitions(Generic);
  if (Definitions.size() != Count)
    throw SpecError("", "the symbol table of the embedded code has " + std::to_string(Count) +
                            " entries for " + std::to_string(Definitions.size()) +
                            " definitions: it was not made with this bitcode");
  const DataLayout &Layout = Generic.getDataLayout();
  for (size_t I = 0; I < Count; ++I) {
    auto *G = dyn_cast<GlobalVariable>(Definitions[I]);
    bind(*Definitions[I], reinterpret_cast<uint64_t>(Addresses[I]),
         G ? Layout.getTypeAllocSize(G->getValueType()) : 0);
  }
}

void HostSymbols::bind(GlobalValue &Symbol, uint64_t Address, uint64_t Size) {
  addresses[&Symbol] = Address;
  byAddress[Address] = {&Symbol, Size};
}

std::optional<uint64_t> HostSymbols::addressOf(const GlobalValue &Symbol) const {
  auto It = addresses.find(&Symbol);
  if (It == addresses.end())
    return std::nullopt;
  return It->second;
}

GlobalValue *HostSymbols::symbolAt(uint64_t Address, uint64_t &Offset) const {
  auto It = byAddress.upper_bound(Address);
  if (It == byAddress.begin())
    return nullptr;
  --It;
  auto [Symbol, Size] = It->second;
  Offset = Address - It->first;
  bool Inside = Offset == 0 || (isa<GlobalVariable>(Symbol) && Offset < Size);
  return Inside ? Symbol : nullptr;
}

} // namespace respec
