//===- CallEffects.cpp - Points-to analysis of a residual call's callee ------===//
//
// The abstract state is one points-to set per SSA value of the functions
// analyzed (integers too: a pointer may pass through ptrtoint, arithmetic and
// back), one per function's return, and the contents stored into each
// location: per caller object, stack slot or heap block of the callee side (a
// slot stands for that slot of every activation at once), by byte offset. A
// load reads what the caller's cells held at the call (MemoryState) and
// everything the callee side stored there; from memory that pointers the
// analysis does not follow may reach (an object escaped at the call, or
// memory whose address was stored through such a pointer), also everything
// stored through them. A pointer walking a block (p++ in a loop) gains an
// offset on every pass: past MaxOffsets offsets into one block, it points
// anywhere in it. The analysis iterates over all instructions of all
// functions reached until nothing grows; it is flow-insensitive, so it holds
// for every order the callee runs in and for every activation of a recursion.
//
//===----------------------------------------------------------------------===//
#include "CallEffects.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include <climits>
#include <tuple>

using namespace llvm;

namespace respec {

namespace {

constexpr int64_t AnyOffset = INT64_MIN;

/// Where a pointer may point.
struct Location {
  enum Kind : uint8_t {
    Unknown,   ///< memory the caller does not track precisely
    Object,    ///< a caller object (ObjectTable)
    Stack,     ///< a stack slot of the callee side (an alloca)
    Heap,      ///< memory the callee side allocates (a malloc call)
    Function,  ///< a function's address
  };
  Kind kind = Unknown;
  ObjectId object = 0;
  const Value *site = nullptr; ///< Stack, Heap: the allocation; Function
  int64_t offset = 0;          ///< Object, Stack, Heap: byte offset, or AnyOffset

  auto key() const { return std::tie(kind, object, site, offset); }
  bool operator<(const Location &O) const { return key() < O.key(); }
  static Location unknown() { return {}; }
  /// Memory whose bytes the analysis tells apart by offset.
  bool isMemory() const { return kind == Object || kind == Stack || kind == Heap; }
};
using PointsTo = std::set<Location>;

/// A memory location stored into: an object, a stack slot or a heap block.
using StorageKey = std::tuple<Location::Kind, ObjectId, const Value *>;

struct StoredRange {
  uint64_t size = 0;
  PointsTo values;
};

struct GiveUp {};

class EffectsAnalysis {
public:
  EffectsAnalysis(const MemoryState &Memory, ObjectTable &Objects, const DataLayout &Layout,
                  const ExternalFacts &Facts, const TargetLibraryInfo &Library, uint64_t WorkLimit)
      : memory(Memory), objects(Objects), layout(Layout), facts(Facts), libraryInfo(Library),
        workLimit(WorkLimit) {}

  CallEffects run(const llvm::Function &Callee, ArrayRef<AbstractValue> Args) {
    reach(Callee);
    for (unsigned A = 0; A < Callee.arg_size() && A < Args.size(); ++A)
      join(values[Callee.getArg(A)], fromAbstract(Args[A]));
    for (bool Changed = true; Changed;) {
      changed = false;
      for (size_t F = 0; F < functions.size(); ++F)
        for (const Instruction &I : instructions(*functions[F]))
          visit(I);
      Changed = changed;
    }
    for (const Location &L : returns[&Callee])
      if (L.kind == Location::Object)
        effects.escapes.insert(L.object);
    return std::move(effects);
  }

private:
  const MemoryState &memory;
  ObjectTable &objects;
  const DataLayout &layout;
  const ExternalFacts &facts;
  const TargetLibraryInfo &libraryInfo;
  uint64_t workLimit, work = 0;

