//===- ValueProfilePass.cpp - Value-profiling instrumentation (a clang plugin) -===//
//
// What it does. Finds the facts worth a spec by watching a program run: clang
// loads this pass (`-fpass-plugin=librespec-profile-pass.so`, what `respec
// profile --cflags` prints) and it instruments each function of the program so
// that librespec-profile (profile/runtime) records, while the user's workload
// runs:
//
//   call    how often the function is entered;
//   param   the values of each integer or pointer parameter (pointers name
//           objects: the report ranks only integers, and what is behind them);
//   field   the values loaded through a parameter at a constant access path
//           (`xdrs->x_op`, `xdrs->x_ops->x_putlong`: up to MaxDerefs loads deep);
//   region  the loads through a parameter at a run-time offset (a program an
//           interpreter walks: `pc[i].code`), per offset from the parameter:
//           whether each offset always reads the same value;
//   write   the stores to each struct field, by its TBAA access tag (base type
//           and offset), in every function: a predicate on a field costs a
//           guard at each of them (the field and write sites share the key);
//   block   how often each basic block runs, with the source lines of its
//           instructions: the instructions each line executed, which the
//           report weighs with the partial evaluator's binding times to
//           predict a speedup;
//   branch  how often each conditional branch went each way: the report's
//           estimate of the mispredictions of the branches specialization
//           leaves (a branch that goes either way unpredictably stalls the
//           generic and the specialized code alike).
//
// The sketches (top values, changes, per-offset stability) are the runtime's;
// `respec profile report` ranks them (profile/ProfileReport.h).
//
// Why at the start of the pipeline, after SROA: functions are still the
// source's (not yet inlined into their callers), and parameters are SSA values
// rather than stack slots, so an access path is a chain of constant GEPs and
// loads from an Argument. The instrumentation is then optimized with the code.
// Functions clang marks optnone (-O0) are left alone: profile with -O1 or more.
//
// Knobs (environment, read when clang loads the plugin):
//   RESPEC_PROFILE_MODE=calls        only call counts (a first, cheap profile)
//   RESPEC_PROFILE_FUNCTIONS=a,b,... values only in these functions (calls and
//                                    writes everywhere)
//
// What the instrumented code does inline, so that a profiled run stays within a
// small factor of the program's speed: a call, a write or a block adds one to
// its site's counter, a branch to the counter of the way it went (a plain load
// and store: an increment lost to a concurrent one is a sampling error, not a
// data race in LLVM's memory model); a value or
// region observation counts down its site's countdown and calls the runtime
// only when it runs out. The runtime then records the observation with the
// weight of the observations it stands for and sets the next countdown: every
// observation of a site's first 1,024, then about one in 64, randomized
// (profile/runtime/profile_runtime.c).
//
// Each site has a descriptor string (tab-separated: kind, function, file:line,
// the C expression, its term, its C type), two counter words and a state slot
// the runtime fills when the module's constructor registers them (null before:
// the observation is not recorded). A call site's descriptor also holds the
// function's C prototype and its source; one more record per module holds the
// source's path, directory and command line (with -frecord-command-line), so
// that the report can compile a spec beside the source to measure a candidate.
//
//===----------------------------------------------------------------------===//
#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include <map>
#include <optional>

using namespace llvm;

