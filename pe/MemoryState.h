//===- MemoryState.h - Partially-static memory and the escape rule -*- C++ -*-===//
//
// The specializer tracks memory as a set of abstract *objects*: every stack slot
// (alloca) of the specialized code, every global it touches, and, for facts
// stated with respec_assume(), the memory behind a dynamic root pointer. An
// object's contents are a map from byte offset to Cell; an absent cell is
// unknown, and a load of it stays in the residual code.
//
// Soundness rests on two rules.
//
// 1. The specializer never removes a store. Every store of the generic code is
//    emitted into the residual code, static or not, so memory in the residual
//    program always holds what the generic program would hold; a cell is only a
//    *forwarding* of a value the specializer knows to be there. Dropping a cell
//    is therefore always safe; keeping one requires that no write the
//    specializer cannot see could have changed it.
//
// 2. The escape rule. An object is *private* while the specializer knows every
//    pointer to it that the residual program may hold: each is an SSA value whose
//    abstract value refers to the object, or a tracked cell of a private object
//    holding a static pointer to it. Only a private object's cells survive a
//    write whose target is unknown. So the moment a pointer to X leaves that
//    precise knowledge, X *escapes*, and so does everything X's cells point to
//    (escaped objects never point to private ones). A pointer leaves it when it
//      - is stored anywhere but a recorded cell of a private object (an escaped
//        object, memory behind a dynamic pointer, an offset known only at run
//        time, a volatile store),
//      - sits in a cell that is forgotten without being wholly overwritten (a
//        write at an unknown offset of the object, a partial overwrite, a call
//        that may write the object),
//      - is loaded other than as the pointer the cell records (as an integer,
//        in part, or from an offset known only at run time),
//      - is copied by memcpy/memmove (a struct copy) to anything but a private
//        object at a known offset,
//      - is merged at a join with a different value, in SSA values (phis) and in
//        memory cells alike, or its object is dropped from one side of a join
//        (merged with another pointer into the same object, it stays known: a
//        pointer into that object at a run-time offset, no lower than the
//        lower of the two: AbstractValue.h),
//      - is passed to code the specializer cannot see — which may read every
//        pointer stored in the object, even through a `nocapture` argument, and
//        keep the object's own address unless the argument is `nocapture` —
//        unless the spec declares that code RESPEC_PURE and it returns no
//        pointer (it then reads only, and keeps nothing: EvaluateFacts.cpp);
//        for a residual call to code it can see, the call's effects name the
//        objects that escape and the bytes it may write (CallEffects.h),
//      - or is converted to an integer, or used by any residual instruction
//        that might let it out (a select on a dynamic condition, arithmetic).
//    All of these go through MemoryState::escape/escapeValue/escapeContents,
//    called by the writes below and by the evaluator (EvaluateMemory.cpp,
//    UnfoldCalls.cpp, EvaluateValues.cpp, Generalization.cpp).
//    A write through a pointer into an object at a run-time offset forgets the
//    object's cells from that pointer's lowest offset on (writeSomewhereIn); a
//    copy of a length known only at run time through a dynamic pointer forgets
//    the cells behind its root from its destination on (writeBehindRoot).
//    A write through a pointer of unknown target (writeUnknown) forgets every
//    cell of every escaped object, every plain cell behind dynamic pointers,
//    and every respec_assume() fact its access type may alias (C's aliasing
//    rules, read from clang's TBAA tags: no tag, as with -fno-strict-aliasing
//    or for memcpy, aliases everything). A fact therefore holds until the
//    specialized code itself may write it.
//
// Constant globals and memory declared with respec_static_memory() are not
// cells: loads from them fold straight from the initializer (ObjectTable).
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_MEMORYSTATE_H
#define RESPEC_PE_MEMORYSTATE_H

#include "AbstractValue.h"
#include "FlatMap.h"
#include "Specializer.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace respec {

struct Cell {
  uint64_t size = 0;
  /// Static, or for a pointer named by respec_assume() a *symbolic root*:
  /// Dynamic with no residual value and dynamicRoot naming the memory behind it.
  AbstractValue value;
  bool pinned = false; ///< stated by respec_assume(): survives writes it cannot alias
  /// The TBAA access tag of the store that wrote the cell, or for a pinned
  /// fact of the load it is about (null: any write may alias it).
  const llvm::MDNode *accessType = nullptr;
  /// Pinned facts about some bits only (a bit-field): those bits of value are
  /// known; 0 when the whole value is.
  uint64_t partialMask = 0;
  const llvm::Instruction *statedBy = nullptr; ///< pinned: the respec_assume() call

