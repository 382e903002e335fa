; LLVM's own va_arg instruction (clang lowers va_arg inline on x86-64, other
; front ends and hand-written IR do not) is evaluated on the same argument
; areas as clang's lowering (pe/VariadicArguments.cpp): with a static count,
; integers from the register save area and then the overflow area, doubles
; from the xmm slots, and the va_list's offsets all fold. With a dynamic count
; the va_arg stays, reading the areas the call site filled.
;
; RUN: %respec specialize %s -O1 --emit-llvm -o - -q | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr constant [18 x i8] c"respec.specialize\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [5 x i8] c"a.ll\00", section "llvm.metadata"
@llvm.global.annotations = appending global [3 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @all_static, ptr @.str, ptr @.str.1, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @some_dynamic, ptr @.str, ptr @.str.1, i32 2, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @dynamic_count, ptr @.str, ptr @.str.1, i32 3, ptr null }],
  section "llvm.metadata"
@llvm.compiler.used = appending global [3 x ptr] [ptr @all_static, ptr @some_dynamic, ptr @dynamic_count], section "llvm.metadata"

declare void @llvm.va_start(ptr)
declare void @llvm.va_end(ptr)

; s = s * 10 + each of n i64 arguments, then + a double.
define internal i64 @digits(i32 %n, ...) {
entry:
  %ap = alloca { i32, i32, ptr, ptr }, align 16
  call void @llvm.va_start(ptr %ap)
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done

body:
  %v = va_arg ptr %ap, i64
  %s.10 = mul i64 %s, 10
  %s.next = add i64 %s.10, %v
  %i.next = add i32 %i, 1
  br label %loop

done:
  %d = va_arg ptr %ap, double
  %di = fptosi double %d to i64
  %r = add i64 %s, %di
  call void @llvm.va_end(ptr %ap)
  ret i64 %r
}

; Eight integers after the named one: five in registers, three in the overflow
; area; the double in the first xmm slot.
; CHECK-LABEL: define {{.*}} @all_static(
; CHECK-NEXT: entry:
; CHECK-NEXT: ret i64 12345778
define dso_local i64 @all_static() noinline {
  %r = call i64 (i32, ...) @digits(i32 8, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, double 1.0e+02)
  ret i64 %r
}

; CHECK-LABEL: define {{.*}} @some_dynamic(
; CHECK-NOT: va_arg
; CHECK-NOT: call
; CHECK: ret i64
define dso_local i64 @some_dynamic(i64 %a, i64 %b, double %x) noinline {
  %r = call i64 (i32, ...) @digits(i32 7, i64 %a, i64 2, i64 3, i64 4, i64 5, i64 %b, i64 7, double %x)
  ret i64 %r
}

; CHECK-LABEL: define {{.*}} @dynamic_count(
; CHECK: va_arg ptr %{{.*}}, i64
; CHECK: va_arg ptr %{{.*}}, double
define dso_local i64 @dynamic_count(i32 %n, i64 %a) noinline {
  %r = call i64 (i32, ...) @digits(i32 %n, i64 %a, i64 2, i64 3, double 4.0)
  ret i64 %r
}