namespace {

/// Loads followed from a parameter to a field site (xdrs->x_ops->x_putlong: 1).
constexpr unsigned MaxDerefs = 2;

/// One step of an access path: the offset added to the pointer so far, then,
/// unless it is the last step, the pointer loaded from there.
struct PathStep {
  int64_t offset;
  const DIType *type; ///< the pointee's type at this step, when debug info says
};

/// Where a load's address comes from: parameter `argument`, then the steps.
/// `dynamicOffset`: the last step adds a run-time offset (a region site).
struct AccessPath {
  const Argument *argument = nullptr;
  SmallVector<int64_t, 3> offsets;
  bool dynamicOffset = false;
};

/// Strips casts and constant GEPs from V, adding their offsets to Offset.
const Value *stripConstantOffsets(const Value *V, int64_t &Offset, const DataLayout &DL) {
  while (true) {
    if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      APInt Step(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      if (!GEP->accumulateConstantOffset(DL, Step))
        return V;
      Offset += Step.getSExtValue();
      V = GEP->getPointerOperand();
    } else if (auto *Cast = dyn_cast<BitCastOperator>(V)) {
      V = Cast->getOperand(0);
    } else {
      return V;
    }
  }
}

/// The parameter every definition V may come from is an offset of (through
/// GEPs of any index, phis and selects), if there is one: an interpreter's `pc`
/// that starts at a parameter and moves by instructions.
const Argument *onlyArgumentBehind(const Value *V) {
  const Argument *Root = nullptr;
  SmallPtrSet<const Value *, 16> Seen;
  SmallVector<const Value *, 16> Work = {V};
  while (!Work.empty()) {
    const Value *Cur = Work.pop_back_val();
    if (!Seen.insert(Cur).second)
      continue;
    if (auto *A = dyn_cast<Argument>(Cur)) {
      if (Root && Root != A)
        return nullptr;
      Root = A;
    } else if (auto *GEP = dyn_cast<GEPOperator>(Cur)) {
      Work.push_back(GEP->getPointerOperand());
    } else if (auto *Phi = dyn_cast<PHINode>(Cur)) {
      Work.append(Phi->op_begin(), Phi->op_end());
    } else if (auto *Select = dyn_cast<SelectInst>(Cur)) {
      Work.append({Select->getTrueValue(), Select->getFalseValue()});
    } else if (auto *Cast = dyn_cast<BitCastOperator>(Cur)) {
      Work.push_back(Cast->getOperand(0));
    } else {
      return nullptr;
    }
  }
  return Root;
}

/// The access path of a load's address, if it starts at a parameter.
std::optional<AccessPath> accessPath(const Value *Address, const DataLayout &DL,
                                     unsigned Depth = 0) {
  int64_t Offset = 0;
  const Value *Base = stripConstantOffsets(Address, Offset, DL);
  if (auto *A = dyn_cast<Argument>(Base)) {
    AccessPath Path;
    Path.argument = A;
    Path.offsets.push_back(Offset);
    return Path;
  }
  if (auto *Load = dyn_cast<LoadInst>(Base); Load && Depth < MaxDerefs && !Load->isVolatile()) {
    std::optional<AccessPath> Path = accessPath(Load->getPointerOperand(), DL, Depth + 1);
    if (!Path || Path->dynamicOffset)
      return std::nullopt;
    Path->offsets.push_back(Offset);
    return Path;
  }
  if (Depth == 0)
    if (const Argument *A = onlyArgumentBehind(Base)) {
      AccessPath Path;
      Path.argument = A;
      Path.dynamicOffset = true;
      return Path;
    }
  return std::nullopt;
}

/// Each parameter's debug-info variable, by argument number (null where
/// unknown), found in one walk through the dbg.values SROA left: the one of
/// that very Argument, whole (a struct passed in two registers has a fragment
/// in each).
using ParameterVariables = SmallVector<const DILocalVariable *, 8>;
ParameterVariables parameterVariables(const Function &F) {
  ParameterVariables Variables(F.arg_size(), nullptr);
  for (const Instruction &I : instructions(F))
    if (auto *DVI = dyn_cast<DbgValueInst>(&I))
      if (auto *A = dyn_cast_or_null<Argument>(DVI->getValue());
          A && !Variables[A->getArgNo()] && DVI->getVariable()->getArg() != 0 &&
          !DVI->getExpression()->getFragmentInfo())
        Variables[A->getArgNo()] = DVI->getVariable();
  return Variables;
}

/// A parameter's C name, or argN without debug info.
std::string parameterName(const Argument &A, ArrayRef<const DILocalVariable *> Variables) {
  const DILocalVariable *Var = Variables[A.getArgNo()];
  return Var ? Var->getName().str() : "arg" + std::to_string(A.getArgNo());
}

/// Whether F's IR arguments are its C parameters, one for one: not when the
/// ABI added a hidden one (a struct returned through memory) or split or
/// copied one (a struct passed in registers or on the stack). Only such a
/// function's prototype can be written from its arguments (signature).
bool argumentsAreParameters(const Function &F) {
  const DISubprogram *SP = F.getSubprogram();
  if (!SP || !SP->getType() || SP->getType()->getTypeArray().size() != F.arg_size() + 1)
    return false;
  return llvm::none_of(F.args(), [](const Argument &A) {
    return A.hasStructRetAttr() || A.hasByValAttr() || A.hasInAllocaAttr() ||
           A.hasPreallocatedAttr();
  });
}

/// Whether the instrumentation may pass P to the runtime (its hooks take
/// pointers of address space 0).
bool inDefaultAddressSpace(const Value *P) {
  return P->getType()->getPointerAddressSpace() == 0;
}

/// The type behind typedefs and qualifiers.
const DIType *strip(const DIType *T) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    unsigned Tag = D->getTag();
    if (Tag != dwarf::DW_TAG_typedef && Tag != dwarf::DW_TAG_const_type &&
        Tag != dwarf::DW_TAG_volatile_type && Tag != dwarf::DW_TAG_restrict_type)
      break;
    T = D->getBaseType();
  }
  return T;
}