  std::vector<const llvm::Function *> functions;
  std::set<const llvm::Function *> reached;
  std::map<const Value *, PointsTo> values;
  std::map<const Constant *, PointsTo> constants; ///< fromConstant, memoized
  std::map<const llvm::Function *, PointsTo> returns;
  std::map<StorageKey, std::map<int64_t, StoredRange>> stored;
  /// What was stored through Unknown pointers, by access type.
  std::map<const MDNode *, PointsTo> storedThroughUnknown;
  std::set<StorageKey> reachedFromUnknown; ///< memory whose address was stored there
  CallEffects effects;
  bool changed = false;

  void reach(const llvm::Function &F) {
    if (F.isVarArg())
      throw GiveUp(); // va_arg reads the caller's argument area
    if (reached.insert(&F).second)
      functions.push_back(&F);
  }

  bool join(PointsTo &Into, const PointsTo &From) {
    bool Grew = false;
    for (const Location &L : From) {
      if (L.isMemory() && L.offset != AnyOffset && Into.count(anywhereIn(L)))
        continue; // subsumed
      Grew |= Into.insert(L).second;
    }
    if (Grew)
      widen(Into);
    changed |= Grew;
    return Grew;
  }

  static Location anywhereIn(Location L) {
    L.offset = AnyOffset;
    return L;
  }

  /// Past MaxOffsets offsets into one block, a set points anywhere in it, so
  /// that a pointer walking memory converges.
  static void widen(PointsTo &P) {
    std::map<StorageKey, unsigned> Offsets;
    for (const Location &L : P)
      if (L.isMemory() && L.offset != AnyOffset)
        ++Offsets[storageOf(L)];
    for (auto &[Key, Count] : Offsets) {
      if (Count <= MaxOffsets)
        continue;
      Location Any;
      for (auto It = P.begin(); It != P.end();) {
        if (It->isMemory() && It->offset != AnyOffset && storageOf(*It) == Key) {
          Any = anywhereIn(*It);
          It = P.erase(It);
        } else {
          ++It;
        }
      }
      P.insert(Any);
    }
  }
  static constexpr unsigned MaxOffsets = 8;

  static PointsTo anyOffset(const PointsTo &P) {
    PointsTo R;
    for (Location L : P) {
      if (L.isMemory())
        L.offset = AnyOffset;
      R.insert(L);
    }
    return R;
  }

  Location objectLocation(ObjectId Obj, int64_t Offset) {
    Location L;
    L.kind = Location::Object;
    L.object = Obj;
    L.offset = Offset;
    return L;
  }

  /// The locations a constant may point to: functions, globals plus a static
  /// offset; what it is built from otherwise.
  PointsTo fromConstant(const Constant *C) {
    PointsTo R;
    if (auto *F = dyn_cast<llvm::Function>(C)) {
      Location L;
      L.kind = Location::Function;
      L.site = F;
      R.insert(L);
      return R;
    }
    if (auto *G = dyn_cast<GlobalVariable>(C)) {
      R.insert(objectLocation(objects.forGlobal(const_cast<GlobalVariable *>(G), layout), 0));
      return R;
    }
    if (isa<GlobalValue>(C) || isa<BlockAddress>(C)) { // an alias, ifunc or label: not followed
      R.insert(Location::unknown());
      return R;
    }
    if (auto *Number = dyn_cast<ConstantInt>(C))
      return fromNumber(Number->getValue());
    if (auto *Data = dyn_cast<ConstantDataSequential>(C))
      return holdsNumber(*Data, 0, AnyOffset) ? PointsTo{Location::unknown()} : PointsTo{};
    if (auto *CE = dyn_cast<ConstantExpr>(C)) {
      if (auto *GEP = dyn_cast<GEPOperator>(CE))
        return offsetFrom(*GEP);
      if (CE->getOpcode() == Instruction::BitCast || CE->getOpcode() == Instruction::AddrSpaceCast)
        return fromConstant(CE->getOperand(0));
      if (CE->getOpcode() == Instruction::IntToPtr)
        return fromInteger(fromConstant(CE->getOperand(0)));
    }
    for (const Use &Op : C->operands())
      if (auto *Element = dyn_cast<Constant>(Op))
        for (const Location &L : anyOffset(fromConstant(Element)))
          R.insert(L);
    return R;
  }

