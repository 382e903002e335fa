; Only the x86-64 System V va_list is modeled (pe/VariadicArguments.cpp):
; elsewhere a variadic callee is called, not unfolded, and the note says why.
;
; RUN: %respec specialize %s --target=aarch64-unknown-linux-gnu --emit-llvm -o %t.ll 2> %t.notes
; RUN: %FileCheck %s < %t.ll
; RUN: %FileCheck --check-prefix=NOTE %s < %t.notes
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-unknown-linux-gnu"

@.str = private unnamed_addr constant [18 x i8] c"respec.specialize\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [5 x i8] c"a.ll\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @spec, ptr @.str, ptr @.str.1, i32 1, ptr null }], section "llvm.metadata"
@llvm.compiler.used = appending global [1 x ptr] [ptr @spec], section "llvm.metadata"

declare void @llvm.va_start(ptr)
declare void @llvm.va_end(ptr)

define internal i64 @first(i32 %n, ...) {
  %ap = alloca [32 x i8], align 8
  call void @llvm.va_start(ptr %ap)
  %v = va_arg ptr %ap, i64
  call void @llvm.va_end(ptr %ap)
  ret i64 %v
}

; NOTE: note: call to 'first' kept residual: variadic function (respec models va_list on x86-64 System V only)
; CHECK-LABEL: define {{.*}} @spec(
; CHECK: call {{.*}}@first(i32 {{.*}}, i64 %a)
define dso_local i64 @spec(i64 %a) noinline {
  %r = call i64 (i32, ...) @first(i32 1, i64 %a)
  ret i64 %r
}
