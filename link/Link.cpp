//===- Link.cpp - `respec link`: evaluate the rules, link the variants ----===//
#include "Link.h"
#include "Client.h"
#include "Diagnostics.h"
#include "LibrarySpecialization.h"
#include "LinkLine.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <cstdlib>
#include <memory>

using namespace llvm;
using namespace llvm::object;

namespace respec::link {
namespace {

struct RulesDeleter {
  void operator()(link_rules *R) const { link_rules_free(R); }
};
using Rules = std::unique_ptr<link_rules, RulesDeleter>;

Rules loadRules(const std::string &Path) {
  char Error[1024];
  link_rules *R = link_rules_parse(Path.c_str(), Error, sizeof Error);
  if (R)
    return Rules(R);
  // "path:line: message" (or "path: message"): the place, then the message.
  StringRef Text(Error), Where = Path;
  if (Text.startswith(Path + ":")) {
    size_t End = Text.find(": ", Path.size());
    Where = Text.take_front(End);
    Text = Text.drop_front(End + 2);
  }
  throw SpecError(Where.str(), Text.str());
}

/// libNAME.rules beside a library file (libNAME.a, libNAME.so, libNAME.so.1).
std::string rulesBeside(StringRef Library) {
  StringRef Base = sys::path::filename(Library);
  if (!Base.consume_front("lib"))
    return "";
  StringRef Name = Base.take_until([](char C) { return C == '.'; });
  StringRef Suffix = Base.drop_front(Name.size());
  if (Name.empty() || !(Suffix == ".a" || Suffix.startswith(".so")))
    return "";
  SmallString<256> Path = sys::path::parent_path(Library);
  sys::path::append(Path, "lib" + Name + ".rules");
  return sys::fs::exists(Path) ? Path.str().str() : "";
}

/// Bytes of code (executable sections) in an object, archive or shared object.
uint64_t codeBytes(const std::string &Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return 0;
  uint64_t Total = 0;
  auto Count = [&](MemoryBufferRef Ref) {
    Expected<std::unique_ptr<Binary>> Bin = createBinary(Ref);
    if (!Bin)
      return consumeError(Bin.takeError());
    if (auto *Obj = dyn_cast<ELFObjectFileBase>(Bin->get()))
      for (const SectionRef &S : Obj->sections())
        if (ELFSectionRef(S).getFlags() & ELF::SHF_EXECINSTR)
          Total += S.getSize();
  };
  Expected<std::unique_ptr<Binary>> Bin = createBinary((*Buffer)->getMemBufferRef());
  if (!Bin) {
    consumeError(Bin.takeError());
    return 0;
  }
  if (auto *A = dyn_cast<Archive>(Bin->get())) {
    Error Err = Error::success();
    for (const Archive::Child &C : A->children(Err))
      if (Expected<MemoryBufferRef> Ref = C.getMemoryBufferRef())
        Count(*Ref);
      else
        consumeError(Ref.takeError());
    consumeError(std::move(Err));
  } else {
    Count((*Buffer)->getMemBufferRef());
  }
  return Total;
}

/// A temporary directory for specialized objects, removed with them.
class WorkDirectory {
public:
  const std::string &path() {
    if (dir.empty()) {
      SmallString<128> P;
      if (std::error_code EC = sys::fs::createUniqueDirectory("respec-link", P))
        throw SpecError("", "cannot create a temporary directory: " + EC.message());
      dir = P.str().str();
    }
    return dir;
  }
  ~WorkDirectory() {
    if (!dir.empty())
      sys::fs::remove_directories(dir);
  }

private:
  std::string dir;
};

/// One library the rules apply to, and what they decided.
struct Decision {
  Rules rules;
  std::vector<size_t> inputs; ///< the link inputs that name the library
  std::vector<link_fact_outcome> facts;
  std::vector<const link_requirement *> unmet; ///< per variant
  const link_variant *chosen = nullptr;
  std::vector<std::string> replacement; ///< arguments in the library's place
  SpecializedLibrary specialized;
};

void printDecision(raw_ostream &Out, const Decision &D, const LinkLine *Line) {
  const link_rules &R = *D.rules;
  Out << "library " << R.library << " (rules " << R.path << ")\n";
  if (Line && D.inputs.empty() && !R.implicit)
    Out << "  not linked: the command names no -l" << R.library << ", lib" << R.library
        << ".a or lib" << R.library << ".so\n";
  for (const link_fact_outcome &F : D.facts)
    Out << "  fact " << F.fact << ": " << (F.holds ? "holds" : "does not hold") << " ("
        << F.because << ")\n";
  for (size_t I = 0; I < R.variant_count; ++I) {
    const link_variant &V = R.variants[I];
    if (&V == D.chosen) {
      Out << "  variant " << V.name << ": chosen\n";
      break;
    }
    const link_requirement *U = D.unmet[I];
    std::string Fact = U->fact;
    bool Property = std::none_of(D.facts.begin(), D.facts.end(), [&](auto &F) {
      return Fact == F.fact;
    });
    Out << "  variant " << V.name << ": not chosen (" << (Property ? "property " : "fact ")
        << Fact << (U->negated ? " holds" : Property ? " not disclosed" : " does not hold")
        << ")\n";
  }
  if (!D.chosen) {
    Out << "  result: the library as it is\n";
    return;
  }
  uint64_t Before = 0, After = 0;
  for (size_t In : D.inputs)
    if (Line && !Line->inputs[In].path.empty())
      Before = codeBytes(Line->inputs[In].path);
  for (const std::string &File : D.replacement)
    After += codeBytes(File);
  if (D.chosen->bitcode)
    Out << "  links the library's code specialized for this program in its place\n";
  else
    for (const std::string &File : D.replacement)
      Out << "  links " << File
          << (R.implicit ? " ahead of the library\n" : " in place of the library\n");
  for (const SpecializedFunction &F : D.specialized.functions) {
    Out << "  specialized " << F.function << " from " << F.spec << ": "
        << F.stats.instructionsEvaluated << " instructions evaluated, "
        << F.stats.branchesFolded << " branches folded, " << F.instructionsAfter
        << " instructions after clean-up";
    if (!F.checks.empty()) {
      Out << "; checked on entry:";
      for (const std::string &C : F.checks)
        Out << " " << C;
    }
    Out << "\n";
  }
  if (D.specialized.dispatch.calls)
    Out << formatv("  dispatch: {0} of {1} calls through a table's slot left with one target, "
                   "made direct (guarded)\n",
                   D.specialized.dispatch.madeDirect, D.specialized.dispatch.calls);
  if (!D.specialized.factsRelied.empty()) {
    Out << "  facts the specialized code relies on:";
    for (const std::string &F : D.specialized.factsRelied)
      Out << " " << F;
    Out << "\n";
  }
  if (Line && Before && After)
    Out << formatv("  code: {0} bytes in the library, {1} bytes in the variant ({2})\n", Before,
                   After,
                   After <= Before ? formatv("{0} saved", Before - After).str()
                                   : formatv("{0} more", After - Before).str());
}

void printClient(raw_ostream &Out, const Client &C) {
  auto Properties = C.properties();
  if (Properties.empty())
    Out << "properties: none disclosed\n";
  for (auto &[Name, Files] : Properties) {
    Out << "property " << Name << ": disclosed by";
    for (const std::string &F : Files)
      Out << " " << F;
    Out << "\n";
  }
  for (auto &[File, Why] : C.unread())
    Out << "unread: " << File << " (" << Why << "): it counts as referencing every symbol\n";
}

std::string shellQuoted(const std::vector<std::string> &Args) {
  std::string Text;
  for (const std::string &A : Args) {
    if (!Text.empty())
      Text += ' ';
    bool Plain = !A.empty() && A.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
                                                   "QRSTUVWXYZ0123456789-_./=,:+@%") ==
                                   std::string::npos;
    if (Plain) {
      Text += A;
      continue;
    }
    Text += '\'';
    for (char C : A)
      Text += C == '\'' ? std::string("'\\''") : std::string(1, C);
    Text += '\'';
  }
  return Text;
}

} // namespace

