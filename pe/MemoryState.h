//===- MemoryState.h - Partially-static memory ------------------*- C++ -*-===//
//
// The specializer tracks memory as a set of abstract *objects*: every stack slot
// (alloca) of the specialized code, every global it touches, and, for facts
// stated with respec_assume(), the memory behind a dynamic root pointer. An
// object's contents are a map from byte offset to Cell; an absent cell is
// unknown, and a load of it stays in the residual code.
//
// Soundness rests on one rule: the specializer never removes a store. Every
// store of the generic code is emitted into the residual code, static or not, so
// memory in the residual program always holds what the generic program would
// hold; a cell is only a *forwarding* of a value the specializer knows to be
// there. Dropping a cell is therefore always safe; keeping one requires that no
// write the specializer cannot see could have changed it. Hence the clobbering
// rules below: an object whose address escaped to code the specializer cannot
// see (an external call, memory behind a dynamic pointer) loses its cells at
// every write it cannot attribute.
//
// Constant globals and memory declared with respec_static_memory() are not
// cells: loads from them fold straight from the initializer (ObjectTable).
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_MEMORYSTATE_H
#define RESPEC_PE_MEMORYSTATE_H

#include "AbstractValue.h"
#include "FlatMap.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include <map>
#include <vector>

namespace respec {

struct Cell {
  uint64_t size = 0;
  AbstractValue value; ///< always static inside a block-entry state
  bool pinned = false; ///< stated by respec_assume(): survives unattributed writes
};

struct ObjectState {
  FlatMap<int64_t, Cell> cells;
  bool escaped = false;

  /// Removes cells overlapping [Off, Off+Size).
  void forget(int64_t Off, uint64_t Size);
  void forgetUnpinned();
  bool operator==(const ObjectState &O) const;
};

/// What the specializer knows about memory at one program point.
class MemoryState {
public:
  FlatMap<ObjectId, ObjectState> objects;
  /// Memory behind dynamic root pointers (function arguments), keyed by root.
  FlatMap<llvm::Value *, ObjectState> dynamicBases;

  /// A write the specializer cannot attribute to one object: forget every cell
  /// of escaped objects and every unpinned fact behind dynamic pointers.
  void clobberUnattributed(ObjectId Except = ~0u);
  /// Lowest common knowledge of two states reaching the same point.
  static MemoryState meet(const MemoryState &A, const MemoryState &B);
  bool operator==(const MemoryState &O) const {
    return objects == O.objects && dynamicBases == O.dynamicBases;
  }
};

/// Registry of abstract objects for one specialization run (not per state).
class ObjectTable {
public:
  /// A stack slot of the specialized code, a global, or host memory (bytes of
  /// the running process, for run-time specialization).
  struct Object {
    llvm::Value *base = nullptr;           ///< residual alloca, the global, or a constant address
    llvm::GlobalVariable *global = nullptr;
    const llvm::AllocaInst *site = nullptr; ///< stack objects: allocation site
    uint64_t size = 0;
    llvm::Constant *contents = nullptr;    ///< known initial contents, if any
    bool constantContents = false;         ///< contents never change
    std::vector<std::pair<int64_t, uint64_t>> staticRanges; ///< respec_static_memory

    bool isStack() const { return site != nullptr; }
  };

  ObjectId forGlobal(llvm::GlobalVariable *G, const llvm::DataLayout &DL);
  /// Size bytes at Address in this process, read now and fixed from now on.
  ObjectId forHostMemory(uint64_t Address, uint64_t Size, llvm::LLVMContext &Ctx);
  /// Stack objects are keyed by allocation site and context, so re-specializing
  /// a block finds the same object (and the same residual alloca) again.
  ObjectId forStackSlot(const llvm::AllocaInst *Site, unsigned Context,
                        llvm::Value *ResidualBase, uint64_t Size);
  ObjectId lookupStackSlot(const llvm::AllocaInst *Site, unsigned Context) const;
  Object &get(ObjectId Id) { return objects[Id]; }
  const Object &get(ObjectId Id) const { return objects[Id]; }
  /// Loads from [Off, Off+Size) fold from the known contents.
  bool isStaticRange(ObjectId Id, int64_t Off, uint64_t Size) const;
  void clear();

private:
  std::vector<Object> objects;
  std::map<const llvm::GlobalVariable *, ObjectId> globals;
  std::map<std::pair<const llvm::AllocaInst *, unsigned>, ObjectId> stackSlots;
};

} // namespace respec

#endif
