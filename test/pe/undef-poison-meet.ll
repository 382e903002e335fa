; Undefined values are the bottom of the lattice (pe/Generalization.cpp,
; meetValues): a loop-carried value that is undef on one path and poison on
; another meets to undef, whichever path arrives first. Poison would be wrong:
; the generic code returns undef (an uninitialized read) when the loop does not
; run, and poison may be folded as if the path were unreachable.
;
; RUN: %respec specialize %s -O0 --emit-llvm -o - -q | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr constant [18 x i8] c"respec.specialize\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [5 x i8] c"a.ll\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @poison_second, ptr @.str, ptr @.str.1, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @poison_first, ptr @.str, ptr @.str.1, i32 2, ptr null }],
  section "llvm.metadata"
@llvm.compiler.used = appending global [2 x ptr] [ptr @poison_second, ptr @poison_first], section "llvm.metadata"

define internal i32 @undef_then_poison(i32 %n, i1 %c) {
entry:
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %x = phi i32 [ undef, %entry ], [ %y, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done

body:
  br i1 %c, label %a, label %b

a:
  br label %latch

b:
  br label %latch

latch:
  %y = phi i32 [ undef, %a ], [ poison, %b ]
  %i.next = add i32 %i, 1
  br label %head

done:
  ret i32 %x
}

define internal i32 @poison_then_undef(i32 %n, i1 %c) {
entry:
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %x = phi i32 [ undef, %entry ], [ %y, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done

body:
  br i1 %c, label %a, label %b

a:
  br label %latch

b:
  br label %latch

latch:
  %y = phi i32 [ poison, %a ], [ undef, %b ]
  %i.next = add i32 %i, 1
  br label %head

done:
  ret i32 %x
}

; CHECK-LABEL: define {{.*}} @poison_second(
; CHECK-NOT: i32 poison
; CHECK: ret i32 undef
; CHECK-NOT: i32 poison
; CHECK: {{^}}}
define dso_local i32 @poison_second(i32 %n, i1 %c) noinline {
  %r = call i32 @undef_then_poison(i32 %n, i1 %c)
  ret i32 %r
}

; CHECK-LABEL: define {{.*}} @poison_first(
; CHECK-NOT: i32 poison
; CHECK: ret i32 undef
; CHECK-NOT: i32 poison
; CHECK: {{^}}}
define dso_local i32 @poison_first(i32 %n, i1 %c) noinline {
  %r = call i32 @poison_then_undef(i32 %n, i1 %c)
  ret i32 %r
}
