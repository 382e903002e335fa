//===- IterationKeys.cpp - What tells a loop's iterations apart -------------===//
//
// An unrolled loop's iterations are contexts keyed by the static state at its
// header (iterationKey): equal keys close a residual loop. When unrolling runs
// out of a budget, the generalization policy (Generalization.cpp) narrows the
// key, and this file holds what it learns for that while unrolling:
//
// - slot histories (noteSlotValues): the first FewSlotValues values each
//   loop-carried value and memory cell took at the header, and whether it came
//   back to one. A slot that shows more before coming back is a counter that
//   ran away (hasRunawayCounter); one that came back is state. fewValuedSlots
//   are a loop's state beside such a counter (keyed like a program counter);
//   movingSlots are the counters a live-state key leaves out.
// - state reads (noteStateRead): the header stamps every static value with its
//   origin (the slot it was in at this entry, Origin); a use of a stamped value,
//   or a load of a cell still holding its stamped value, is a read of the
//   loop's state before the iteration wrote it. A cell is recorded relative to
//   the nearest loop-carried pointer into its object (nearestPointer), so "the
//   frame below F" names one slot at any depth of a stack of frames, and
//   through Origin::outer the reads of inner loops count for the loops around
//   them. liveStateKey keys on those reads only: cells nothing reads before
//   writing them again (the frames above a stack's top) meet.
//
// Keys only decide where states meet; a meet is sound whatever the key, so
// these are heuristics about precision and cost, never about correctness.
//
//===----------------------------------------------------------------------===//
#include "SpecializerInternals.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace respec {
namespace detail {

/// The static part of a state: equal keys at a loop header mean the same
/// iteration, so the residual code loops back instead of unrolling further.
/// Keep, when given, says which loop-carried slots of the top frame and which
/// memory cells are part of the key (liveStateKey); the others meet.
std::string Specializer::iterationKey(const State &S, const SlotFilter &Keep) {
  std::string Key;
  raw_string_ostream OS(Key);
  auto Write = [&](const AbstractValue &A) {
    switch (A.kind) {
    case AbstractValue::Constant:
      // An undefined value (a variable not yet assigned on this path, such as a
      // temporary of one interpreted instruction carried around the loop) may
      // be anything: it does not tell iterations apart, and meets as the other.
      if (isa<UndefValue>(A.constant))
        OS << 'D';
      else
        OS << 'C' << static_cast<const void *>(A.constant);
      break;
    case AbstractValue::ObjectPointer:
      OS << 'P' << A.object << '+' << A.offset;
      break;
    case AbstractValue::ObjectPointerDyn:
      OS << 'Q' << A.object;
      break;
    case AbstractValue::Dynamic:
      OS << 'D';
      break;
    }
  };
  for (const FrameState &F : S.frames) {
    OS << '[';
    for (auto &[V, A] : F.env) {
      if (Keep && &F == &S.frames.back() && !Keep({V, 0}, false))
        continue;
      OS << static_cast<const void *>(V) << '=';
      Write(A);
      OS << ';';
    }
  }
  auto WriteObject = [&](const ObjectState &O, std::optional<ObjectId> Id) {
    OS << (O.escaped ? 'e' : 'p');
    for (auto &[Off, C] : O.cells) {
      if (Keep && Id && !Keep(SlotId::cell(*Id, Off), true))
        continue;
      OS << Off << ':' << C.size << (C.pinned ? '!' : '=');
      Write(C.value);
      OS << ',';
    }
  };
  for (auto &[Id, O] : S.memory.objects) {
    OS << '#' << Id;
    WriteObject(O, Id);
  }
  // Memory behind a pointer that is not a stable root (one the loop loaded:
  // an interpreter's register file) is data, not the loop's state: it does not
  // tell iterations apart; what the iterations agree on survives the meet.
  for (auto &[Root, O] : S.memory.dynamicBases)
    if (isStableRoot(Root)) {
      OS << '@' << static_cast<const void *>(Root);
      WriteObject(O, std::nullopt);
    }
  return OS.str();
}

const AbstractValue *slotValue(const State &S, const SlotId &Slot) {
  auto Var = S.frames.back().env.find(static_cast<Value *>(const_cast<void *>(Slot.base)));
  if (Var != S.frames.back().env.end())
    return &Var->second;
  auto Obj = S.memory.objects.find(Slot.object());
  if (Obj == S.memory.objects.end())
    return nullptr;
  auto C = Obj->second.cells.find(Slot.offset);
  return C == Obj->second.cells.end() ? nullptr : &C->second.value;
}

/// A slot's value as part of a key: its static value, or D.
static void writeSlotValue(raw_ostream &OS, const AbstractValue *A) {
  if (!A || !A->isStatic())
    OS << 'D';
  else if (A->kind == AbstractValue::Constant)
    OS << 'C' << static_cast<const void *>(A->constant);
  else
    OS << 'P' << A->object << '+' << A->offset;
}

std::string Specializer::slotsKey(const std::set<SlotId> &Slots, const State &S) const {
  std::string Key;
  raw_string_ostream OS(Key);
  for (const SlotId &Slot : Slots) {
    writeSlotValue(OS, slotValue(S, Slot));
    OS << ';';
  }
  return OS.str();
}

/// A slot that took at most this many values over an unrolling that ran out of
/// its budget, coming back to them, is the loop's state; one that showed more
/// distinct values before coming back to any is a counter that ran away
/// (hasRunawayCounter). Only a slot's first values are recorded: an inner
/// loop's index, seen again at its header when the loop starts over, comes
/// back to 0 only after its trip count, and stays a counter.
static constexpr size_t FewSlotValues = 16;

void Specializer::noteSlotValues(const BasicBlock *Header, const State &S) {
  auto &Seen = slotValuesSeen[Header];
  auto Note = [&](const SlotId &Slot, const AbstractValue &A) {
    SlotHistory &History = Seen[Slot];
    if (History.values.size() > FewSlotValues)
      return;
    std::string Value;
    raw_string_ostream OS(Value);
    writeSlotValue(OS, &A);
    if (Value != History.last && History.values.count(Value))
      History.returns = true;
    History.values.insert(Value);
    History.last = std::move(Value);
  };
  for (auto &[V, A] : S.frames.back().env)
    Note({V, 0}, A);
  for (auto &[Id, Obj] : S.memory.objects)
    for (auto &[Off, C] : Obj.cells)
      Note(SlotId::cell(Id, Off), C.value);
}

/// The slots of Header's loop that took few values while a counter ran away
/// (hasRunawayCounter), at least one of them returning to values it had left:
/// an interpreter's state beside a step counter. Empty when the
/// loop's state space is simply large, or its few-valued slots only move on
/// (an outer loop's index, seen at an inner loop's header).
std::set<SlotId> Specializer::fewValuedSlots(const BasicBlock *Header) const {
  auto It = slotValuesSeen.find(Header);
  if (It == slotValuesSeen.end())
    return {};
  std::set<SlotId> Few;
  bool Cycles = false;
  for (auto &[Slot, History] : It->second) {
    if (History.values.size() > FewSlotValues)
      continue;
    if (History.values.count("D")) // dynamic at times: no key
      continue;
    Few.insert(Slot);
    Cycles |= History.returns;
  }
  return Cycles && hasRunawayCounter(Header) ? Few : std::set<SlotId>{};
}

/// The pointers into known objects among S's loop-carried values.
std::vector<Specializer::EntryPointer> Specializer::loopCarriedPointers(const State &S) {
  std::vector<EntryPointer> Pointers;
  for (auto &[V, A] : S.frames.back().env)
    if (A.kind == AbstractValue::ObjectPointer)
      Pointers.push_back({{V, 0}, A.object, A.offset});
  return Pointers;
}

/// Of Pointers, the one into Cell's object nearest to it (null: none points
/// into it). A cell of a stack of frames is named relative to it: "the frame
/// below the current one".
const Specializer::EntryPointer *Specializer::nearestPointer(ArrayRef<EntryPointer> Pointers,
                                                             const SlotId &Cell) {
  const EntryPointer *Nearest = nullptr;
  for (const EntryPointer &P : Pointers)
    if (P.object == Cell.object() &&
        (!Nearest || std::abs(Cell.offset - P.offset) < std::abs(Cell.offset - Nearest->offset)))
      Nearest = &P;
  return Nearest;
}

/// Called for a use of a value that a loop header stamped (valueOf), and for a
/// load of a tracked cell still holding the value it had at the header's
/// entry (evaluateLoad): the loop's iterations read that part of their state,
/// and so do those of the enclosing loops whose entries it came from
/// (Origin::outer). A cell is recorded relative to the nearest loop-carried
/// pointer into its object (a cell of the frame below the current one, at
/// whatever depth the current frame is), or as itself where none points.
void Specializer::noteStateRead(const Origin &From) {
  if (!From || !From.entry)
    return;
  if (From.outer)
    noteStateRead(outerOrigins[From.outer - 1]);
  if (!From.cell) { // (every use of a value comes here: one hash lookup per level seen)
    if (valueReads.insert({From.header, From.slot.base}).second)
      stateReads[From.header]; // the loop has reads
    return;
  }
  StateReads &Reads = stateReads[From.header];
  const EntryPointer *Nearest = nearestPointer(loopEntries[From.entry - 1], From.slot);
  if (Nearest)
    Reads.relative.insert({Nearest->slot, From.slot.offset - Nearest->offset});
  else
    Reads.cells.insert(From.slot);
}

/// The link from a cell's origin stamped at Header's entry to the one it had:
/// the same cell at an enclosing loop's entry (an inner loop's iterations
/// stamp it again and again: they keep the link they had).
uint32_t Specializer::outerOrigin(const Origin &Previous, const BasicBlock *Header) {
  if (!Previous || !Previous.entry)
    return 0;
  if (Previous.header == Header)
    return Previous.outer;
  outerOrigins.push_back(Previous);
  return outerOrigins.size();
}

/// The key of a loop keyed on its live state: its loop-carried values and
/// the cells its iterations were seen to read (noteStateRead), less the slots
/// that never came back to a value (counters). Cells nothing reads before
/// writing them again (the frames above a stack's top) do not tell
/// iterations apart: they meet.
std::string Specializer::liveStateKey(const BasicBlock *Header, const State &S) {
  static const StateReads None;
  auto Found = stateReads.find(Header);
  const StateReads &Reads = Found == stateReads.end() ? None : Found->second;
  const std::set<SlotId> &Counters = counterSlots.at(Header);
  std::vector<EntryPointer> Pointers = loopCarriedPointers(S);
  return iterationKey(S, [&](const SlotId &Slot, bool IsCell) {
    if (Counters.count(Slot))
      return false;
    if (!IsCell)
      return valueReads.count({Header, Slot.base}) > 0;
    const EntryPointer *Nearest = nearestPointer(Pointers, Slot);
    return Nearest ? Reads.relative.count({Nearest->slot, Slot.offset - Nearest->offset}) > 0
                   : Reads.cells.count(Slot) > 0;
  });
}

/// Whether a slot of Header's loop showed more than FewSlotValues values while
/// unrolling before coming back to one: a counter that ran away (a step
/// counter, a counted loop's index). A slot with many values that came back
/// among its first ones (the pattern position saved in one of PCRE2's frames)
/// is state.
bool Specializer::hasRunawayCounter(const BasicBlock *Header) const {
  auto It = slotValuesSeen.find(Header);
  return It != slotValuesSeen.end() && llvm::any_of(It->second, [](auto &Entry) {
           return Entry.second.values.size() > FewSlotValues && !Entry.second.returns;
         });
}

/// The slots of Header's loop that took more than a few values while
/// unrolling without ever coming back to one: counters (PCRE2's
/// match_call_count, reset for each start position, takes about a dozen).
std::set<SlotId> Specializer::movingSlots(const BasicBlock *Header) const {
  std::set<SlotId> Moving;
  if (auto It = slotValuesSeen.find(Header); It != slotValuesSeen.end())
    for (auto &[Slot, History] : It->second)
      if (!History.returns && History.values.size() > 4)
        Moving.insert(Slot);
  return Moving;
}

} // namespace detail
} // namespace respec
