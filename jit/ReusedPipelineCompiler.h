//===- ReusedPipelineCompiler.h - One codegen pipeline, many modules -*- C++ -*-===//
//
// The code generator of run-time specialization. ORC's SimpleCompiler builds
// LLVM's code generation pass pipeline (some 200 passes and analyses at -O2,
// `llc -debug-pass=Structure`) for every module it compiles; for the small functions run-time
// specialization makes, building it costs a seventh of code generation
// (addPassesToEmitMC: 2.2M of 15.9M instructions per libpcap `tcp port 80`
// filter, callgrind). This compiler builds the pipeline once, on its first
// module, and runs it again on every later one. LLVM supports re-running a code
// generation pass manager: its passes reset their per-module state in
// doInitialization/doFinalization (`llc --compile-twice` checks the output is
// the same), and test/jit/pipeline_reuse_test.cpp checks it here.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_JIT_REUSED_PIPELINE_COMPILER_H
#define RESPEC_JIT_REUSED_PIPELINE_COMPILER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ExecutionEngine/Orc/IRCompileLayer.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include <memory>
#include <mutex>

namespace respec {

class ReusedPipelineCompiler : public llvm::orc::IRCompileLayer::IRCompiler {
public:
  explicit ReusedPipelineCompiler(std::unique_ptr<llvm::TargetMachine> Machine);

  /// The relocatable object of M.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> operator()(llvm::Module &M) override;

private:
  std::unique_ptr<llvm::TargetMachine> machine;
  std::mutex lock; ///< the pipeline and its output buffer serve one module at a time
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream objectStream{object}; ///< where the pipeline writes
  llvm::legacy::PassManager pipeline;
  bool pipelineBuilt = false;
};

} // namespace respec

#endif