  bool sameFact(const Cell &O) const {
    return size == O.size && pinned == O.pinned && accessType == O.accessType &&
           partialMask == O.partialMask && statedBy == O.statedBy;
  }
};

struct ObjectState {
  FlatMap<int64_t, Cell> cells;
  bool escaped = false;

  bool operator==(const ObjectState &O) const;
};

/// The size of a write whose extent is known only at run time (a copy of a
/// run-time length): from its start on.
constexpr uint64_t UnknownExtent = UINT64_MAX;

/// Where a write through a pointer into the running program's memory may land:
/// at an address no lower than this (AbstractValue::isAddressInProgram), behind
/// the root whose offsets are the program's addresses.
struct AddressFloor {
  const llvm::Value *hostRoot = nullptr;
  int64_t lowest = AbstractValue::AnywhereInObject;
};

/// What the specializer knows about memory at one program point.
class MemoryState {
public:
  FlatMap<ObjectId, ObjectState> objects;
  /// Memory behind dynamic root pointers, keyed by root: the residual
  /// function's arguments, symbolic roots of assumptions, residual pointers of
  /// the current block, and at block entries the generic SSA values that carry
  /// such a pointer (normalizeForEntry, adoptCarriedRoots).
  FlatMap<llvm::Value *, ObjectState> dynamicBases;

  /// Obj's state. An object not seen before on this path has an unknown
  /// history: escaped, nothing known.
  ObjectState &object(ObjectId Obj);
  bool isPrivate(ObjectId Obj) const;
  /// A fresh activation of a stack object: private, nothing known.
  void allocate(ObjectId Obj);

  //--- The escape rule (see above) ---------------------------------------===//
  /// Obj escapes, and with it everything its cells point to.
  void escape(ObjectId Obj);
  /// A value leaves precise knowledge: the object it points into escapes.
  void escapeValue(const AbstractValue &V) {
    if (V.refersToObject())
      escape(V.object);
  }
  /// The bytes [Off, Off+Size) of Obj are read where pointers in them are not
  /// tracked (copied out, passed to unknown code): what their cells point to
  /// escapes. Size 0 means from Off to the end; by default, the whole object.
  void escapeContents(ObjectId Obj, int64_t Off = AbstractValue::AnywhereInObject,
                      uint64_t Size = 0);

  //--- Writes --------------------------------------------------------------===//
  /// A write of exactly [Off, Off+Size) of Obj. Written, when given, is what is
  /// now known to be there. AccessType is the write's TBAA tag.
  void writeObject(ObjectId Obj, int64_t Off, uint64_t Size, std::optional<Cell> Written,
                   const llvm::MDNode *AccessType);
  /// A write somewhere in Obj, at an offset or of a size known only at run
  /// time, and at no offset below From.
  void writeSomewhereIn(ObjectId Obj, const llvm::MDNode *AccessType,
                        int64_t From = AbstractValue::AnywhereInObject);
  /// A write through a pointer of unknown target.
  void writeUnknown(const llvm::MDNode *AccessType);
  /// Writes, by a call with a write summary (WriteSummary.h), somewhere in
  /// each object of Objects and through pointers of unknown target, all with
  /// one of AccessTypes: cells whose tag none of them may alias survive.
  void writeTyped(llvm::ArrayRef<ObjectId> Objects,
                  llvm::ArrayRef<const llvm::MDNode *> AccessTypes);
  /// A call may write [Off, Off+Size) of Obj, with AccessType (CallEffects.h).
  void mayWrite(ObjectId Obj, int64_t Off, uint64_t Size, const llvm::MDNode *AccessType);
  /// A call may write Obj at offsets known only at run time, with one of
  /// AccessTypes: cells whose tag none of them may alias survive.
  void mayWriteSomewhere(ObjectId Obj, llvm::ArrayRef<const llvm::MDNode *> AccessTypes);
  /// A write of exactly [Off, Off+Size) behind the dynamic pointer Root (or
  /// from Off on, for Size UnknownExtent): other cells behind Root keep, the rest is as writeUnknown, except, for a write
  /// at an address in the running program no lower than Floor.lowest, the
  /// cells behind Floor.hostRoot that end at or below it (HostMemory.cpp).
  void writeBehindRoot(llvm::Value *Root, int64_t Off, uint64_t Size,
                       std::optional<Cell> Written, const llvm::MDNode *AccessType,
                       AddressFloor Floor = {});

  /// respec_assume(): Fact holds at Off in O (an object's state, or the memory
  /// behind a dynamic root).
  void recordFact(ObjectState &O, int64_t Off, const Cell &Fact);

