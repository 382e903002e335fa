//===- MemoryState.cpp - Partially-static memory --------------------------===//
//
// Cell bookkeeping, clobbering and the meet of two memory states. See the header
// for the soundness argument.
//
//===----------------------------------------------------------------------===//
#include "MemoryState.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"

using namespace llvm;

namespace respec {

void ObjectState::forget(int64_t Off, uint64_t Size) {
  int64_t End = Off + int64_t(Size);
  auto It = cells.lower_bound(Off);
  // A cell starting before Off may still reach into the range.
  if (It != cells.begin()) {
    auto Prev = std::prev(It);
    if (Prev->first + int64_t(Prev->second.size) > Off)
      It = Prev;
  }
  while (It != cells.end() && It->first < End)
    It = cells.erase(It);
}

void ObjectState::forgetUnpinned() {
  for (auto It = cells.begin(); It != cells.end();)
    It = It->second.pinned ? std::next(It) : cells.erase(It);
}

bool ObjectState::operator==(const ObjectState &O) const {
  if (escaped != O.escaped || cells.size() != O.cells.size())
    return false;
  for (auto A = cells.begin(), B = O.cells.begin(); A != cells.end(); ++A, ++B)
    if (A->first != B->first || A->second.size != B->second.size ||
        A->second.pinned != B->second.pinned || A->second.value != B->second.value)
      return false;
  return true;
}

void MemoryState::clobberUnattributed(ObjectId Except) {
  for (auto &[Id, Obj] : objects)
    if (Obj.escaped && Id != Except)
      Obj.cells.clear();
  for (auto &[Root, Obj] : dynamicBases)
    Obj.forgetUnpinned();
}

static ObjectState meetObject(const ObjectState &A, const ObjectState &B) {
  ObjectState R;
  R.escaped = A.escaped || B.escaped;
  for (auto &[Off, CA] : A.cells) {
    auto It = B.cells.find(Off);
    if (It == B.cells.end())
      continue;
    const Cell &CB = It->second;
    if (CA.size == CB.size && CA.value.sameStatic(CB.value)) {
      Cell C = CA;
      C.pinned = CA.pinned && CB.pinned;
      R.cells.emplace(Off, C);
    }
  }
  return R;
}

MemoryState MemoryState::meet(const MemoryState &A, const MemoryState &B) {
  MemoryState R;
  for (auto &[Id, OA] : A.objects) {
    auto It = B.objects.find(Id);
    if (It != B.objects.end())
      R.objects.emplace(Id, meetObject(OA, It->second));
  }
  for (auto &[Root, OA] : A.dynamicBases) {
    auto It = B.dynamicBases.find(Root);
    if (It != B.dynamicBases.end())
      R.dynamicBases.emplace(Root, meetObject(OA, It->second));
  }
  return R;
}

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

ObjectId ObjectTable::forStackSlot(const AllocaInst *Site, unsigned Context,
                                   Value *ResidualBase, uint64_t Size) {
  auto [It, Inserted] = stackSlots.emplace(std::make_pair(Site, Context),
                                           ObjectId(objects.size()));
  if (Inserted) {
    Object O;
    O.base = ResidualBase;
    O.site = Site;
    O.size = Size;
    objects.push_back(O);
  }
  return It->second;
}

ObjectId ObjectTable::lookupStackSlot(const AllocaInst *Site, unsigned Context) const {
  auto It = stackSlots.find({Site, Context});
  return It == stackSlots.end() ? ~0u : It->second;
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

void ObjectTable::clear() {
  objects.clear();
  globals.clear();
  stackSlots.clear();
}

} // namespace respec