  /// A pointer made from an integer: the pointer the integer came from, if it
  /// came from one (ptrtoint, arithmetic); else a plain number, such as an
  /// address in the program that run-time specialization folded into the
  /// residual code (HostMemory.cpp), which is memory the caller does not track
  /// precisely.
  static PointsTo fromInteger(PointsTo Integer) {
    if (Integer.empty())
      Integer.insert(Location::unknown());
    return Integer;
  }

  /// A plain number as wide as a pointer may be an address wherever it goes:
  /// run-time specialization folds the program's addresses into integers, and
  /// C code keeps handles in integers and unions. Only numbers within a page of
  /// zero are none (neither the first nor the last page is ever mapped): null,
  /// small counts and offsets, error codes, alignment masks. A narrower number
  /// is none either: a pointer made from it passes an inttoptr (fromInteger),
  /// and a pointer read over several narrow cells is not an exact cell
  /// (atCall). So an empty points-to set means "null, near it, or no address
  /// at all", and an access or call through it is undefined.
  PointsTo fromNumber(const APInt &Number) const {
    if (Number.getBitWidth() < layout.getPointerSizeInBits() ||
        Number.getSignificantBits() <= UnmappedBits)
      return {};
    return {Location::unknown()};
  }
  static constexpr unsigned UnmappedBits = 13; ///< signed: [-4096, 4095]

  /// Whether Data's bytes in [From, To) (To: AnyOffset for all) hold a number
  /// that may be an address (fromNumber), read a pointer's width at every
  /// element: raw bytes copied from the program, say, hold its pointers.
  bool holdsNumber(const ConstantDataSequential &Data, int64_t From, int64_t To) const {
    StringRef Bytes = Data.getRawDataValues();
    int64_t Width = layout.getPointerSize();
    int64_t Stride = std::min<int64_t>(Data.getElementByteSize(), Width);
    for (int64_t At = 0; At + Width <= int64_t(Bytes.size()); At += Stride) {
      if (To != AnyOffset && (At >= To || At + Width <= From))
        continue;
      APInt Word(Width * 8, 0);
      for (int64_t B = 0; B < Width; ++B) {
        unsigned Shift = 8 * (layout.isLittleEndian() ? B : Width - 1 - B);
        Word |= APInt(Width * 8, uint8_t(Bytes[At + B])) << Shift;
      }
      if (!fromNumber(Word).empty())
        return true;
    }
    return false;
  }

  /// Where a getelementptr points: its base moved by its offset. A pointer
  /// based on null (`&((char *)0)[n]`) accesses no object in LLVM's semantics,
  /// which the optimizer of the generic code assumes too: it points nowhere.
  PointsTo offsetFrom(const GEPOperator &GEP) {
    APInt Offset(layout.getIndexTypeSizeInBits(GEP.getType()), 0);
    bool Static = GEP.accumulateConstantOffset(layout, Offset);
    return shift(valueOf(GEP.getPointerOperand()), Static ? Offset.getSExtValue() : AnyOffset);
  }

  static PointsTo shift(const PointsTo &P, int64_t Delta) {
    PointsTo R;
    for (Location L : P) {
      if (L.isMemory() && L.offset != AnyOffset &&
          (Delta == AnyOffset || __builtin_add_overflow(L.offset, Delta, &L.offset)))
        L.offset = AnyOffset;
      R.insert(L);
    }
    return R;
  }

  PointsTo fromAbstract(const AbstractValue &V) {
    switch (V.kind) {
    case AbstractValue::Constant:
      return fromConstant(V.constant);
    case AbstractValue::ObjectPointer:
      return {objectLocation(V.object, V.offset)};
    case AbstractValue::ObjectPointerDyn:
      return {objectLocation(V.object, AnyOffset)};
    case AbstractValue::Dynamic:
      break;
    }
    // The escape rule: a dynamic value points to no private object.
    return {Location::unknown()};
  }

