//===- Reroll.h - Residual loops from repeated straight-line code -*- C++ -*-===//
//
// A loop with a static trip count is unrolled by the specializer: every check
// the static induction decides folds, and what is left of each iteration is
// the same few instructions with different constants (`load a+4k; bswap;
// store buf+4+4k`). For long loops that straight-line code is worse than a
// loop: it fills the instruction cache, and the loop vectorizer never sees it
// (the SLP vectorizer cannot reorder its loads and stores, which may alias).
//
// Rerolling turns such code back into a counted loop after the clean-up
// pipeline. In one basic block it looks for N consecutive windows of P
// instructions where window k+1 is window k with every integer constant
// operand moved by a fixed step (the same step for that operand in every
// window), and every other operand the same value, or the same position in
// its own window. The windows become one loop body executed N times, the
// constants computed from the induction variable (c0 + k*step, wrapping as
// the constants did), so the loop runs exactly the instructions the straight
// code ran, in the same order: the transformation needs no alias or overflow
// reasoning. One exception: the straight code's last window often lacks the
// instructions that only prepared the next one (the next element's
// addresses). When every instruction it lacks is pure and safe to run on any
// operands (no memory access, no division), the loop runs once more instead
// of leaving that element after it, and computes those values unused: an
// element after the loop would give the vectorizer a trip count one short of
// the array's, and code after the loop that it cannot merge into its own
// remainder. Then LLVM's loop passes see a loop: they vectorize it (with a
// run-time alias check), unroll it by a small factor, or unroll it fully
// again if it is short.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_REROLL_H
#define RESPEC_PE_REROLL_H

#include "llvm/IR/Function.h"

namespace respec {

/// Rerolls every run of at least MinInstructions repeated instructions in F
/// (see above); returns the number of loops formed.
unsigned rerollRepeatedCode(llvm::Function &F, unsigned MinInstructions);

} // namespace respec

#endif
