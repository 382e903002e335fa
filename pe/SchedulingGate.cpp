//===- SchedulingGate.cpp - Code generation of very large blocks ----------===//
//
// See SchedulingGate.h for why the machine scheduler skips very large blocks.
//
//===----------------------------------------------------------------------===//
#include "SchedulingGate.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace respec {

SchedulingGate::SchedulingGate(Module &M) {
  for (Function &F : M)
    for (BasicBlock &B : F)
      if (B.size() > kMaxScheduledBlock) {
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

bool SchedulingGate::shouldRunPass(StringRef PassName, StringRef IRDescription) {
  if (PassName == "Machine Instruction Scheduler" && unscheduled.count(IRDescription.str()))
    return false;
  return !previous->isEnabled() || previous->shouldRunPass(PassName, IRDescription);
}

} // namespace respec
