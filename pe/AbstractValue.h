//===- AbstractValue.h - What the partial evaluator knows about one value --===//
//
// The specializer runs the generic code on an *abstract* state. Each SSA value
// and each tracked memory cell holds an AbstractValue, one of:
//
//   Constant          fully static: an LLVM Constant (integer, float, null,
//                     function address, ...). Evaluated away.
//   ObjectPointer     a static pointer: a known abstract object (a stack slot or a
//                     global) plus a static byte offset. Loads through it read the
//                     object's tracked cells; that is how partially-static
//                     aggregates reached through pointers stay static. A
//                     pointer-width integer holds one too when it is the
//                     address itself (ptrtoint): the difference of two
//                     addresses in one object folds, and so does the pointer
//                     made from it again (EvaluateValues.cpp, addressArithmetic).
//   ObjectPointerDyn  a pointer known to point *into* one object at an offset
//                     only known at run time (a dynamic array index). Stores
//                     through it clobber only that object, and only from its
//                     lowest offset on, when one is known: a cursor that only
//                     moves forward from a buffer's start (`*pos++ = c`) cannot
//                     reach the header fields before the buffer in the same
//                     allocation (an XDR stream's operation beside its bytes).
//                     Such a pointer may sit in a memory cell too: loaded
//                     whole, it is the same pointer again.
//   Dynamic           only known at run time: a residual LLVM Value. A dynamic
//                     pointer may carry a "root + static offset" decomposition so
//                     that facts stated with respec_assume() about memory behind
//                     a dynamic pointer can be found again; a dynamic integer may
//                     have some bits known (a fact about a bit-field).
//
// At run time (HostMemory.cpp) a pointer into the running program's memory is
// a Constant address, and carries that address as its lowest one; the meet of
// two such pointers is a Dynamic pointer whose address is at least the lower
// of theirs. The rule of ObjectPointerDyn carries over: a cursor that only
// moves forward from a buffer's start cannot write the header before the
// buffer in the same allocation, a stream's operation beside its bytes.
//
// A static value may carry an Origin: the loop header and loop-carried slot it
// came from, and a programData mark: it was read from known memory (a program,
// a table), which is what an interpreter's jump targets are made of. When such a value meets a dynamic one in a comparison, the loop is
// controlled by dynamic data, and the specializer stops unrolling it (see
// Specializer.cpp, "generalization").
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_ABSTRACTVALUE_H
#define RESPEC_PE_ABSTRACTVALUE_H

#include "llvm/IR/Constants.h"
#include "llvm/IR/Value.h"
#include <algorithm>
#include <cstdint>

namespace respec {

using ObjectId = uint32_t;

/// A loop-carried slot: an SSA value live at a loop header, or a memory cell.
struct SlotId {
  const void *base = nullptr; ///< llvm::Value* for SSA slots, else object tag
  int64_t offset = 0;         ///< byte offset for memory slots
  /// The memory cell at Offset of Object (its tag is the id plus one).
  static SlotId cell(ObjectId Object, int64_t Offset) {
    return {reinterpret_cast<const void *>(uintptr_t(Object) + 1), Offset};
  }
  /// The object of a memory cell's slot (not meaningful for an SSA value's).
  ObjectId object() const { return ObjectId(reinterpret_cast<uintptr_t>(base) - 1); }
  bool operator==(const SlotId &O) const { return base == O.base && offset == O.offset; }
  bool operator<(const SlotId &O) const {
    return base != O.base ? base < O.base : offset < O.offset;
  }
};

struct Origin {
  const llvm::BasicBlock *header = nullptr;
  SlotId slot;
  /// The header's entry whose value this is (Specializer::loopEntries, plus
  /// one), and whether the slot is a memory cell: a read of the cell is then
  /// a read of the loop's state (Specializer::noteStateRead).
  uint32_t entry : 31 = 0;
  static constexpr uint32_t MaxEntry = (1u << 31) - 1;
  uint32_t cell : 1 = 0;
  /// The origin the value had at the entry of an enclosing loop, when an
  /// inner loop's header stamped it again (Specializer::outerOrigins, plus
  /// one): reading it reads the outer loop's state too.
  uint32_t outer = 0;
  explicit operator bool() const { return header != nullptr; }
};
// Every abstract value carries one, and states are copied at every block.
static_assert(sizeof(Origin) == 32, "Origin packs in four words");

struct AbstractValue {
  enum Kind : uint8_t { Dynamic, Constant, ObjectPointer, ObjectPointerDyn };

  Kind kind = Dynamic;
  /// Read from memory whose contents are known (a program, a table), or
  /// computed from such a value: an interpreter's operands and jump offsets.
  bool programData = false;
  ObjectId object = 0;                ///< ObjectPointer, ObjectPointerDyn
  llvm::Constant *constant = nullptr; ///< Constant
  int64_t offset = 0;                 ///< ObjectPointer
  /// ObjectPointerDyn: the run-time offset is at least this (AnywhereInObject:
  /// no bound is known). A Constant or Dynamic pointer into the running
  /// program's memory: its address is at least this.
  int64_t lowestOffset = AnywhereInObject;
  static constexpr int64_t AnywhereInObject = INT64_MIN;
  llvm::Value *residual = nullptr;    ///< Dynamic / ObjectPointerDyn; null = "to be a phi"
  llvm::Value *dynamicRoot = nullptr; ///< Dynamic pointers: root pointer ...
  int64_t dynamicRootOffset = 0;      ///< ... plus this static offset
  uint64_t knownZero = 0, knownOne = 0; ///< Dynamic integers (<= 64 bits): bits known
  Origin origin;