  /// V's points-to set so far (by reference: the analysis asks this for every
  /// operand of every instruction on every pass).
  const PointsTo &valueOf(const Value *V) {
    static const PointsTo Nothing;
    if (auto *C = dyn_cast<Constant>(V)) {
      auto It = constants.find(C);
      return It != constants.end() ? It->second : constants.emplace(C, fromConstant(C)).first->second;
    }
    if (isa<InlineAsm>(V))
      throw GiveUp();
    auto It = values.find(V);
    return It == values.end() ? Nothing : It->second;
  }

  //--- Memory ------------------------------------------------------------===//

  static StorageKey storageOf(const Location &L) { return {L.kind, L.object, L.site}; }

  /// Whether [Offset, Offset+Size) of O lies in memory declared static
  /// (respec_static_memory): it holds its initializer, forever.
  static bool declaredStatic(const ObjectTable::Object &O, int64_t Offset, uint64_t Size) {
    return Offset != AnyOffset && llvm::any_of(O.staticRanges, [&](auto &Range) {
             return Range.first <= Offset &&
                    Offset + int64_t(Size) <= Range.first + int64_t(Range.second);
           });
  }

  /// Whether [Offset, Offset+Size) of Obj holds its global's initializer for
  /// the whole call: declared static, or a constant the caller never stored to.
  bool holdsInitializer(ObjectId Obj, int64_t Offset, uint64_t Size) const {
    const ObjectTable::Object &Known = objects.get(Obj);
    return Known.global && Known.contents &&
           (declaredStatic(Known, Offset, Size) ||
            (Known.constantContents && !memory.objects.count(Obj)));
  }

  /// What a caller object held at the call, in [Offset, Offset+Size).
  PointsTo atCall(ObjectId Obj, int64_t Offset, uint64_t Size) {
    PointsTo R;
    if (holdsInitializer(Obj, Offset, Size)) {
      initializerContents(objects.get(Obj).contents, 0, Offset, Size, R);
      return R;
    }
    auto It = memory.objects.find(Obj);
    if (It == memory.objects.end()) {
      R.insert(Location::unknown()); // unknown history (MemoryState::object), or host memory's raw bytes
      return R;
    }
    bool Exact = false;
    for (auto &[CellOff, C] : It->second.cells) {
      bool Overlaps = Offset == AnyOffset ||
                      (CellOff < Offset + int64_t(Size) && Offset < CellOff + int64_t(C.size));
      if (!Overlaps)
        continue;
      for (const Location &L : fromAbstract(C.value))
        R.insert(L);
      Exact |= CellOff == Offset && C.size == Size && C.partialMask == 0;
    }
    if (!Exact) // bytes no cell tracks hold no private pointer (the escape rule)
      R.insert(Location::unknown());
    return R;
  }

  /// What the elements of a global's initializer C (at Base) overlapping
  /// [Offset, Offset+Size) point to.
  void initializerContents(const Constant *C, int64_t Base, int64_t Offset, uint64_t Size,
                           PointsTo &R) {
    uint64_t Bytes = layout.getTypeStoreSize(C->getType());
    if (Offset != AnyOffset && (Base >= Offset + int64_t(Size) || Offset >= Base + int64_t(Bytes)))
      return;
    if (isa<ConstantAggregateZero>(C) || isa<UndefValue>(C))
      return;
    if (auto *Data = dyn_cast<ConstantDataSequential>(C)) {
      bool All = Offset == AnyOffset;
      if (holdsNumber(*Data, All ? 0 : Offset - Base, All ? AnyOffset : Offset + int64_t(Size) - Base))
        R.insert(Location::unknown());
      return;
    }
    if (auto *S = dyn_cast<ConstantStruct>(C)) {
      const StructLayout *SL = layout.getStructLayout(S->getType());
      for (unsigned E = 0; E < S->getNumOperands(); ++E)
        initializerContents(S->getOperand(E), Base + int64_t(SL->getElementOffset(E)), Offset,
                            Size, R);
      return;
    }
    if (isa<ConstantArray>(C) || isa<ConstantVector>(C)) {
      for (unsigned E = 0; E < C->getNumOperands(); ++E) {
        auto *Element = cast<Constant>(C->getOperand(E));
        int64_t Stride = layout.getTypeAllocSize(Element->getType());
        initializerContents(Element, Base + E * Stride, Offset, Size, R);
      }
      return;
    }
    for (const Location &L : fromConstant(C))
      R.insert(L);
  }

