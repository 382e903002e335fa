// respec profile in one command on a CMake project's target (the CMakeLists.txt
// of Inputs/train-project): the build command configures the copied tree and
// builds the target; CMake finds the compiler that adds the profiling (cc on
// PATH), and the training command runs the target's program from the build
// directory.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp -r %inputs/train-project %t/source
// RUN: %respec profile --source %t/source --binary build/vm --work-dir %t/work \
// RUN:   --train '{binary} 200 > %t/output' --top 1 \
// RUN:   -- sh -c 'cmake -S . -B build >/dev/null && cmake --build build --target vm' 2> %t/log | FileCheck %s
// RUN: test ! -e %t/source/build
// RUN: grep -x 7939400 %t/output
//
// CHECK: 1. run: memory behind 'pc' (const struct insn *) is constant: reads at offsets 0..40
// CHECK-NEXT: region at {{.*}}vm.c:[[#]]{{.*}}; function called 200 times
// CHECK: measured by the partial evaluator: run specializes to [[#]] instructions