/// Whether a parameter is a C scalar (an integer, an enum, a pointer): a small
/// struct the ABI passes as one integer register is an argument of integer
/// type whose bits are the struct's, not a value a spec could state.
bool isScalarParameter(const DILocalVariable &Var) {
  const DIType *T = strip(Var.getType());
  auto *Composite = dyn_cast_or_null<DICompositeType>(T);
  return T && (!Composite || Composite->getTag() == dwarf::DW_TAG_enumeration_type);
}

/// C spelling of a debug-info type, for the report and draft specs. Function
/// pointers and arrays, which C spells around the name, are left as `void *`.
std::string cType(const DIType *T) {
  if (!T)
    return "void";
  if (auto *B = dyn_cast<DIBasicType>(T))
    return B->getName().str();
  if (auto *C = dyn_cast<DICompositeType>(T)) {
    const char *Kind = C->getTag() == dwarf::DW_TAG_union_type  ? "union "
                       : C->getTag() == dwarf::DW_TAG_enumeration_type ? "enum "
                       : C->getTag() == dwarf::DW_TAG_structure_type   ? "struct "
                                                                       : nullptr;
    return Kind && !C->getName().empty() ? Kind + C->getName().str() : "void";
  }
  auto *D = cast<DIDerivedType>(T);
  switch (D->getTag()) {
  case dwarf::DW_TAG_typedef:
    return D->getName().str();
  case dwarf::DW_TAG_const_type:
    return "const " + cType(D->getBaseType());
  case dwarf::DW_TAG_volatile_type:
    return "volatile " + cType(D->getBaseType());
  case dwarf::DW_TAG_pointer_type:
    if (isa_and_nonnull<DISubroutineType>(strip(D->getBaseType())))
      return "function pointer";
    return cType(D->getBaseType()) + " *";
  default:
    return cType(D->getBaseType());
  }
}

/// The struct or union member at byte Offset of T (the innermost, for nested
/// structs), with the offset left inside it; null without debug info.
const DIDerivedType *memberAt(const DIType *T, int64_t &Offset) {
  auto *C = dyn_cast_or_null<DICompositeType>(strip(T));
  if (!C || (C->getTag() != dwarf::DW_TAG_structure_type && C->getTag() != dwarf::DW_TAG_union_type))
    return nullptr;
  for (const DINode *E : C->getElements()) {
    auto *M = dyn_cast<DIDerivedType>(E);
    if (!M || M->getTag() != dwarf::DW_TAG_member || M->isBitField())
      continue;
    int64_t Start = M->getOffsetInBits() / 8, Size = M->getSizeInBits() / 8;
    if (Offset >= Start && Offset < Start + std::max<int64_t>(Size, 1)) {
      Offset -= Start;
      return M;
    }
  }
  return nullptr;
}

