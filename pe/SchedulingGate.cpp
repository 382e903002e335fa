//===- SchedulingGate.cpp - Code generation of very large blocks ----------===//
//
// See SchedulingGate.h for why the machine scheduler skips very large blocks.
//
//===----------------------------------------------------------------------===//
#include "SchedulingGate.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"

using namespace llvm;

namespace respec {

SchedulingGate::SchedulingGate(Module &M) {
  for (Function &F : M)
    for (BasicBlock &B : F)
      if (B.sizeWithoutDebug() > MaxScheduledBlock) {
        unscheduled.insert("function (" + F.getName().str() + ")");
        break;
      }
  if (unscheduled.empty())
    return;
  context = &M.getContext();
  previous = &context->getOptPassGate();
  context->setOptPassGate(*this);
}

SchedulingGate::~SchedulingGate() {
  if (context)
    context->setOptPassGate(*previous);
}

/// LLVM 16 names a legacy pass it may skip by its name; later versions by its
/// argument (-machine-scheduler).
static bool isMachineScheduler(StringRef PassName) {
  const PassInfo *Info = PassRegistry::getPassRegistry()->getPassInfo(&MachineSchedulerID);
  return Info && (PassName == Info->getPassName() || PassName == Info->getPassArgument());
}

bool SchedulingGate::shouldRunPass(StringRef PassName, StringRef IRDescription) {
  if (unscheduled.count(IRDescription.str()) && isMachineScheduler(PassName))
    return false;
  return !previous->isEnabled() || previous->shouldRunPass(PassName, IRDescription);
}

} // namespace respec