  /// What Size bytes (0: unknown) at Address may hold, read with access type
  /// Tag (null: untyped).
  PointsTo load(const PointsTo &Address, uint64_t Size, const MDNode *Tag) {
    PointsTo R;
    for (const Location &L : Address) {
      switch (L.kind) {
      case Location::Unknown:
      case Location::Function:
        R.insert(Location::unknown());
        continue;
      case Location::Object:
        for (const Location &V : atCall(L.object, L.offset, Size))
          R.insert(V);
        break;
      case Location::Stack:
      case Location::Heap:
        break;
      }
      if (mayBeReachedFromUnknown(L, Size))
        for (auto &[StoreTag, Values] : storedThroughUnknown)
          if (accessTypesMayAlias(StoreTag, Tag))
            R.insert(Values.begin(), Values.end());
      auto Stored = stored.find(storageOf(L));
      if (Stored == stored.end())
        continue;
      for (auto &[Off, Range] : Stored->second) {
        bool Overlaps = Off == AnyOffset || L.offset == AnyOffset || Size == 0 ||
                        (Off < L.offset + int64_t(Size) && L.offset < Off + int64_t(Range.size));
        if (Overlaps)
          R.insert(Range.values.begin(), Range.values.end());
      }
    }
    return R;
  }

  /// A write of Size bytes (0: a size known only at run time) at Address,
  /// with access type Tag (null: untyped).
  void write(const PointsTo &Address, uint64_t Size, const MDNode *Tag) {
    for (const Location &L : Address) {
      if (L.kind == Location::Unknown || L.kind == Location::Function)
        effects.unknownWrites.insert(Tag);
      else if (L.kind == Location::Object && (L.offset == AnyOffset || Size == 0))
        effects.objects[L.object].somewhere.insert(Tag);
      else if (L.kind == Location::Object)
        effects.objects[L.object].ranges.insert({L.offset, Size, Tag});
    }
  }

  /// Values may now be in the Size bytes at Address (0: anywhere in it). A
  /// caller object they point to escapes unless they stay on the callee
  /// side's stack, which dies with the call.
  void holdContents(const PointsTo &Address, uint64_t Size, const MDNode *Tag,
                    const PointsTo &Values) {
    if (Values.empty())
      return;
    bool LeavesCallee = false, ReachedFromUnknown = false;
    for (const Location &L : Address) {
      LeavesCallee |= L.kind != Location::Stack;
      if (L.kind == Location::Unknown || L.kind == Location::Function) {
        ReachedFromUnknown = true; // the caller forgets it: what it held escapes (below)
        continue;
      }
      ReachedFromUnknown |= mayBeReachedFromUnknown(L, Size);
      int64_t Off = Size ? L.offset : AnyOffset;
      StoredRange &Range = stored[storageOf(L)][Off];
      Range.size = std::max(Range.size, Size);
      join(Range.values, Values);
    }
    if (LeavesCallee)
      for (const Location &V : Values)
        if (V.kind == Location::Object)
          effects.escapes.insert(V.object);
    if (ReachedFromUnknown) {
      join(storedThroughUnknown[Tag], Values);
      for (const Location &V : Values)
        if (V.isMemory() && reachedFromUnknown.insert(storageOf(V)).second)
          changed = true;
    }
  }