/// `xdrs->x_ops->x_putlong` for a field path, with the loaded value's C type;
/// `*(T *)((char *)p + 8)` where debug info does not name a step.
std::pair<std::string, std::string> describePath(const AccessPath &Path, const Type *Loaded,
                                                 const DataLayout &DL,
                                                 ArrayRef<const DILocalVariable *> Variables) {
  const DILocalVariable *Var = Variables[Path.argument->getArgNo()];
  std::string Expr = parameterName(*Path.argument, Variables);
  const DIType *T = Var ? Var->getType() : nullptr;
  std::string Bits = std::to_string(DL.getTypeSizeInBits(const_cast<Type *>(Loaded)));
  for (size_t Step = 0; Step < Path.offsets.size(); ++Step) {
    int64_t Offset = Path.offsets[Step];
    auto *Pointer = dyn_cast_or_null<DIDerivedType>(strip(T));
    const DIType *Pointee =
        Pointer && Pointer->getTag() == dwarf::DW_TAG_pointer_type ? Pointer->getBaseType() : nullptr;
    std::string Member;
    const DIType *Next = nullptr;
    int64_t Left = Offset;
    const DIType *Inside = Pointee;
    bool First = true;
    while (const DIDerivedType *M = memberAt(Inside, Left)) {
      Member += (First ? "->" : ".") + M->getName().str();
      First = false;
      Next = M->getBaseType();
      Inside = Next;
    }
    const DIType *Element = strip(Pointee); // null for `void *`
    uint64_t ElementSize = Element ? Element->getSizeInBits() / 8 : 0;
    // What this step loads: the value at the end, a pointer before it.
    uint64_t LoadedBits = Step + 1 == Path.offsets.size()
                              ? DL.getTypeSizeInBits(const_cast<Type *>(Loaded))
                              : DL.getPointerSizeInBits();
    bool Whole = ElementSize && ElementSize * 8 == LoadedBits;
    if (First && Offset == 0 && Whole) {
      Expr = "*" + Expr;
      Next = Pointee;
    } else if (First && Whole && Offset % int64_t(ElementSize) == 0) {
      // An element of an array of what is loaded: `argv[1]`.
      Expr += "[" + std::to_string(Offset / int64_t(ElementSize)) + "]";
      Next = Pointee;
    } else if (First || Left != 0 || !strip(Next) || strip(Next)->getSizeInBits() != LoadedBits) {
      // No member of the loaded size there: the bytes, as what is loaded.
      Expr = "*(uint" + (Step + 1 == Path.offsets.size() ? Bits : "64") + "_t *)((char *)" +
             Expr + " + " + std::to_string(Offset) + ")";
      Next = nullptr;
    } else {
      Expr += Member;
    }
    if (Expr.front() == '*' && Step + 1 != Path.offsets.size())
      Expr = "(" + Expr + ")";
    T = Next;
  }
  return {Expr, T ? cType(T) : Loaded->isPointerTy() ? "void *" : "uint" + Bits + "_t"};
}

/// F's C prototype from its debug info (`int f(int x, struct s * p)`), for
/// the specs the report writes; F's arguments must be its parameters
/// (argumentsAreParameters).
std::string signature(const Function &F, ArrayRef<const DILocalVariable *> Variables) {
  DITypeRefArray Types = F.getSubprogram()->getType()->getTypeArray(); // return type first
  auto Spell = [](const DIType *T) {
    std::string C = cType(T);
    return C == "function pointer" ? std::string("void *") : C;
  };
  std::string Text = Spell(Types[0]) + " " + F.getName().str() + "(";
  for (unsigned I = 1; I < Types.size(); ++I)
    Text += (I > 1 ? ", " : "") + Spell(Types[I]) + " " + parameterName(*F.getArg(I - 1), Variables);
  return Text + (Types.size() == 1 ? "void)" : ")");
}

/// The term a TBAA access tag names: "XDR+0" (base type, offset), or "".
std::string tbaaTerm(const Instruction &I) {
  const MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa);
  if (!Tag || Tag->getNumOperands() < 3)
    return "";
  auto *Base = dyn_cast<MDNode>(Tag->getOperand(0));
  auto *Offset = mdconst::dyn_extract<ConstantInt>(Tag->getOperand(2));
  if (!Base || !Offset || Base->getNumOperands() < 1)
    return "";
  auto *Name = dyn_cast<MDString>(Base->getOperand(0));
  // Scalar tags (a load of `int *`, not of a field) name no struct: no term.
  if (!Name || Base == Tag->getOperand(1) || Base->getNumOperands() < 3)
    return "";
  return Name->getString().str() + "+" + std::to_string(Offset->getZExtValue());
}

std::string location(const Instruction &I) {
  const DebugLoc &Loc = I.getDebugLoc();
  if (!Loc)
    return I.getFunction()->getSubprogram()
               ? I.getFunction()->getSubprogram()->getFilename().str() + ":" +
                     std::to_string(I.getFunction()->getSubprogram()->getLine())
               : "?";
  return cast<DIScope>(Loc.getScope())->getFilename().str() + ":" + std::to_string(Loc.getLine());
}

