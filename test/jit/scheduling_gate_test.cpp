//===- scheduling_gate_test.cpp - Very large blocks skip the scheduler ----===//
//
// Code generation gives LLVM's machine scheduler no function with a block of
// more than SchedulingGate::MaxScheduledBlock instructions (pe/SchedulingGate.h:
// it is quadratic there), and every other pass and function as usual. The run-time
// code generator compiles a module with one such function and one small one,
// under a recording gate installed first (as -opt-bisect-limit would be): the
// recording gate must be asked about the scheduler for the small function only,
// about instruction selection for both, and be the context's gate again after.
//
//===----------------------------------------------------------------------===//
#include "ReusedPipelineCompiler.h"
#include "SchedulingGate.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include <cstdio>
#include <set>
#include <string>

using namespace llvm;

namespace {

/// Says yes to every pass, and remembers what it was asked.
struct RecordingGate : OptPassGate {
  std::set<std::pair<std::string, std::string>> asked;
  bool shouldRunPass(StringRef PassName, StringRef IRDescription) override {
    asked.insert({PassName.str(), IRDescription.str()});
    return true;
  }
  bool isEnabled() const override { return true; }
  bool wasAsked(StringRef PassName, StringRef Function) const {
    return asked.count({PassName.str(), "function (" + Function.str() + ")"});
  }
};

/// @big: one block of a dependent chain longer than the limit; @small: a few.
std::string moduleText() {
  std::string Text = "define i64 @big(i64 %x) {\nentry:\n  %v0 = add i64 %x, 1\n";
  unsigned Last = respec::SchedulingGate::MaxScheduledBlock + 1;
  for (unsigned I = 1; I <= Last; ++I)
    Text += "  %v" + std::to_string(I) + " = " + (I % 2 ? "mul" : "xor") + " i64 %v" +
            std::to_string(I - 1) + ", " + std::to_string(I * 7 + 3) + "\n";
  Text += "  ret i64 %v" + std::to_string(Last) + "\n}\n";
  Text += "define i64 @small(i64 %x) {\n  %a = mul i64 %x, 3\n  %b = xor i64 %a, 5\n"
          "  ret i64 %b\n}\n";
  return Text;
}

} // namespace

int main() {
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  auto Builder = cantFail(orc::JITTargetMachineBuilder::detectHost());
  respec::ReusedPipelineCompiler Compiler(cantFail(Builder.createTargetMachine()));

  LLVMContext Context;
  SMDiagnostic Error;
  std::unique_ptr<Module> M = parseAssemblyString(moduleText(), Error, Context);
  if (!M) {
    Error.print("scheduling-gate-test", errs());
    return 2;
  }
  RecordingGate Recorder;
  Context.setOptPassGate(Recorder);
  auto Object = Compiler(*M);
  if (!Object) {
    fprintf(stderr, "no object: %s\n", toString(Object.takeError()).c_str());
    return 1;
  }

  const char *Scheduler = "Machine Instruction Scheduler";
  const char *Selection = "X86 DAG->DAG Instruction Selection";
  int Failures = 0;
  auto Expect = [&](bool Holds, const char *What) {
    if (!Holds) {
      fprintf(stderr, "FAILED: %s\n", What);
      ++Failures;
    }
  };
  Expect(!Recorder.wasAsked(Scheduler, "big"), "the scheduler was not skipped for @big");
  Expect(Recorder.wasAsked(Scheduler, "small"), "the scheduler was skipped for @small");
  Expect(Recorder.wasAsked(Selection, "big") && Recorder.wasAsked(Selection, "small"),
         "instruction selection was not asked about for both functions");
  Expect(&Context.getOptPassGate() == &Recorder, "the context's gate was not restored");
  Expect((*Object)->getBufferSize() > 10000, "the object is too small to hold @big");
  printf("%s\n", Failures ? "FAILED" : "scheduling gate: @big unscheduled, @small scheduled");
  return Failures ? 1 : 0;
}
