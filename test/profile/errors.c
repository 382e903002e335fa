// respec profile report's errors name the file and line, and leave no spec.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf 'not a profile\n' > %t/wrong-header.txt
// RUN: not %respec profile report %t/wrong-header.txt 2>&1 | FileCheck %s --check-prefix=HEADER
// HEADER: wrong-header.txt:1: error: not a respec profile (expected 'respec-profile 1')
//
// RUN: printf 'respec-profile 1\nfield\tf\ta.c:3\ts->op\tS+0\tint\tmany\t0\t1:5:0\n' > %t/bad-count.txt
// RUN: not %respec profile report %t/bad-count.txt --specs %t/specs 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not ls %t/specs
// COUNT: bad-count.txt:2: error: not a number: 'many'
//
// A branch record without the count of the executions whose condition held:
// RUN: printf 'respec-profile 1\nbranch\tf\ta.c:3\t/src/a.c\t3\t\t10\n' > %t/short-branch.txt
// RUN: not %respec profile report %t/short-branch.txt 2>&1 | FileCheck %s --check-prefix=BRANCH
// BRANCH: short-branch.txt:2: error: a branch record of 7 fields
//
// RUN: not %respec profile report %t/none.txt 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: none.txt: error: cannot read: No such file or directory
//
// RUN: not %respec profile report --top x 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: respec profile: error: --top takes a number, not 'x'
//
// RUN: not %respec profile frobnicate 2>&1 | FileCheck %s --check-prefix=COMMAND
// COMMAND: error: unknown command 'frobnicate' (respec profile --help lists them)