class ValueProfile {
public:
  explicit ValueProfile(Module &M) : M(M), DL(M.getDataLayout()), Ctx(M.getContext()) {
    const char *Mode = getenv("RESPEC_PROFILE_MODE");
    callsOnly = Mode && StringRef(Mode) == "calls";
    if (const char *List = getenv("RESPEC_PROFILE_FUNCTIONS")) {
      SmallVector<StringRef, 8> Names;
      StringRef(List).split(Names, ',', -1, false);
      for (StringRef Name : Names)
        selected.insert(Name.trim());
    }
  }

  bool run();

private:
  enum Kind { Call, Param, Field, Region, Write, Block, Branch, ModuleInfo };
  struct Site {
    std::string descriptor;
    Kind kind;
  };

  /// A new site; its index.
  unsigned addSite(Kind K, std::string Descriptor);
  /// Counts one event of site Index at B (a call, a write, a block's run): an
  /// increment of its counter, without a lock (under contention an increment
  /// may be lost).
  void countAt(IRBuilder<> &B, unsigned Index);
  /// Adds one to the counter word at Counter (the same way).
  void increment(IRBuilder<> &B, Value *Counter);
  /// Calls Hook(state, Arguments...) at B when site Index's countdown runs out
  /// (the runtime sets it: every observation at first, then one in a period).
  void sampleAt(IRBuilder<> &B, unsigned Index, FunctionCallee Hook, ArrayRef<Value *> Arguments);
  void instrumentFunction(Function &F);
  void countBlocks(Function &F);
  void countBranch(BranchInst &Br, const std::string &Function, StringRef File);
  void instrumentLoad(LoadInst &Load);
  void describeModule();
  void registerSites();
  FunctionCallee hook(StringRef Name, ArrayRef<Type *> Params);

  Module &M;
  const DataLayout &DL;
  LLVMContext &Ctx;
  bool callsOnly = false;
  StringSet<> selected;
  /// The translation unit's main file, absolute: what a spec includes to
  /// measure a candidate (profile/ProfileReport.cpp).
  std::string sourcePath;
  /// The debug-info variables of the parameters of the function being
  /// instrumented (parameterVariables), by argument number.
  ParameterVariables parameters;
  std::vector<Site> sites;
  /// Sites are appended before the arrays' sizes are known: their slots are
  /// GEPs into placeholders replaced in registerSites. States: the runtime's
  /// pointer per site. Counters: two words per site, its count of events (calls,
  /// writes, blocks) and its countdown to the next sampled observation; a
  /// branch's, its executions either way.
  GlobalVariable *statesPlaceholder = nullptr, *countersPlaceholder = nullptr;
};

FunctionCallee ValueProfile::hook(StringRef Name, ArrayRef<Type *> Params) {
  return M.getOrInsertFunction(Name, FunctionType::get(Type::getVoidTy(Ctx), Params, false));
}

unsigned ValueProfile::addSite(Kind K, std::string Descriptor) {
  static const char *Names[] = {"call", "param", "field", "region", "write", "block", "branch", "module"};
  sites.push_back({std::string(Names[K]) + "\t" + Descriptor, K});
  return sites.size() - 1;
}

void ValueProfile::countAt(IRBuilder<> &B, unsigned Index) {
  increment(B, B.CreateConstInBoundsGEP2_64(ArrayType::get(B.getInt64Ty(), 0), countersPlaceholder, 0,
                                            2 * Index));
}

void ValueProfile::increment(IRBuilder<> &B, Value *Counter) {
  Type *I64 = B.getInt64Ty();
  LoadInst *Count = B.CreateAlignedLoad(I64, Counter, Align(8));
  Count->setAtomic(AtomicOrdering::Monotonic);
  B.CreateAlignedStore(B.CreateAdd(Count, B.getInt64(1)), Counter, Align(8))
      ->setAtomic(AtomicOrdering::Monotonic);
}

