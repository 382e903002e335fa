//===- pipeline_reuse_test.cpp - ReusedPipelineCompiler = fresh pipelines ---===//
//
// The run-time code generator builds LLVM's codegen pipeline once and runs it on
// every module (jit/ReusedPipelineCompiler.h). This checks that doing so changes
// nothing: modules of different shapes, compiled in an interleaved order by one
// reused pipeline, give byte for byte the objects that a fresh pipeline (and
// target machine) gives each of them.
//
//===----------------------------------------------------------------------===//
#include "ReusedPipelineCompiler.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include <cstdio>
#include <string>
#include <vector>

using namespace llvm;

namespace {

const char *const Modules[] = {
    // A filter-like chain of compares and a switch.
    R"(define i32 @classify(ptr %p, i32 %len) {
entry:
  %short = icmp ult i32 %len, 14
  br i1 %short, label %reject, label %load
load:
  %q = getelementptr inbounds i8, ptr %p, i64 12
  %t = load i16, ptr %q, align 1
  switch i16 %t, label %reject [ i16 8, label %ip
                                 i16 -8826, label %ip6 ]
ip:
  ret i32 262144
ip6:
  ret i32 65535
reject:
  ret i32 0
})",
    // A loop with a call to an external function.
    R"(declare i32 @abs(i32)
define i32 @sum(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s2, %loop ]
  %p = getelementptr inbounds i32, ptr %a, i64 %i
  %v = load i32, ptr %p, align 4
  %w = call i32 @abs(i32 %v)
  %s2 = add i32 %s, %w
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %s2
})",
    // The program's mutable global and private constant data.
    R"(@counter = external global i32
@weights = internal constant [4 x i32] [i32 3, i32 -5, i32 7, i32 11]
define i32 @weigh(i32 %x) {
  %c = load i32, ptr @counter, align 4
  %c2 = add i32 %c, 1
  store i32 %c2, ptr @counter, align 4
  %i = and i32 %x, 3
  %j = zext i32 %i to i64
  %p = getelementptr inbounds [4 x i32], ptr @weights, i64 0, i64 %j
  %w = load i32, ptr %p, align 4
  %r = mul i32 %w, %x
  ret i32 %r
})",
    // Wide arithmetic and floating point.
    R"(define double @mix(i64 %a, i64 %b, double %f) {
  %q = udiv i64 %a, %b
  %r = urem i64 %a, 7
  %s = add i64 %q, %r
  %d = uitofp i64 %s to double
  %m = fmul double %d, %f
  ret double %m
})",
};

/// The run-time specializer's configuration (FastISel at -O2) and the default.
std::unique_ptr<TargetMachine> newMachine(bool FastISel) {
  auto Builder = cantFail(orc::JITTargetMachineBuilder::detectHost());
  Builder.getOptions().EnableFastISel = FastISel;
  return cantFail(Builder.createTargetMachine());
}

std::string compile(respec::ReusedPipelineCompiler &Compiler, unsigned Index) {
  LLVMContext Context;
  SMDiagnostic Error;
  std::unique_ptr<Module> M = parseAssemblyString(Modules[Index], Error, Context);
  if (!M) {
    Error.print("pipeline-reuse-test", errs());
    exit(2);
  }
  M->setModuleIdentifier("module" + std::to_string(Index));
  std::unique_ptr<MemoryBuffer> Object = cantFail(Compiler(*M));
  return Object->getBuffer().str();
}

} // namespace

int main() {
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  const unsigned Count = std::size(Modules);
  const unsigned Order[] = {0, 1, 2, 3, 0, 2, 1, 3, 3, 0};
  int Failures = 0;
  for (bool FastISel : {true, false}) {
    std::vector<std::string> Fresh;
    for (unsigned I = 0; I < Count; ++I) {
      respec::ReusedPipelineCompiler Once(newMachine(FastISel));
      Fresh.push_back(compile(Once, I));
    }
    respec::ReusedPipelineCompiler Reused(newMachine(FastISel));
    for (unsigned I : Order) {
      std::string Object = compile(Reused, I);
      if (Object != Fresh[I]) {
        fprintf(stderr, "module %u%s: the reused pipeline's object (%zu bytes) differs from "
                        "a fresh pipeline's (%zu bytes)\n", I, FastISel ? " (FastISel)" : "",
                Object.size(), Fresh[I].size());
        ++Failures;
      } else if (Object.size() < 64) {
        fprintf(stderr, "module %u: no object\n", I);
        ++Failures;
      }
    }
  }
  printf("%s\n", Failures ? "FAILED" : "reused pipeline: same objects as fresh pipelines");
  return Failures != 0;
}