  /// Whether pointers the analysis does not follow may write the Size bytes
  /// at L: an object escaped at the call (or of unknown history) unless those
  /// bytes are fixed (declared static, or a constant), or memory whose address
  /// was stored where they reach.
  bool mayBeReachedFromUnknown(const Location &L, uint64_t Size) const {
    if (L.kind == Location::Object && !holdsInitializer(L.object, L.offset, Size)) {
      auto It = memory.objects.find(L.object);
      if (It == memory.objects.end() || It->second.escaped)
        return true;
    }
    return reachedFromUnknown.count(storageOf(L)) != 0;
  }

  void store(const PointsTo &Address, uint64_t Size, const MDNode *Tag, const PointsTo &Values) {
    write(Address, Size, Tag);
    holdContents(Address, Size, Tag, Values);
  }

  //--- Instructions ------------------------------------------------------===//

  void define(const Instruction &I, const PointsTo &P) { join(values[&I], P); }

  void visit(const Instruction &I) {
    if (++work > workLimit)
      throw GiveUp();
    if (auto *Alloca = dyn_cast<AllocaInst>(&I)) {
      Location L;
      L.kind = Location::Stack;
      L.site = Alloca;
      define(I, {L});
    } else if (auto *Load = dyn_cast<LoadInst>(&I)) {
      define(I, load(valueOf(Load->getPointerOperand()),
                     layout.getTypeStoreSize(Load->getType()), I.getMetadata(LLVMContext::MD_tbaa)));
    } else if (auto *Store = dyn_cast<StoreInst>(&I)) {
      store(valueOf(Store->getPointerOperand()),
            layout.getTypeStoreSize(Store->getValueOperand()->getType()),
            I.getMetadata(LLVMContext::MD_tbaa), valueOf(Store->getValueOperand()));
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      PointsTo Address = valueOf(RMW->getPointerOperand());
      uint64_t Size = layout.getTypeStoreSize(RMW->getType());
      define(I, load(Address, Size, nullptr));
      store(Address, Size, nullptr, anyOffset(valueOf(RMW->getValOperand())));
    } else if (auto *CmpXchg = dyn_cast<AtomicCmpXchgInst>(&I)) {
      PointsTo Address = valueOf(CmpXchg->getPointerOperand());
      uint64_t Size = layout.getTypeStoreSize(CmpXchg->getNewValOperand()->getType());
      define(I, load(Address, Size, nullptr));
      store(Address, Size, nullptr, valueOf(CmpXchg->getNewValOperand()));
    } else if (auto *GEP = dyn_cast<GEPOperator>(&I)) {
      define(I, offsetFrom(*GEP));
    } else if (isa<BitCastInst>(I) || isa<AddrSpaceCastInst>(I) || isa<PHINode>(I) ||
               isa<FreezeInst>(I) || isa<ExtractValueInst>(I) || isa<InsertValueInst>(I)) {
      for (const Use &Op : I.operands())
        define(I, valueOf(Op));
    } else if (auto *Select = dyn_cast<SelectInst>(&I)) {
      define(I, valueOf(Select->getTrueValue()));
      define(I, valueOf(Select->getFalseValue()));
    } else if (auto *Return = dyn_cast<ReturnInst>(&I)) {
      if (Value *V = Return->getReturnValue())
        join(returns[I.getFunction()], valueOf(V));
    } else if (auto *Call = dyn_cast<CallBase>(&I)) {
      visitCall(*Call);
    } else if (isa<VAArgInst>(I)) {
      throw GiveUp();
    } else if (auto *Cast = dyn_cast<IntToPtrInst>(&I)) {
      define(I, fromInteger(anyOffset(valueOf(Cast->getOperand(0)))));
    } else if (isa<CastInst>(I) || isa<BinaryOperator>(I) || isa<UnaryOperator>(I) ||
               isa<CmpInst>(I) || isa<ExtractElementInst>(I) || isa<InsertElementInst>(I) ||
               isa<ShuffleVectorInst>(I)) {
      // A pointer through arithmetic or a vector keeps only its object.
      for (const Use &Op : I.operands())
        define(I, anyOffset(valueOf(Op)));
    } else if (!I.isTerminator() || I.mayWriteToMemory() || !I.getType()->isVoidTy()) {
      throw GiveUp(); // an instruction this analysis does not model (landingpad, fence, ...)
    }
  }