void ValueProfile::sampleAt(IRBuilder<> &B, unsigned Index, FunctionCallee Hook,
                            ArrayRef<Value *> Arguments) {
  Type *I64 = Type::getInt64Ty(Ctx), *Ptr = PointerType::getUnqual(Ctx);
  Value *Countdown =
      B.CreateConstInBoundsGEP2_64(ArrayType::get(I64, 0), countersPlaceholder, 0, 2 * Index + 1);
  LoadInst *Left = B.CreateAlignedLoad(I64, Countdown, Align(8));
  Left->setAtomic(AtomicOrdering::Monotonic);
  Value *Next = B.CreateSub(Left, B.getInt64(1));
  B.CreateAlignedStore(Next, Countdown, Align(8))->setAtomic(AtomicOrdering::Monotonic);
  Value *Due = B.CreateICmpSLE(Next, B.getInt64(0));
  Instruction *SplitPoint = &*B.GetInsertPoint();
  Instruction *Then = SplitBlockAndInsertIfThen(Due, SplitPoint, false,
                                                MDBuilder(Ctx).createBranchWeights(1, 1000));
  B.SetInsertPoint(SplitPoint); // now at the head of the block after the check
  IRBuilder<> Cold(Then);
  Value *Slot = Cold.CreateConstInBoundsGEP2_64(ArrayType::get(Ptr, 0), statesPlaceholder, 0, Index);
  SmallVector<Value *, 4> Call = {Cold.CreateLoad(Ptr, Slot, "respec.profile.state")};
  Call.append(Arguments.begin(), Arguments.end());
  Cold.CreateCall(Hook, Call);
}

void ValueProfile::instrumentFunction(Function &F) {
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  // The function's own accesses, before the instrumentation adds its loads.
  SmallVector<Instruction *, 64> Accesses;
  for (Instruction &I : instructions(F))
    if (isa<LoadInst>(I) || isa<StoreInst>(I))
      Accesses.push_back(&I);
  if (!callsOnly)
    countBlocks(F);
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  std::string Where = F.getName().str() + "\t" +
                      (F.getSubprogram() ? F.getSubprogram()->getFilename().str() + ":" +
                                               std::to_string(F.getSubprogram()->getLine())
                                         : std::string("?"));
  bool CParameters = argumentsAreParameters(F);
  parameters = parameterVariables(F);
  countAt(B, addSite(Call, Where + "\t" + (CParameters ? signature(F, parameters) : "") + "\t" +
                               sourcePath + "\t"));
  // Value sites start at an argument whose C parameter debug info names (not a
  // hidden struct return, not a part of a struct the ABI split); its index is
  // the C one.
  bool Values = !callsOnly && (selected.empty() || selected.contains(F.getName()));
  if (Values)
    for (Argument &A : F.args()) {
      Type *T = A.getType();
      const DILocalVariable *Var = parameters[A.getArgNo()];
      if (!(T->isPointerTy() || (T->isIntegerTy() && T->getIntegerBitWidth() <= 64)) || !Var ||
          !isScalarParameter(*Var))
        continue;
      std::string Name = Var->getName().str(), Type = cType(Var->getType());
      Value *V = T->isPointerTy() ? B.CreatePtrToInt(&A, I64) : B.CreateZExt(&A, I64);
      sampleAt(B,
               addSite(Param, Where + "\t" + Name + "\t" + std::to_string(Var->getArg() - 1) + "\t" + Type),
               hook("__respec_profile_value", {Ptr, I64}), {V});
    }
  for (Instruction *I : Accesses) {
    if (auto *Store = dyn_cast<StoreInst>(I)) {
      if (callsOnly)
        continue;
      std::string Term = tbaaTerm(*Store);
      if (Term.empty())
        continue;
      IRBuilder<> SB(Store);
      countAt(SB, addSite(Write, F.getName().str() + "\t" + location(*Store) + "\t\t" + Term + "\t"));
    } else if (Values) {
      instrumentLoad(*cast<LoadInst>(I));
    }
  }
}

