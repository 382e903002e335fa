//===- small_switch_lowering_test.cpp - Compare chains = the switch --------===//
//
// jit/SmallSwitchLowering.h replaces small switches by chains of equality
// tests. This lowers functions with switches of the shapes residual code has
// (distinct targets, several cases to one target, a case to the default, phis
// in all of them) and checks that the result verifies, that no small switch
// is left and large ones are, and that the lowered function returns what the
// original returns for every condition value in a range around the cases
// (both compiled with LLJIT).
//
//===----------------------------------------------------------------------===//
#include "SmallSwitchLowering.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <cstdio>

using namespace llvm;

namespace {

/// Each function: i32 f(i32), a switch on its argument. `@large` keeps its
/// switch (more than SmallSwitchCases cases).
const char *const Functions = R"(
define i32 @distinct(i32 %x) {
entry:
  switch i32 %x, label %other [ i32 8, label %a
                                i32 -8826, label %b ]
a:
  ret i32 1
b:
  ret i32 2
other:
  ret i32 0
}

define i32 @shared(i32 %x) {
entry:
  %y = add i32 %x, 3
  switch i32 %y, label %join [ i32 129, label %vlan
                               i32 34984, label %vlan
                               i32 7, label %join ]
vlan:
  %v = phi i32 [ 10, %entry ], [ 10, %entry ]
  br label %join
join:
  %r = phi i32 [ %v, %vlan ], [ %y, %entry ], [ %y, %entry ]
  ret i32 %r
}

define i32 @one(i32 %x) {
entry:
  switch i32 %x, label %no [ i32 44, label %yes ]
yes:
  %p = phi i32 [ 5, %entry ]
  ret i32 %p
no:
  %q = phi i32 [ 6, %entry ]
  ret i32 %q
}

define i32 @large(i32 %x) {
entry:
  switch i32 %x, label %d [ i32 1, label %a
                            i32 2, label %b
                            i32 3, label %a
                            i32 4, label %b
                            i32 5, label %a ]
a:
  ret i32 1
b:
  ret i32 2
d:
  ret i32 0
}
)";

const char *const Names[] = {"distinct", "shared", "one", "large"};

unsigned countSwitches(const Function &F) {
  unsigned N = 0;
  for (const Instruction &I : instructions(F))
    N += isa<SwitchInst>(I);
  return N;
}

} // namespace

int main() {
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  auto Context = std::make_unique<LLVMContext>();
  SMDiagnostic Diagnostic;
  std::unique_ptr<Module> Original = parseAssemblyString(Functions, Diagnostic, *Context);
  if (!Original) {
    Diagnostic.print("small-switch-lowering-test", errs());
    return 1;
  }
  std::unique_ptr<Module> Lowered = CloneModule(*Original);
  for (Function &F : *Lowered)
    F.setName("lowered_" + F.getName());
  unsigned Count = respec::lowerSmallSwitches(*Lowered);
  int Failures = 0;
  if (verifyModule(*Lowered, &errs())) {
    fprintf(stderr, "the lowered module does not verify\n");
    return 1;
  }
  if (Count != 3) {
    fprintf(stderr, "lowered %u switches, expected 3\n", Count);
    ++Failures;
  }
  for (const char *Name : Names) {
    unsigned Left = countSwitches(*Lowered->getFunction(std::string("lowered_") + Name));
    if (Left != (std::string(Name) == "large" ? 1u : 0u)) {
      fprintf(stderr, "%s: %u switches left\n", Name, Left);
      ++Failures;
    }
  }

  auto Jit = orc::LLJITBuilder().create();
  if (!Jit) {
    fprintf(stderr, "%s\n", toString(Jit.takeError()).c_str());
    return 1;
  }
  orc::ThreadSafeContext Shared(std::move(Context));
  for (std::unique_ptr<Module> *M : {&Original, &Lowered})
    if (llvm::Error E = (*Jit)->addIRModule(orc::ThreadSafeModule(std::move(*M), Shared))) {
      fprintf(stderr, "%s\n", toString(std::move(E)).c_str());
      return 1;
    }
  for (const char *Name : Names) {
    auto Generic = (*Jit)->lookup(Name);
    auto Chain = (*Jit)->lookup(std::string("lowered_") + Name);
    if (!Generic || !Chain) {
      fprintf(stderr, "%s: not compiled\n", Name);
      return 1;
    }
    auto *F = Generic->toPtr<int (*)(int)>(), *G = Chain->toPtr<int (*)(int)>();
    for (int X : {-8826, -8823, 34981, 34984, 129, 126}) // the cases and around them
      for (int Near = X - 3; Near <= X + 3; ++Near)
        if (F(Near) != G(Near)) {
          fprintf(stderr, "%s(%d): switch %d, compare chain %d\n", Name, Near, F(Near), G(Near));
          ++Failures;
        }
    for (int X = -64; X <= 200; ++X)
      if (F(X) != G(X)) {
        fprintf(stderr, "%s(%d): switch %d, compare chain %d\n", Name, X, F(X), G(X));
        ++Failures;
      }
  }
  if (Failures)
    return 1;
  printf("small switches lowered to compare chains: same results on every input tried\n");
  return 0;
}
