//===- CallEffects.h - What one residual call may do to the caller's memory -*- C++ -*-===//
//
// A call the specializer keeps residual makes it forget what the callee may
// write. The write summary (WriteSummary.h) says that per function, by access
// type, and gives up ("anything") at the first call through a pointer. But the
// calls that matter most are exactly those: a recursive XDR routine calls
// `xdrs->x_ops->x_putlong` and the `proc` it is passed, and at the residual call
// the caller knows both — the stream's ops table and the procedure are static
// there. And an enum field such as `x_op` carries C's "omnipotent char" tag, so
// no type-based rule keeps it across any write at all.
//
// Call effects answer the question at the call site instead: a flow-insensitive
// points-to analysis of the callee and of everything it may run, started from
// the caller's abstract state (its arguments' values and the tracked cells of
// the objects they reach). Abstract locations are the caller's objects at a
// byte offset (or at any offset), the callee side's own stack slots, functions,
// and Unknown: the memory the caller does not track precisely (escaped objects,
// memory behind dynamic pointers, untracked globals, and addresses made from
// plain numbers: the program's memory in run-time specialization, where the
// caller's facts about the cells it stored there live behind the host root).
// A number as wide as a pointer points to Unknown wherever it goes (a union's
// integer member read back as a pointer, bytes copied from the program), unless
// it lies within a page of zero: an empty set means null or no address at all.
// Unknown never points to a private caller object (the escape rule,
// MemoryState.h), so the analysis needs no more than the cells the caller
// tracks. Calls through pointers resolve to the functions their operand may
// hold, so the analysis grows its set of functions as it goes; a call to code
// respec cannot see that may write, a variadic function, inline asm, or an
// analysis over its size budget gives up (the caller falls back to the write
// summary).
//
// The result says, per caller object, the byte ranges the callee may write (or
// "somewhere", with the access types of those writes), the access types of its
// writes through Unknown pointers, and which caller objects it may let out
// (stored anywhere but its own stack, or returned): those escape.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_CALLEFFECTS_H
#define RESPEC_PE_CALLEFFECTS_H

#include "AbstractValue.h"
#include "ExternalFacts.h"
#include "MemoryState.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

namespace respec {

struct CallEffects {
  struct ObjectWrites {
    /// [offset, offset+size) may be written, with an access type
    std::set<std::tuple<int64_t, uint64_t, const llvm::MDNode *>> ranges;
    /// Written at offsets known only at run time, with these access types
    /// (null: untyped, a memcpy or memset).
    std::set<const llvm::MDNode *> somewhere;
  };
  std::map<ObjectId, ObjectWrites> objects;
  /// Access types of writes through pointers the caller does not track.
  std::set<const llvm::MDNode *> unknownWrites;
  /// Caller objects the callee may store a pointer to or return.
  std::set<ObjectId> escapes;
};

/// The effects of calling Callee with Args in the state Memory, or nullopt
/// when the analysis gives up. WorkLimit bounds the instructions visited.
std::optional<CallEffects> analyzeCallEffects(const llvm::Function &Callee,
                                              llvm::ArrayRef<AbstractValue> Args,
                                              const MemoryState &Memory, ObjectTable &Objects,
                                              const llvm::DataLayout &Layout,
                                              const ExternalFacts &Facts,
                                              const llvm::TargetLibraryInfo &Library,
                                              uint64_t WorkLimit);

} // namespace respec

#endif
