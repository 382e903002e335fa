//===- SmallSwitchLowering.h - Switches as compare chains -------*- C++ -*-===//
//
// Run-time specialization selects instructions with FastISel, which cannot
// select a switch: a block ending in one goes to SelectionDAG, whose code a
// generation then also has to bring into cache (6% of a `tcp port 80`
// generation). SimplifyCFG makes switches of the residual code's compare
// chains (`ethertype == 0x800 || ethertype == 0x86dd`), so they are common.
// A small switch is lowered here to the chain of equality tests SelectionDAG
// would emit for it, in case order. LLVM's lowerswitch pass makes a binary
// search tree instead, whose extra ordered compares cost libpcap's `vlan and
// tcp` filter 40% on a mixed trace (mispredicted branches); larger switches
// are left to SelectionDAG's jump tables and bit tests.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_JIT_SMALL_SWITCH_LOWERING_H
#define RESPEC_JIT_SMALL_SWITCH_LOWERING_H

#include "llvm/IR/Module.h"

namespace respec {

/// Switches with at most this many cases become compare chains.
constexpr unsigned SmallSwitchCases = 4;

/// Lowers every small switch in M; returns how many.
unsigned lowerSmallSwitches(llvm::Module &M);

} // namespace respec

#endif