  PointsTo argumentsOf(const CallBase &Call) {
    PointsTo R;
    for (const Use &Arg : Call.args())
      for (const Location &L : anyOffset(valueOf(Arg)))
        R.insert(L);
    return R;
  }

  void visitCall(const CallBase &Call) {
    if (Call.isInlineAsm())
      throw GiveUp();
    if (auto *Intrinsic = dyn_cast<IntrinsicInst>(&Call)) {
      visitIntrinsic(*Intrinsic);
      return;
    }
    const Value *Operand = Call.getCalledOperand()->stripPointerCasts();
    if (auto *F = dyn_cast<llvm::Function>(Operand)) {
      callFunction(Call, *F);
      return;
    }
    // An empty set: the operand is null, near it (fromNumber) or based on it
    // (offsetFrom), and calling it is undefined.
    for (const Location &L : valueOf(Operand)) {
      if (L.kind != Location::Function)
        throw GiveUp(); // a call through a pointer the caller does not know
      callFunction(Call, *cast<llvm::Function>(L.site));
    }
  }

  void callFunction(const CallBase &Call, const llvm::Function &F) {
    if (F.isDeclaration()) {
      callExternal(Call, F);
      return;
    }
    // Through a pointer, C code may pass more arguments than the callee takes
    // (Sun RPC's `(*proc)(xdrs, loc, LASTUNSIGNED)`); it ignores them.
    if (Call.arg_size() < F.arg_size())
      throw GiveUp();
    reach(F);
    for (unsigned A = 0; A < F.arg_size(); ++A)
      join(values[F.getArg(A)], valueOf(Call.getArgOperand(A)));
    define(Call, returns[&F]);
  }

  /// Code respec cannot see: allocation and release, and what reads only
  /// and returns no pointer.
  void callExternal(const CallBase &Call, const llvm::Function &F) {
    LibFunc Which;
    bool Library = libraryInfo.getLibFunc(F, Which);
    if (Library && (Which == LibFunc_malloc || Which == LibFunc_calloc)) {
      Location L;
      L.kind = Location::Heap;
      L.site = &Call;
      define(Call, {L});
      return;
    }
    if (Library && Which == LibFunc_free)
      return; // the block is the callee side's or the caller's to release
    Type *Result = Call.getType();
    bool ReturnsNoPointer = Result->isVoidTy() || Result->isFloatingPointTy() ||
                            (Result->isIntegerTy() &&
                             Result->getIntegerBitWidth() < layout.getPointerSizeInBits());
    const ExternalFact *Fact = facts.about(&F);
    if (Fact && ReturnsNoPointer)
      return; // RESPEC_PURE or stable: reads only, by the spec's contract
    if (Call.onlyReadsMemory() && ReturnsNoPointer)
      return;
    if (Library && (Which == LibFunc_strlen || Which == LibFunc_strnlen ||
                    Which == LibFunc_strcmp || Which == LibFunc_strncmp ||
                    Which == LibFunc_memcmp || Which == LibFunc_bcmp))
      return; // the C library's: they read only and return no address
    if (Library && writesOnlyItsStream(Call, Which)) {
      effects.unknownWrites.insert(nullptr); // the FILE, errno
      return;
    }
    throw GiveUp();
  }