  static AbstractValue dynamic(llvm::Value *V) {
    AbstractValue A;
    A.residual = V;
    return A;
  }
  static AbstractValue of(llvm::Constant *C) {
    AbstractValue A;
    A.kind = Constant;
    A.constant = C;
    return A;
  }
  static AbstractValue pointer(ObjectId Obj, int64_t Off) {
    AbstractValue A;
    A.kind = ObjectPointer;
    A.object = Obj;
    A.offset = Off;
    return A;
  }
  static AbstractValue pointerDyn(ObjectId Obj, llvm::Value *V,
                                  int64_t Lowest = AnywhereInObject) {
    AbstractValue A;
    A.kind = ObjectPointerDyn;
    A.object = Obj;
    A.residual = V;
    A.lowestOffset = Lowest;
    return A;
  }
  /// A pointer at run time into the running program's memory, with an address
  /// at least lowestOffset.
  static AbstractValue addressInProgram(llvm::Constant *Address, int64_t Lowest) {
    AbstractValue A = of(Address);
    A.lowestOffset = Lowest;
    return A;
  }
  /// A pointer at run time into the running program's memory, at an address
  /// known only at run time and no lower than Lowest (null residual: to be
  /// read back by a load, or to be a phi).
  static AbstractValue addressAtLeast(int64_t Lowest) {
    AbstractValue A;
    A.lowestOffset = Lowest;
    return A;
  }
  /// The lowest offset a pointer into an object may have: its offset if
  /// static. (For a pointer into the running program's memory, the lowest
  /// address.)
  int64_t lowestOffsetInObject() const {
    return kind == ObjectPointer ? offset : lowestOffset;
  }
  bool isAddressInProgram() const {
    return (kind == Constant || kind == Dynamic) && lowestOffset != AnywhereInObject;
  }

  bool isStatic() const { return kind == Constant || kind == ObjectPointer; }
  bool isDynamic() const { return kind == Dynamic; }
  bool refersToObject() const { return kind == ObjectPointer || kind == ObjectPointerDyn; }

  /// Same static meaning (origins and residual names ignored).
  bool sameStatic(const AbstractValue &O) const {
    if (kind != O.kind || !isStatic())
      return false;
    return kind == Constant ? constant == O.constant
                            : object == O.object && offset == O.offset;
  }

  /// Structural equality, used to detect that a block's entry state changed.
  bool operator==(const AbstractValue &O) const {
    return kind == O.kind && constant == O.constant && object == O.object &&
           offset == O.offset && lowestOffset == O.lowestOffset && residual == O.residual &&
           dynamicRoot == O.dynamicRoot && dynamicRootOffset == O.dynamicRootOffset &&
           knownZero == O.knownZero && knownOne == O.knownOne;
  }
  bool operator!=(const AbstractValue &O) const { return !(*this == O); }
};

/// Two different pointers into one object reaching a join, Old the join's
/// entry so far and New the arriving one: a pointer into the object at a
/// run-time offset, no lower than either (meetPointersIntoObject; this is that
/// lowest offset). Where the join closes a cycle (Widen:
/// a loop header, or the target of a retreating edge in a loop LoopInfo does
/// not see, entered in two places) a bound lowered again is dropped: a cursor
/// moving backwards would lower it once per round of the generalization (a
/// bound that only rises converges). A bound below the object's start says
/// nothing, and is dropped too.
inline int64_t meetLowestOffsets(const AbstractValue &Old, const AbstractValue &New, bool Widen) {
  int64_t OldLowest = Old.lowestOffsetInObject(), NewLowest = New.lowestOffsetInObject();
  bool OldIsRange = Old.kind == AbstractValue::ObjectPointerDyn || Old.kind == AbstractValue::Dynamic;
  if (std::min(OldLowest, NewLowest) < 0 || (Widen && OldIsRange && NewLowest < OldLowest))
    return AbstractValue::AnywhereInObject;
  return std::min(OldLowest, NewLowest);
}
inline AbstractValue meetPointersIntoObject(const AbstractValue &Old, const AbstractValue &New,
                                            bool Widen) {
  return AbstractValue::pointerDyn(Old.object, nullptr, meetLowestOffsets(Old, New, Widen));
}
/// The same for two different pointers into the running program's memory
/// (isAddressInProgram): an address at run time, no lower than either.
inline AbstractValue meetAddressesInProgram(const AbstractValue &Old, const AbstractValue &New,
                                            bool Widen) {
  return AbstractValue::addressAtLeast(meetLowestOffsets(Old, New, Widen));
}

} // namespace respec

#endif
