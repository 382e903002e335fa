//===- SingleTargetCalls.h - Dispatch left with one target -----*- C++ -*-===//
//
// C libraries dispatch through tables of function pointers: a stream's
// operations, a transport's, an authenticator's. Linked for one client with
// everything the client does not reach deleted (LibrarySpecialization.h),
// a slot of such a table often has one function left in the whole library:
// the client creates UDP handles only, so every transport call is the UDP
// transport's. makeSingleTargetCallsDirect turns each call through such a
// slot into a direct call, guarded:
//
//     %f = load ptr, ptr (getelementptr %struct.ops, ptr %table, 0, K)
//     call %f(args)
//   becomes
//     if (%f == @only) call @only(args)   ; direct: -O2 may inline it
//     else             call %f(args)      ; a table the library did not make
//
// The slot is named by the struct type whose field the function pointer is
// loaded from and the field's index path, as the front end wrote the access
// (a GEP instruction or constant). Its targets:
//   - every function at that path in the initializer of a global of the
//     module (tables, arrays of tables, tables nested in larger structs);
//   - every function the module's code stores to that slot.
// A slot that code stores anything else to (a table filled at run time from
// somewhere) has no single target; nor does one whose target has the type of
// a function stored where no slot names (field 0 reached without a GEP).
//
// What the targets can still miss: tables filled by memcpy, by stores of
// computed pointers through byte offsets, and the program's own tables. The
// guard keeps the call right whatever they miss: such a table pays one
// comparison and the indirect call it made before. A fact the rules inferred
// is never needed for soundness here, only for the slot to have one target
// left. Known imprecision: linking the library's files merges struct types of
// the same layout (two tables of six pointers become one type), whose slots
// then hold both tables' functions and are left indirect; a table reached
// through a pointer copied to a local variable, a union inside a table
// (clang then types the initializer as a literal struct) and arrays of
// functions are not slots.
//
// To run after the module is internalized and its dead code deleted (the
// slots' targets are what is left), and before -O2, while the loads still
// name their struct types.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_LINK_SINGLETARGETCALLS_H
#define RESPEC_LINK_SINGLETARGETCALLS_H

namespace llvm {
class Module;
}

namespace respec::link {

struct IndirectCallCounts {
  unsigned calls = 0;       ///< indirect calls through a struct's field
  unsigned madeDirect = 0;  ///< of them, with one target: now guarded direct calls
};

/// Makes each indirect call of M whose slot has one target a guarded direct
/// call of it.
IndirectCallCounts makeSingleTargetCallsDirect(llvm::Module &M);

} // namespace respec::link

#endif
