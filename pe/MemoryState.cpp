//===- MemoryState.cpp - Partially-static memory and the escape rule ------===//
//
// Cell bookkeeping, the escape rule, writes and the meet of two memory states.
// See the header for the soundness argument. One invariant makes escaping cheap
// and safe to call anywhere: an object absent from a state is escaped (its
// history is unknown), so escape() never inserts and never invalidates a
// reference into the state.
//
//===----------------------------------------------------------------------===//
#include "MemoryState.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TypeBasedAliasAnalysis.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"

using namespace llvm;

namespace respec {

bool ObjectState::operator==(const ObjectState &O) const {
  if (escaped != O.escaped || cells.size() != O.cells.size())
    return false;
  for (auto A = cells.begin(), B = O.cells.begin(); A != cells.end(); ++A, ++B)
    if (A->first != B->first || !A->second.sameFact(B->second) ||
        A->second.value != B->second.value)
      return false;
  return true;
}

bool accessTypesMayAlias(const MDNode *A, const MDNode *B) {
  if (!A || !B)
    return true;
  // TBAA answers from the tags alone; the query's pointers and the AAResults it
  // is registered with are never consulted.
  static const TargetLibraryInfoImpl LibraryInfoImpl;
  static const TargetLibraryInfo LibraryInfo(LibraryInfoImpl);
  static AAResults NoOtherAnalyses(LibraryInfo);
  TypeBasedAAResult TBAA;
  SimpleAAQueryInfo Query(NoOtherAnalyses);
  AAMDNodes TagA, TagB;
  TagA.TBAA = const_cast<MDNode *>(A);
  TagB.TBAA = const_cast<MDNode *>(B);
  return TBAA.alias(MemoryLocation(nullptr, LocationSize::beforeOrAfterPointer(), TagA),
                    MemoryLocation(nullptr, LocationSize::beforeOrAfterPointer(), TagB),
                    Query, nullptr) != AliasResult::NoAlias;
}

ObjectState &MemoryState::object(ObjectId Obj) {
  auto [It, Inserted] = objects.try_emplace(Obj);
  if (Inserted)
    It->second.escaped = true; // unknown history: assume the worst
  return It->second;
}

bool MemoryState::isPrivate(ObjectId Obj) const {
  auto It = objects.find(Obj);
  return It != objects.end() && !It->second.escaped;
}

void MemoryState::allocate(ObjectId Obj) {
  ObjectState &O = objects[Obj];
  O.cells.clear();
  O.escaped = false;
}

//===-- The escape rule ---------------------------------------------------===//

void MemoryState::escape(ObjectId Obj) {
  auto It = objects.find(Obj);
  if (It == objects.end() || It->second.escaped)
    return; // absent objects are escaped already
  It->second.escaped = true;
  std::vector<ObjectId> Pointees;
  for (auto &[Off, C] : It->second.cells)
    if (C.value.refersToObject())
      Pointees.push_back(C.value.object);
  for (ObjectId P : Pointees)
    escape(P);
}

void MemoryState::escapeContents(ObjectId Obj, int64_t Off, uint64_t Size) {
  auto It = objects.find(Obj);
  if (It == objects.end())
    return;
  std::vector<ObjectId> Pointees;
  for (auto &[CellOff, C] : It->second.cells) {
    bool Overlaps = Off < CellOff + int64_t(C.size) &&
                    (Size == 0 || CellOff < Off + int64_t(Size));
    if (Overlaps && C.value.refersToObject())
      Pointees.push_back(C.value.object);
  }
  for (ObjectId P : Pointees)
    escape(P);
}

void MemoryState::closeEscapes() {
  std::vector<ObjectId> Pointees;
  for (auto &[Id, O] : objects)
    if (O.escaped)
      for (auto &[Off, C] : O.cells)
        if (C.value.refersToObject())
          Pointees.push_back(C.value.object);
  for (ObjectId P : Pointees)
    escape(P);
}

//===-- Writes ------------------------------------------------------------===//

void MemoryState::forgetRange(ObjectState &O, int64_t Off, uint64_t Size) {
  int64_t End = Off + int64_t(Size);
  auto It = O.cells.lower_bound(Off);
  // A cell starting before Off may still reach into the range.
  if (It != O.cells.begin()) {
    auto Prev = std::prev(It);
    if (Prev->first + int64_t(Prev->second.size) > Off)
      It = Prev;
  }
  std::vector<ObjectId> PartlyOverwritten;
  while (It != O.cells.end() && It->first < End) {
    bool Inside = It->first >= Off && It->first + int64_t(It->second.size) <= End;
    if (!Inside && It->second.value.refersToObject())
      PartlyOverwritten.push_back(It->second.value.object);
    It = O.cells.erase(It);
  }
  for (ObjectId P : PartlyOverwritten)
    escape(P);
}

void MemoryState::forgetAliasedFacts(const MDNode *AccessType, Value *ExceptRoot,
                                     AddressFloor Floor) {
  for (auto &[Root, Facts] : dynamicBases) {
    if (Root == ExceptRoot)
      continue;
    int64_t Below = Root == Floor.hostRoot ? Floor.lowest : AbstractValue::AnywhereInObject;
    for (auto It = Facts.cells.begin(); It != Facts.cells.end();)
      It = (It->second.pinned && !accessTypesMayAlias(AccessType, It->second.accessType)) ||
                   It->first + int64_t(It->second.size) <= Below
               ? std::next(It)
               : Facts.cells.erase(It);
  }
}

void MemoryState::writeObject(ObjectId Obj, int64_t Off, uint64_t Size,
                              std::optional<Cell> Written, const MDNode *AccessType) {
  ObjectState &O = object(Obj);
  forgetRange(O, Off, Size);
  if (Written) {
    if (O.escaped)
      escapeValue(Written->value);
    O.cells[Off] = *Written;
  }
  if (O.escaped) // the same bytes may be named through a dynamic pointer
    forgetAliasedFacts(AccessType, nullptr);
}

void MemoryState::forgetFrom(ObjectState &O, int64_t From) {
  std::vector<ObjectId> Pointees; // none of the cells is known to be wholly overwritten
  for (auto It = O.cells.begin(); It != O.cells.end();) {
    if (From >= It->first + int64_t(It->second.size)) {
      ++It;
      continue;
    }
    if (It->second.value.refersToObject())
      Pointees.push_back(It->second.value.object);
    It = O.cells.erase(It);
  }
  for (ObjectId P : Pointees)
    escape(P);
}

void MemoryState::writeSomewhereIn(ObjectId Obj, const MDNode *AccessType, int64_t From) {
  ObjectState &O = object(Obj);
  forgetFrom(O, From);
  if (O.escaped)
    forgetAliasedFacts(AccessType, nullptr);
}

void MemoryState::writeUnknown(const MDNode *AccessType) {
  for (auto &[Id, O] : objects)
    if (O.escaped)
      O.cells.clear(); // pointees are escaped already (the invariant)
  forgetAliasedFacts(AccessType, nullptr);
}

void MemoryState::forgetTyped(ObjectState &O, ArrayRef<const MDNode *> AccessTypes) {
  auto MayBeWritten = [&](const Cell &C) {
    return llvm::any_of(AccessTypes,
                        [&](const MDNode *T) { return accessTypesMayAlias(T, C.accessType); });
  };
  for (auto It = O.cells.begin(); It != O.cells.end();)
    It = MayBeWritten(It->second) ? O.cells.erase(It) : std::next(It);
}

void MemoryState::writeTyped(ArrayRef<ObjectId> Objects, ArrayRef<const MDNode *> AccessTypes) {
  for (ObjectId Obj : Objects) {
    escapeContents(Obj);
    forgetTyped(object(Obj), AccessTypes);
  }
  for (auto &[Id, O] : objects)
    if (O.escaped)
      forgetTyped(O, AccessTypes); // pointees are escaped already (the invariant)
  for (const MDNode *T : AccessTypes)
    forgetAliasedFacts(T, nullptr);
}

// A write that may happen leaves the old contents possibly in place: what
// the cells pointed to escapes before they are forgotten. An object the state
// has no record of has nothing to forget, and is escaped (object()): its bytes
// may be named through a dynamic pointer.
void MemoryState::mayWrite(ObjectId Obj, int64_t Off, uint64_t Size, const MDNode *AccessType) {
  auto It = objects.find(Obj);
  if (It != objects.end()) {
    escapeContents(Obj, Off, Size);
    forgetRange(It->second, Off, Size);
    if (!It->second.escaped)
      return;
  }
  forgetAliasedFacts(AccessType, nullptr);
}

void MemoryState::mayWriteSomewhere(ObjectId Obj, ArrayRef<const MDNode *> AccessTypes) {
  auto It = objects.find(Obj);
  if (It != objects.end()) {
    escapeContents(Obj);
    forgetTyped(It->second, AccessTypes);
    if (!It->second.escaped)
      return;
  }
  for (const MDNode *T : AccessTypes)
    forgetAliasedFacts(T, nullptr);
}

void MemoryState::writeBehindRoot(Value *Root, int64_t Off, uint64_t Size,
                                  std::optional<Cell> Written, const MDNode *AccessType,
                                  AddressFloor Floor) {
  for (auto &[Id, O] : objects)
    if (O.escaped)
      O.cells.clear();
  // Other offsets from the same root are other bytes.
  forgetAliasedFacts(AccessType, Root, Floor);
  ObjectState &Facts = dynamicBases[Root];
  if (Size == UnknownExtent)
    forgetFrom(Facts, Off);
  else
    forgetRange(Facts, Off, Size);
  if (Written) {
    escapeValue(Written->value);
    Facts.cells[Off] = *Written;
  }
}

void MemoryState::recordFact(ObjectState &O, int64_t Off, const Cell &Fact) {
  escapeValue(Fact.value); // the memory held it before anyone could track it
  forgetRange(O, Off, Fact.size);
  O.cells[Off] = Fact;
}

//===-- Meet ---------------------------------------------------------------===//

static ObjectState meetObject(const ObjectState &A, const ObjectState &B,
                              std::set<ObjectId> &Dropped, bool Widen) {
  ObjectState R;
  R.escaped = A.escaped || B.escaped;
  for (auto &[Off, CA] : A.cells) {
    auto It = B.cells.find(Off);
    const Cell *CB = It != B.cells.end() ? &It->second : nullptr;
    // A plain cell written through two different access paths keeps its value
    // and forgets its tag (a fact's tag is what it is about: it must agree).
    bool Same = CB && CA.size == CB->size && CA.partialMask == CB->partialMask &&
                (CA.accessType == CB->accessType || (!CA.pinned && !CB->pinned)) &&
                (CA.value.sameStatic(CB->value) || (CA.value.isDynamic() && CA.value == CB->value));
    // Two pointers into one object, or into the running program's memory,
    // each a whole plain cell: a pointer into it still, as in an SSA value's
    // meet, so the object stays private (a cursor's floor stays known).
    bool BothPlain = CB && !Same && CA.size == CB->size && !CA.partialMask &&
                     !CB->partialMask && !CA.pinned && !CB->pinned;
    bool IntoOneObject = BothPlain && CA.value.refersToObject() &&
                         CB->value.refersToObject() && CA.value.object == CB->value.object;
    // (A cell that would say no more than "some address" is dropped.)
    std::optional<AbstractValue> InProgram;
    if (BothPlain && CA.value.isAddressInProgram() && CB->value.isAddressInProgram())
      if (AbstractValue Met = meetAddressesInProgram(CA.value, CB->value, Widen);
          Met.isAddressInProgram())
        InProgram = Met;
    if (Same || IntoOneObject || InProgram) {
      Cell C = CA;
      if (IntoOneObject)
        C.value = meetPointersIntoObject(CA.value, CB->value, Widen);
      else if (InProgram)
        C.value = *InProgram;
      if (CA.accessType != CB->accessType)
        C.accessType = nullptr;
      C.pinned = CA.pinned && CB->pinned;
      if (C.statedBy != CB->statedBy)
        C.statedBy = nullptr;
      R.cells.emplace(Off, C);
    } else if (CA.value.refersToObject()) {
      Dropped.insert(CA.value.object);
    }
  }
  for (auto &[Off, CB] : B.cells)
    if (!R.cells.count(Off) && CB.value.refersToObject())
      Dropped.insert(CB.value.object);
  return R;
}

/// Pointers held by the cells of an object one side of a meet drops entirely.
static void collectPointees(const ObjectState &O, std::set<ObjectId> &Into) {
  for (auto &[Off, C] : O.cells)
    if (C.value.refersToObject())
      Into.insert(C.value.object);
}

template <typename Map, typename Meet>
static void meetMaps(const Map &A, const Map &B, Map &R, std::set<ObjectId> &Dropped,
                     Meet &&MeetOne) {
  for (auto &[Key, OA] : A) {
    auto It = B.find(Key);
    if (It != B.end())
      R.emplace(Key, MeetOne(OA, It->second));
    else
      collectPointees(OA, Dropped);
  }
  for (auto &[Key, OB] : B)
    if (!A.count(Key))
      collectPointees(OB, Dropped);
}

MemoryState MemoryState::meet(const MemoryState &A, const MemoryState &B,
                              const std::set<ObjectId> &LostPointers, bool Widen) {
  MemoryState R;
  std::set<ObjectId> Escaping = LostPointers;
  auto MeetOne = [&](const ObjectState &OA, const ObjectState &OB) {
    return meetObject(OA, OB, Escaping, Widen);
  };
  meetMaps(A.objects, B.objects, R.objects, Escaping, MeetOne);
  meetMaps(A.dynamicBases, B.dynamicBases, R.dynamicBases, Escaping, MeetOne);
  for (ObjectId Id : Escaping)
    R.escape(Id);
  R.closeEscapes();
  return R;
}

//===-- The object table --------------------------------------------------===//

ObjectId ObjectTable::forGlobal(GlobalVariable *G, const DataLayout &DL) {
  auto [It, Inserted] = globals.emplace(G, ObjectId(objects.size()));
  if (Inserted) {
    Object O;
    O.base = G;
    O.global = G;
    O.size = DL.getTypeAllocSize(G->getValueType());
    if (G->hasDefinitiveInitializer())
      O.contents = G->getInitializer();
    O.constantContents = G->isConstant() && O.contents;
    objects.push_back(O);
  }
  return It->second;
}

ObjectId ObjectTable::forHostMemory(uint64_t Address, uint64_t Size, LLVMContext &Ctx) {
  Object O;
  O.base = ConstantExpr::getIntToPtr(ConstantInt::get(Type::getInt64Ty(Ctx), Address),
                                     PointerType::getUnqual(Ctx));
  O.size = Size;
  O.contents = ConstantDataArray::get(
      Ctx, ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Address), Size));
  O.constantContents = true;
  objects.push_back(O);
  return ObjectId(objects.size() - 1);
}

