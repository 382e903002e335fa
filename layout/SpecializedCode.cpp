//===- SpecializedCode.cpp - What respec knows that a profile does not ----===//
#include "SpecializedCode.h"
#include "Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>
#include <memory>

using namespace llvm;

namespace respec::layout {

namespace {

/// A module's functions by address, for the records' offsets.
class ModuleSymbols {
public:
  explicit ModuleSymbols(const std::string &Path) {
    Expected<object::OwningBinary<object::ObjectFile>> File =
        object::ObjectFile::createObjectFile(Path);
    if (!File) {
      consumeError(File.takeError());
      return;
    }
    auto *Elf = dyn_cast<object::ELF64LEObjectFile>(File->getBinary());
    if (!Elf)
      return;
    // Offsets are from the module's base: the address its lowest segment loads at.
    if (auto Headers = Elf->getELFFile().program_headers()) {
      for (const auto &Header : *Headers)
        if (Header.p_type == ELF::PT_LOAD && (!Loaded || Header.p_vaddr < Base)) {
          Base = Header.p_vaddr;
          Loaded = true;
        }
    } else {
      consumeError(Headers.takeError());
    }
    for (const object::ELFSymbolRef &Symbol : Elf->symbols()) {
      Expected<object::SymbolRef::Type> Type = Symbol.getType();
      Expected<uint64_t> Address = Symbol.getAddress();
      Expected<StringRef> Name = Symbol.getName();
      if (!Type || !Address || !Name || *Type != object::SymbolRef::ST_Function ||
          Name->empty()) {
        if (!Type) consumeError(Type.takeError());
        if (!Address) consumeError(Address.takeError());
        if (!Name) consumeError(Name.takeError());
        continue;
      }
      Functions[*Address] = {Name->str(), std::max<uint64_t>(Symbol.getSize(), 1)};
    }
  }

  /// The function at Offset from the base, or "".
  std::string functionAt(uint64_t Offset) const {
    if (!Loaded)
      return "";
    uint64_t Address = Base + Offset;
    auto It = Functions.upper_bound(Address);
    if (It == Functions.begin())
      return "";
    --It;
    return Address < It->first + It->second.second ? It->second.first : "";
  }

private:
  bool Loaded = false;
  uint64_t Base = 0;
  std::map<uint64_t, std::pair<std::string, uint64_t>> Functions; // address: name, size
};

} // namespace

SlotFacts readSlotRecords(const std::vector<std::string> &Records) {
  SlotFacts Facts;
  std::map<std::string, std::unique_ptr<ModuleSymbols>> Modules;
  for (const std::string &Record : Records) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Record);
    if (!Text)
      throw SpecError(Record, "cannot read: " + Text.getError().message());
    SmallVector<StringRef> Lines;
    (*Text)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    unsigned LineNumber = 0;
    for (StringRef Line : Lines) {
      ++LineNumber;
      if (Line.startswith("#"))
        continue;
      auto [Kind, Rest] = Line.split(' ');
      if (Kind == "specialized-outside" || Kind == "fallback-outside")
        continue; // JIT code or another module: nothing of the program to place
      auto [OffsetText, Module] = Rest.split(' ');
      uint64_t Offset;
      if ((Kind != "fallback" && Kind != "specialized") || OffsetText.getAsInteger(16, Offset) ||
          Module.empty())
        throw SpecError(Record + ":" + std::to_string(LineNumber),
                        "not a line of librespec's slot record: '" + Line.str() + "'");
      std::unique_ptr<ModuleSymbols> &Symbols = Modules[Module.str()];
      if (!Symbols)
        Symbols = std::make_unique<ModuleSymbols>(Module.str());
      std::string Name = Symbols->functionAt(Offset);
      if (Name.empty())
        continue; // in another module (a library)
      (Kind == "fallback" ? Facts.fallbacks : Facts.specialized).insert(Name);
    }
  }
  return Facts;
}

std::string skipFunctionsOption(const std::set<std::string> &Names) {
  std::string Option;
  for (const std::string &Name : Names) {
    if (!Option.empty())
      Option += ",";
    for (char C : Name) { // a C symbol: only '.' and '$' mean something in a regex
      if (C == '.' || C == '$')
        Option += '\\';
      Option += C;
    }
  }
  return Option;
}

} // namespace respec::layout