/// A counter per basic block, described by the instructions of each source line
/// in it ("12=3,13=1"), and two per conditional branch, before any
/// instrumentation is added (its own checks branch too). Lines are those of
/// F's own file (nothing is inlined yet), as the partial evaluator's listing
/// attributes them (pe/Report.cpp).
void ValueProfile::countBlocks(Function &F) {
  const DISubprogram *SP = F.getSubprogram();
  if (!SP)
    return;
  SmallString<256> File(SP->getFilename());
  if (!sys::path::is_absolute(File)) {
    File = SP->getDirectory();
    sys::path::append(File, SP->getFilename());
  }
  sys::fs::make_absolute(File);
  sys::path::remove_dots(File, /*remove_dot_dot=*/true);
  for (BasicBlock &BB : F) {
    std::map<unsigned, unsigned> Lines;
    for (const Instruction &I : BB)
      if (!isa<DbgInfoIntrinsic>(I) && !isa<PHINode>(I) && I.getDebugLoc() && I.getDebugLoc().getLine())
        ++Lines[I.getDebugLoc().getLine()];
    if (Lines.empty() || BB.getFirstInsertionPt() == BB.end())
      continue;
    std::string Histogram;
    for (auto [Line, Instructions] : Lines)
      Histogram += (Histogram.empty() ? "" : ",") + std::to_string(Line) + "=" + std::to_string(Instructions);
    IRBuilder<> B(&*BB.getFirstInsertionPt());
    countAt(B, addSite(Block, F.getName().str() + "\t" + File.str().str() + ":" +
                                  std::to_string(Lines.begin()->first) + "\t" +
                                  File.str().str() + "\t" + Histogram + "\t"));
    if (auto *Br = dyn_cast<BranchInst>(BB.getTerminator()); Br && Br->isConditional())
      countBranch(*Br, F.getName().str(), File);
  }
}

/// The site's first counter word counts the executions of Br that went to its
/// first successor (its condition true), the second those that went to the
/// other: an increment of the word the condition selects.
void ValueProfile::countBranch(BranchInst &Br, const std::string &Function, StringRef File) {
  const DebugLoc &Loc = Br.getDebugLoc();
  if (!Loc || !Loc.getLine())
    return;
  std::string Line = std::to_string(Loc.getLine());
  unsigned Index = addSite(Branch, Function + "\t" + File.str() + ":" + Line + "\t" + File.str() +
                                       "\t" + Line + "\t");
  IRBuilder<> B(&Br);
  Value *Word = B.CreateSelect(Br.getCondition(), B.getInt64(2 * Index), B.getInt64(2 * Index + 1));
  increment(B, B.CreateInBoundsGEP(B.getInt64Ty(), countersPlaceholder, Word));
}

void ValueProfile::instrumentLoad(LoadInst &Load) {
  Type *T = Load.getType();
  if (Load.isVolatile() || !(T->isPointerTy() || (T->isIntegerTy() && T->getIntegerBitWidth() <= 64)))
    return;
  std::optional<AccessPath> Path = accessPath(Load.getPointerOperand(), DL);
  if (!Path || !parameters[Path->argument->getArgNo()] ||
      !inDefaultAddressSpace(Load.getPointerOperand()) ||
      (Path->dynamicOffset && !inDefaultAddressSpace(Path->argument)))
    return;
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  IRBuilder<> B(Load.getNextNode());
  Value *V = T->isPointerTy() ? B.CreatePtrToInt(&Load, I64) : B.CreateZExt(&Load, I64);
  std::string Where = Load.getFunction()->getName().str() + "\t" + location(Load);
  if (Path->dynamicOffset) {
    const DILocalVariable *Var = parameters[Path->argument->getArgNo()];
    std::string Name = Var->getName().str(), Type = cType(Var->getType());
    sampleAt(B, addSite(Region, Where + "\t" + Name + "\t" + tbaaTerm(Load) + "\t" + Type),
             hook("__respec_profile_region", {Ptr, Ptr, Ptr, I64, I64}),
             {const_cast<Argument *>(Path->argument), Load.getPointerOperand(), V,
              B.getInt64(DL.getTypeStoreSize(T))});
    return;
  }
  auto [Expr, Type] = describePath(*Path, T, DL, parameters);
  sampleAt(B, addSite(Field, Where + "\t" + Expr + "\t" + tbaaTerm(Load) + "\t" + Type),
           hook("__respec_profile_value", {Ptr, I64}), {V});
}

