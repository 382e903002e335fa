//===- ReusedPipelineCompiler.cpp - One codegen pipeline, many modules ----===//
//
// See ReusedPipelineCompiler.h for why the pipeline is built only once.
//
//===----------------------------------------------------------------------===//
#include "ReusedPipelineCompiler.h"
#include "SchedulingGate.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace respec {

ReusedPipelineCompiler::ReusedPipelineCompiler(std::unique_ptr<TargetMachine> Machine)
    : IRCompiler(orc::irManglingOptionsFromTargetOptions(Machine->Options)),
      machine(std::move(Machine)) {}

Expected<std::unique_ptr<MemoryBuffer>> ReusedPipelineCompiler::operator()(Module &M) {
  std::lock_guard<std::mutex> Guard(lock);
  if (!pipelineBuilt) {
    MCContext *Context;
    if (machine->addPassesToEmitMC(pipeline, Context, objectStream))
      return make_error<StringError>("the target cannot emit object code",
                                     inconvertibleErrorCode());
    pipelineBuilt = true;
  }
  // The stream writes straight into `object` (raw_svector_ostream is unbuffered),
  // so emptying the vector starts the next object at offset 0.
  object.clear();
  SchedulingGate Gate(M);
  pipeline.run(M);
  return MemoryBuffer::getMemBufferCopy(StringRef(object.data(), object.size()),
                                        M.getModuleIdentifier() + "-object");
}

} // namespace respec