ObjectId ObjectTable::forKnownMemory(Value *Base, Constant *Contents, uint64_t Size) {
  Object O;
  O.base = Base;
  O.size = Size;
  O.contents = Contents;
  O.constantContents = true;
  objects.push_back(O);
  return ObjectId(objects.size() - 1);
}

ObjectId ObjectTable::forStackSlot(const Instruction *Site, unsigned Key, unsigned Context,
                                   Value *ResidualBase, uint64_t Size) {
  auto [It, Inserted] =
      stackSlots.emplace(std::make_tuple(Site, Key, Context), ObjectId(objects.size()));
  if (Inserted) {
    Object O;
    O.base = ResidualBase;
    O.site = Site;
    O.size = Size;
    objects.push_back(O);
  }
  return It->second;
}

ObjectId ObjectTable::lookupStackSlot(const Instruction *Site, unsigned Key,
                                      unsigned Context) const {
  auto It = stackSlots.find({Site, Key, Context});
  return It == stackSlots.end() ? ~0u : It->second;
}

std::vector<StaticMemoryRange> ObjectTable::staticMemory() const {
  std::vector<StaticMemoryRange> Ranges;
  for (const Object &O : objects)
    for (auto [Off, Size] : O.staticRanges)
      Ranges.push_back({O.global, Off, Size});
  for (const HostRange &R : hostRanges)
    Ranges.push_back({nullptr, int64_t(R.address), R.bytes.size()});
  llvm::sort(Ranges);
  return Ranges;
}

bool ObjectTable::isStaticRange(ObjectId Id, int64_t Off, uint64_t Size) const {
  const Object &O = objects[Id];
  if (!O.contents || Off < 0 || Off + int64_t(Size) > int64_t(O.size))
    return false;
  if (O.constantContents)
    return true;
  for (auto [RangeOff, RangeSize] : O.staticRanges)
    if (Off >= RangeOff && Off + int64_t(Size) <= RangeOff + int64_t(RangeSize))
      return true;
  return false;
}

void ObjectTable::addHostStatic(uint64_t Address, uint64_t Size) {
  const auto *Bytes = reinterpret_cast<const uint8_t *>(Address);
  hostRanges.push_back({Address, std::vector<uint8_t>(Bytes, Bytes + Size)});
}

const ObjectTable::HostRange *ObjectTable::hostStatic(uint64_t Address, uint64_t Size) const {
  for (const HostRange &R : hostRanges)
    if (Address >= R.address && Address + Size <= R.address + R.bytes.size())
      return &R;
  return nullptr;
}

void ObjectTable::clear() {
  objects.clear();
  hostRanges.clear();
  globals.clear();
  stackSlots.clear();
}

} // namespace respec