int runLink(const LinkOptions &Options, raw_ostream &Out) {
  std::vector<std::string> RulesFiles = Options.rulesFiles;
  if (const char *Env = getenv("RESPEC_LINK_RULES")) {
    SmallVector<StringRef, 4> Parts;
    StringRef(Env).split(Parts, ':', -1, false);
    for (StringRef P : Parts)
      RulesFiles.push_back(P.str());
  }
  std::unique_ptr<LinkLine> Line;
  if (Options.program.empty()) {
    Line = std::make_unique<LinkLine>(parseLinkLine(Options.command));
    for (const LinkInput &In : Line->inputs)
      if (std::string Beside = rulesBeside(In.path); !Beside.empty())
        RulesFiles.push_back(Beside);
  }
  std::vector<Decision> Decisions;
  std::set<std::string> Loaded;
  for (const std::string &File : RulesFiles) {
    SmallString<256> Real;
    if (!sys::fs::real_path(File, Real) && !Loaded.insert(Real.str().str()).second)
      continue;
    Decision D;
    D.rules = loadRules(File);
    for (const Decision &Other : Decisions)
      if (StringRef(Other.rules->library) == D.rules->library)
        throw SpecError(File, std::string("a second rules file for library ") +
                                  D.rules->library + " (the first: " + Other.rules->path + ")");
    Decisions.push_back(std::move(D));
  }

  std::vector<const link_rules *> Excluded;
  for (const Decision &D : Decisions)
    Excluded.push_back(D.rules.get());
  std::vector<std::string> NeededDirs = Line ? Line->searchDirs : std::vector<std::string>{};
  for (const std::string &Dir : systemLibraryDirs())
    NeededDirs.push_back(Dir);
  Client Who(Excluded, NeededDirs);
  if (Line) {
    for (size_t I = 0; I < Line->inputs.size(); ++I) {
      const LinkInput &In = Line->inputs[I];
      bool Decided = false;
      for (Decision &D : Decisions)
        if (link_rules_names_library(D.rules.get(), In.spelling.c_str()) ||
            (!In.path.empty() && link_rules_names_library(D.rules.get(), In.path.c_str()))) {
          D.inputs.push_back(I);
          Decided = true;
        }
      if (!In.path.empty())
        Who.addFile(In.path); // a decided library's file: for what it references
      else if (!Decided)
        Who.addUnread(In.spelling, "no library directory holds it");
    }
    for (const std::string &Input : Line->driverInputs) {
      if (StringRef(Input).startswith("-l"))
        Who.addUnread(Input, "the compiler driver links it, and no library directory holds it");
      else
        Who.addFile(Input);
    }
    if (!Line->driverProblem.empty())
      Who.addUnread("the compiler driver's own libraries", Line->driverProblem);
    for (auto &[Symbol, Argument] : Line->linkerSymbols)
      Who.addReference(Symbol, Argument);
    for (const std::string &Arg : Line->linkerInputs)
      Who.addUnread(Arg, "an input given to the linker itself, which respec link does not read");
  } else {
    if (!sys::fs::exists(Options.program))
      throw SpecError(Options.program, "no such program");
    Who.addFile(Options.program, /*IsProgram=*/true);
  }
  for (const std::string &P : Options.properties)
    Who.addProperty(P, "--property");

  link_client Callbacks = Who.callbacks();
  WorkDirectory Work;
  for (Decision &D : Decisions) {
    Who.judge(D.rules.get());
    D.facts.resize(link_rules_fact_count(D.rules.get()));
    D.facts.resize(link_rules_evaluate(D.rules.get(), &Callbacks, D.facts.data()));
    D.unmet.assign(D.rules->variant_count, nullptr);
    D.chosen = link_rules_choose(D.rules.get(), D.facts.data(), D.facts.size(), &Callbacks,
                                 D.unmet.data());
    if (!D.chosen || (Line && D.inputs.empty() && !D.rules->implicit))
      continue;
    if (D.chosen->bitcode && Line) {
      std::set<std::string> Facts;
      for (const link_fact_outcome &F : D.facts)
        if (F.holds)
          Facts.insert(F.fact);
      for (auto &[Property, Files] : Who.properties())
        Facts.insert(Property);
      std::string Object = Work.path() + "/lib" + D.rules->library + "-" + D.chosen->name + ".o";
      if (Options.verbose)
        errs() << "respec link: specializing " << D.rules->library << " for this program ("
               << D.chosen->name << ")\n";
      // A shared library's exports are for programs not linked yet, and a
      // program's dynamic exports for dlsym and modules: then all stay.
      std::optional<std::set<std::string>> Exports;
      if (!Line->exportsEverything)
        Exports = Who.exportsNeeded(D.rules.get());
      D.specialized = specializeLibrary(*D.rules, *D.chosen, Facts,
                                        Exports ? &*Exports : nullptr, Object);
      D.replacement = {Object};
    } else {
      D.replacement.assign(D.chosen->link, D.chosen->link + D.chosen->link_count);
    }
  }

  if (Options.explain || !Line) {
    printClient(Out, Who);
    for (const Decision &D : Decisions)
      printDecision(Out, D, Line.get());
  }
  if (!Line)
    return 0;

  // The command with each decided library's arguments replaced, in place.
  std::vector<std::string> Command;
  std::vector<const std::vector<std::string> *> ReplaceAt(Line->arguments.size(), nullptr);
  std::vector<size_t> Skip(Line->arguments.size(), 0);
  // A library named twice (link lines repeat archives for cycles) gets its
  // variant once, where it was first named.
  static const std::vector<std::string> Nothing;
  for (const Decision &D : Decisions)
    for (size_t In : D.inputs)
      if (D.chosen) {
        ReplaceAt[Line->inputs[In].first] = In == D.inputs.front() ? &D.replacement : &Nothing;
        Skip[Line->inputs[In].first] = Line->inputs[In].count;
      }
  for (size_t I = 0; I < Line->arguments.size(); ++I) {
    if (!ReplaceAt[I]) {
      Command.push_back(Line->arguments[I]);
      continue;
    }
    Command.insert(Command.end(), ReplaceAt[I]->begin(), ReplaceAt[I]->end());
    I += Skip[I] - 1;
  }
  // After every input, so that the implicit library's own comes after them.
  for (const Decision &D : Decisions)
    if (D.rules->implicit && D.chosen && D.inputs.empty())
      Command.insert(Command.end(), D.replacement.begin(), D.replacement.end());
  if (Options.verbose || Options.dryRun)
    Out << "link: " << shellQuoted(Command) << "\n";
  if (Options.dryRun)
    return 0;
  Out.flush();
  ErrorOr<std::string> Program = sys::findProgramByName(Command[0]);
  if (!Program)
    throw SpecError("", "cannot find the link command's program '" + Command[0] + "'");
  std::vector<StringRef> Args(Command.begin(), Command.end());
  std::string Error;
  int Status = sys::ExecuteAndWait(*Program, Args, std::nullopt, {}, 0, 0, &Error);
  if (Status < 0)
    throw SpecError("", "cannot run " + Command[0] + ": " + Error);
  return Status;
}

} // namespace respec::link
