// respec profile in one command on a make project (Inputs/train-project): the
// build runs in a copy of the tree with the profiling added to every compile
// and link (through $(CC)), the training command runs the program it made, and
// the report ranks what the run saw. The source tree is left as it was.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp -r %inputs/train-project %t/source
// RUN: %respec profile --source %t/source --binary vm --work-dir %t/work \
// RUN:   --train '{binary} 200 > %t/output' --top 2 -- make 2> %t/log | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t/log
// RUN: test ! -e %t/source/vm && test ! -e %t/source/vm.o
// The program ran as built by the project (its output), with the profiling:
// RUN: grep -x 7939400 %t/output
//
// CHECK: 1. run: memory behind 'pc' (const struct insn *) is constant: reads at offsets 0..40
// CHECK-NEXT: region at {{.*}}vm.c:[[#]]{{.*}}; function called 200 times
// CHECK: measured by the partial evaluator: run specializes to [[#]] instructions
// CHECK-NEXT: predicted speedup
//
// LOG: profile: build profiled: copying {{.*}}source
// LOG: profile: build profiled: running the build (log: {{.*}}work/profiled/build.log)
// LOG: profile: training {{.*}}work/profiled/tree/vm (log: {{.*}}work/train.log)
// LOG: profile: 1 profile(s) in {{.*}}work/profiles
//
// A second run finds the build current and trains again:
// RUN: %respec profile --source %t/source --binary vm --work-dir %t/work \
// RUN:   --train '{binary} 10 > /dev/null' --top 1 --measure 0 -- make 2> %t/again | FileCheck %s --check-prefix=AGAIN
// RUN: FileCheck %s --check-prefix=AGAIN-LOG < %t/again
// AGAIN: function called 10 times
// AGAIN-LOG: profile: build profiled: current
//
// Errors say what is missing:
// RUN: not %respec profile --binary vm -- make 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: error: --train needs --binary PATH, --train 'COMMAND' and the build command after --
// RUN: not %respec profile --source %t/source --binary vm --work-dir %t/work \
// RUN:   --train 'true' -- make 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: true: error: the training wrote no profile (is {binary} in the command?