  /// The C library's output to a stream (an error message on a path that
  /// fails): it writes the FILE and errno, none of the caller's objects,
  /// unless a format has a %n conversion.
  static bool writesOnlyItsStream(const CallBase &Call, LibFunc Which) {
    switch (Which) {
    case LibFunc_fputs:
    case LibFunc_puts:
    case LibFunc_fputc:
    case LibFunc_putc:
    case LibFunc_putchar:
    case LibFunc_fwrite:
    case LibFunc_perror:
    case LibFunc_fflush:
      return true;
    case LibFunc_printf:
      return formatWritesNothing(Call.getArgOperand(0));
    case LibFunc_fprintf:
      return formatWritesNothing(Call.getArgOperand(1));
    default:
      return false;
    }
  }

  /// Whether Format is a constant string with no %n conversion.
  static bool formatWritesNothing(const Value *Format) {
    StringRef Text;
    if (!getConstantStringInfo(Format, Text))
      return false;
    for (size_t At = Text.find('%'); At != StringRef::npos; At = Text.find('%', At)) {
      At = Text.find_first_not_of("-+ #0123456789.*'hlLqjzt", At + 1);
      if (At == StringRef::npos)
        return true;
      if (Text[At++] == 'n')
        return false;
    }
    return true;
  }

  void visitIntrinsic(const IntrinsicInst &I) {
    switch (I.getIntrinsicID()) {
    case Intrinsic::memcpy:
    case Intrinsic::memcpy_inline:
    case Intrinsic::memmove: {
      auto &Transfer = cast<MemTransferInst>(I);
      auto *Length = dyn_cast<ConstantInt>(Transfer.getLength());
      uint64_t Size = Length ? Length->getZExtValue() : 0;
      PointsTo Destination = valueOf(Transfer.getRawDest());
      write(Destination, Size, nullptr);
      // What the bytes copied hold may land anywhere in the destination.
      holdContents(anyOffset(Destination), 0, nullptr,
                   load(anyOffset(valueOf(Transfer.getRawSource())), 0, nullptr));
      return;
    }
    case Intrinsic::memset: {
      auto &Set = cast<MemSetInst>(I);
      auto *Length = dyn_cast<ConstantInt>(Set.getLength());
      uint64_t Size = Length ? Length->getZExtValue() : 0;
      PointsTo Destination = valueOf(Set.getRawDest());
      write(Destination, Size, nullptr);
      // Bytes other than zero make numbers that may be addresses (fromNumber).
      auto *Byte = dyn_cast<ConstantInt>(Set.getValue());
      if (!Byte || !Byte->isZero())
        holdContents(Destination, Size, nullptr, {Location::unknown()});
      return;
    }
    case Intrinsic::vastart:
    case Intrinsic::vacopy:
    case Intrinsic::vaend:
      throw GiveUp();
    default:
      break;
    }
    if (I.isAssumeLikeIntrinsic() || I.isLifetimeStartOrEnd() || I.doesNotAccessMemory()) {
      if (I.getType()->isVoidTy())
        return;
      // A pointer from no argument is a register's (the thread pointer, a
      // frame address): memory the caller does not track precisely.
      PointsTo Result = argumentsOf(I);
      if (Result.empty() && I.getType()->isPtrOrPtrVectorTy())
        Result.insert(Location::unknown());
      define(I, Result);
      return;
    }
    throw GiveUp();
  }
};

} // namespace

std::optional<CallEffects> analyzeCallEffects(const llvm::Function &Callee,
                                              ArrayRef<AbstractValue> Args,
                                              const MemoryState &Memory, ObjectTable &Objects,
                                              const DataLayout &Layout,
                                              const ExternalFacts &Facts,
                                              const TargetLibraryInfo &Library,
                                              uint64_t WorkLimit) {
  try {
    EffectsAnalysis Analysis(Memory, Objects, Layout, Facts, Library, WorkLimit);
    return Analysis.run(Callee, Args);
  } catch (GiveUp &) {
    return std::nullopt;
  }
}

} // namespace respec