  /// Lowest common knowledge of two states reaching the same point: A, the
  /// point's entry so far, and B, the arriving one; where the edge closes a
  /// cycle it widens (Widen: meetPointersIntoObject). LostPointers: objects that SSA values pointed
  /// to on either side and that the meet of those values no longer refers to.
  static MemoryState meet(const MemoryState &A, const MemoryState &B,
                          const std::set<ObjectId> &LostPointers, bool Widen);
  bool operator==(const MemoryState &O) const {
    return objects == O.objects && dynamicBases == O.dynamicBases;
  }

private:
  /// Forgets the cells of O overlapping [Off, Off+Size); what cells not wholly
  /// inside the range pointed to escapes (their bytes partly remain).
  void forgetRange(ObjectState &O, int64_t Off, uint64_t Size);
  /// Forgets the cells of O that reach Off or beyond, written to an extent
  /// known only at run time; what they pointed to escapes.
  void forgetFrom(ObjectState &O, int64_t From);
  /// Forgets the facts behind dynamic pointers that a write of AccessType to
  /// memory other than their own may change.
  void forgetAliasedFacts(const llvm::MDNode *AccessType, llvm::Value *ExceptRoot,
                          AddressFloor Floor = {});
  /// Forgets the cells of O that a write with one of AccessTypes may change.
  static void forgetTyped(ObjectState &O, llvm::ArrayRef<const llvm::MDNode *> AccessTypes);
  /// Restores "escaped objects point only to escaped objects" after a meet.
  void closeEscapes();
};

/// Whether a write with TBAA tag A may change memory read with tag B (null:
/// unknown, may alias anything).
bool accessTypesMayAlias(const llvm::MDNode *A, const llvm::MDNode *B);

/// Registry of abstract objects for one specialization run (not per state).
class ObjectTable {
public:
  /// A stack slot of the specialized code, a global, or host memory (bytes of
  /// the running process, for run-time specialization).
  struct Object {
    llvm::Value *base = nullptr;           ///< residual alloca, the global, or a constant address
    llvm::GlobalVariable *global = nullptr;
    const llvm::Instruction *site = nullptr; ///< stack objects: allocation site (or call site)
    uint64_t size = 0;
    llvm::Constant *contents = nullptr;    ///< known initial contents, if any
    bool constantContents = false;         ///< contents never change
    std::vector<std::pair<int64_t, uint64_t>> staticRanges; ///< respec_static_memory

    bool isStack() const { return site != nullptr; }
  };

  ObjectId forGlobal(llvm::GlobalVariable *G, const llvm::DataLayout &DL);
  /// Size bytes at Address in this process, read now and fixed from now on.
  ObjectId forHostMemory(uint64_t Address, uint64_t Size, llvm::LLVMContext &Ctx);
  /// Size bytes at Base (a residual value that dominates the specialized
  /// code) known to hold Contents and never to change: stable memory a spec
  /// vouches for (ExternalFacts.h).
  ObjectId forKnownMemory(llvm::Value *Base, llvm::Constant *Contents, uint64_t Size);
  /// Stack objects are keyed by allocation site and context, so re-specializing
  /// a block finds the same object (and the same residual alloca) again.
  /// Site is the generic code's alloca, or for a by-value argument copy the
  /// call site (Key tells the argument apart).
  ObjectId forStackSlot(const llvm::Instruction *Site, unsigned Key, unsigned Context,
                        llvm::Value *ResidualBase, uint64_t Size);
  ObjectId lookupStackSlot(const llvm::Instruction *Site, unsigned Key, unsigned Context) const;
  Object &get(ObjectId Id) { return objects[Id]; }
  const Object &get(ObjectId Id) const { return objects[Id]; }
  /// Loads from [Off, Off+Size) fold from the known contents.
  bool isStaticRange(ObjectId Id, int64_t Off, uint64_t Size) const;
  /// Every respec_static_memory() range declared so far.
  std::vector<StaticMemoryRange> staticMemory() const;

  /// Run-time specialization: bytes of the running program declared static,
  /// read now (HostMemory.cpp). Loads from them fold from this copy.
  struct HostRange {
    uint64_t address = 0;
    std::vector<uint8_t> bytes;
  };
  void addHostStatic(uint64_t Address, uint64_t Size);
  /// The declared range holding [Address, Address+Size), if one does.
  const HostRange *hostStatic(uint64_t Address, uint64_t Size) const;
  const std::vector<HostRange> &hostStaticRanges() const { return hostRanges; }
  void clear();

private:
  std::vector<Object> objects;
  std::vector<HostRange> hostRanges;
  std::map<const llvm::GlobalVariable *, ObjectId> globals;
  std::map<std::tuple<const llvm::Instruction *, unsigned, unsigned>, ObjectId> stackSlots;
};

} // namespace respec

#endif