void ValueProfile::registerSites() {
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  ArrayType *Slots = ArrayType::get(Ptr, sites.size());
  auto *States = new GlobalVariable(M, Slots, false, GlobalValue::InternalLinkage,
                                    Constant::getNullValue(Slots), "__respec_profile_states");
  statesPlaceholder->replaceAllUsesWith(States);
  statesPlaceholder->eraseFromParent();
  // Every countdown starts at 1: the first observation of each site is
  // recorded. A branch's second word counts, from 0.
  std::vector<Constant *> Words;
  for (const Site &S : sites)
    Words.insert(Words.end(), {ConstantInt::get(I64, 0), ConstantInt::get(I64, S.kind == Branch ? 0 : 1)});
  ArrayType *CounterWords = ArrayType::get(I64, Words.size());
  auto *Counters = new GlobalVariable(M, CounterWords, false, GlobalValue::InternalLinkage,
                                      ConstantArray::get(CounterWords, Words),
                                      "__respec_profile_counters");
  countersPlaceholder->replaceAllUsesWith(Counters);
  countersPlaceholder->eraseFromParent();
  std::vector<Constant *> Descriptors;
  for (const Site &S : sites)
    Descriptors.push_back(IRBuilder<>(Ctx).CreateGlobalStringPtr(S.descriptor, "", 0, &M));
  ArrayType *DescriptorArray = ArrayType::get(Ptr, Descriptors.size());
  auto *Table = new GlobalVariable(M, DescriptorArray, true, GlobalValue::PrivateLinkage,
                                   ConstantArray::get(DescriptorArray, Descriptors),
                                   "__respec_profile_descriptors");
  Function *Ctor = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                    GlobalValue::InternalLinkage, "__respec_profile_module_init", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
  B.CreateCall(hook("__respec_profile_register", {Ptr, Ptr, Ptr, I64}),
               {Table, States, Counters, B.getInt64(sites.size())});
  B.CreateRetVoid();
  // Before the program's own constructors (priority 0 runs first of the 65535
  // range user code gets), so that code they run is counted.
  appendToGlobalCtors(M, Ctor, 0);
}

/// The module record: its source, the directory it was compiled in and its
/// command line (clang records it with -frecord-command-line), so that the
/// report can compile a spec with the same flags.
void ValueProfile::describeModule() {
  SmallString<256> Directory;
  sys::fs::current_path(Directory);
  SmallString<256> Source(M.getSourceFileName());
  sys::fs::make_absolute(Directory, Source);
  sourcePath = Source.str().str();
  std::string CommandLine;
  if (NamedMDNode *Recorded = M.getNamedMetadata("llvm.commandline"))
    if (Recorded->getNumOperands() > 0)
      if (auto *Text = dyn_cast<MDString>(Recorded->getOperand(0)->getOperand(0)))
        CommandLine = Text->getString().str();
  for (char &C : CommandLine) // the descriptor's separators
    if (C == '\t' || C == '\n')
      C = ' ';
  addSite(ModuleInfo, sourcePath + "\t" + Directory.str().str() + "\t" + CommandLine + "\t\t");
}

bool ValueProfile::run() {
  describeModule();
  statesPlaceholder = new GlobalVariable(M, ArrayType::get(PointerType::getUnqual(Ctx), 0), false,
                                         GlobalValue::InternalLinkage, nullptr, "respec.profile.states");
  countersPlaceholder = new GlobalVariable(M, ArrayType::get(Type::getInt64Ty(Ctx), 0), false,
                                           GlobalValue::InternalLinkage, nullptr, "respec.profile.counters");
  for (Function &F : M) {
    // Naked functions have no frame for a call; the others opted out.
    if (F.isDeclaration() || F.hasOptNone() || F.hasFnAttribute(Attribute::Naked) ||
        F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation) ||
        F.getName().startswith("__respec_profile"))
      continue;
    instrumentFunction(F);
  }
  if (sites.size() == 1) { // the module record alone
    statesPlaceholder->eraseFromParent();
    countersPlaceholder->eraseFromParent();
    return false;
  }
  registerSites();
  // clang runs its pipeline without the verifier: a module broken here would
  // surface as a hang or a crash in code generation, far from its cause.
  if (verifyModule(M, &errs()))
    report_fatal_error("respec profile: the instrumentation broke the module (a bug in "
                       "librespec-profile-pass)");
  return true;
}

struct ValueProfilePass : PassInfoMixin<ValueProfilePass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return ValueProfile(M).run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "respec-value-profile", "1", [](PassBuilder &PB) {
            PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
              // Parameters out of their stack slots first: access paths start
              // at Arguments (the file comment says why).
              MPM.addPass(createModuleToFunctionPassAdaptor(SROAPass(SROAOptions::PreserveCFG)));
              MPM.addPass(ValueProfilePass());
            });
          }};
}
