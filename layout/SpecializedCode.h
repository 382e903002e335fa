//===- SpecializedCode.h - What respec knows that a profile does not -*- C++ -*-===//
//
// A program that specializes at run time (librespec slots, librespec-jit)
// starts on its generic code and replugs specialized code in when it is
// ready; when a guard fires it goes back to the generic code for a while. A
// training profile therefore sees the generic fallbacks run (during warm-up,
// or after a guard fired) and BOLT lays them out as hot, next to the code that
// really is hot. respec knows better: a function that was a slot's fallback
// while the slot ran specialized code is cold by design.
//
// The facts come from the training run itself: librespec writes, when
// RESPEC_LAYOUT_RECORD names a directory, a record per process
// (runtime/layout_record.c) with each slot's generic function and each
// implementation plugged in, as (module, offset from the module's base). Here
// they become function names through the module's symbol table (the module is
// the program the training ran, e.g. BOLT's instrumented copy; names are the
// same in every variant).
//
// The layout: BOLT skips the fallbacks (-skip-funcs), so they stay where the
// link put them, in the original text after BOLT's hot text, beside the
// functions the profile never saw, and take no place in the function order.
// Specialized implementations stay where the order puts them (next to their
// hot callers: BOLT's call graph includes the slot's indirect calls).
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_LAYOUT_SPECIALIZEDCODE_H
#define RESPEC_LAYOUT_SPECIALIZEDCODE_H

#include <set>
#include <string>
#include <vector>

namespace respec::layout {

struct SlotFacts {
  std::set<std::string> fallbacks;   ///< generic functions of slots that ran specialized code
  std::set<std::string> specialized; ///< implementations plugged in that are in the program
  bool empty() const { return fallbacks.empty() && specialized.empty(); }
};

/// Reads the training run's records (Profiles.h: slotRecordsOf).
SlotFacts readSlotRecords(const std::vector<std::string> &Records);

/// BOLT -skip-funcs patterns for Names: each name exactly (BOLT anchors them).
std::string skipFunctionsOption(const std::set<std::string> &Names);

} // namespace respec::layout

#endif
