; A getelementptr whose constant index does not make a 64-bit byte offset —
; an index wider than 64 bits, or one whose product with the element size
; overflows — is evaluated as a GEP with a run-time index (pe/EvaluateValues.cpp,
; constantIndexOffset): the residual instruction computes what LLVM's wrapping
; arithmetic says, and the object it points into is no longer tracked. (The
; sanitized stage of scripts/test runs this with respec built with UBSan, which
; flagged the signed multiplication these once went through.)
;
; RUN: %respec specialize %s -O0 --emit-llvm -o - -q | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr constant [18 x i8] c"respec.specialize\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [5 x i8] c"a.ll\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @wide_index, ptr @.str, ptr @.str.1, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @wrapping_offset, ptr @.str, ptr @.str.1, i32 2, ptr null }],
  section "llvm.metadata"
@llvm.compiler.used = appending global [2 x ptr] [ptr @wide_index, ptr @wrapping_offset], section "llvm.metadata"

; The i128 index truncates to 1: the load reads the 7 stored at cells[1], at
; run time.
; CHECK-LABEL: define i32 @wide_index()
; CHECK:         store i32 7, ptr
; CHECK-NEXT:    [[AT:%.*]] = getelementptr i32, ptr %cells, i128 18446744073709551617
; CHECK-NEXT:    [[V:%.*]] = load i32, ptr [[AT]]
; CHECK-NEXT:    ret i32 [[V]]
define i32 @wide_index() {
entry:
  %cells = alloca [4 x i32], align 4
  %one = getelementptr i32, ptr %cells, i64 1
  store i32 7, ptr %one, align 4
  %alias = getelementptr i32, ptr %cells, i128 18446744073709551617
  %v = load i32, ptr %alias, align 4
  ret i32 %v
}

; (2^62 + 1) * 4 bytes wraps to 4 in 64 bits.
; CHECK-LABEL: define i32 @wrapping_offset()
; CHECK:         store i32 7, ptr
; CHECK-NEXT:    [[AT:%.*]] = getelementptr i32, ptr %cells, i64 4611686018427387905
; CHECK-NEXT:    [[V:%.*]] = load i32, ptr [[AT]]
; CHECK-NEXT:    ret i32 [[V]]
define i32 @wrapping_offset() {
entry:
  %cells = alloca [4 x i32], align 4
  %one = getelementptr i32, ptr %cells, i64 1
  store i32 7, ptr %one, align 4
  %alias = getelementptr i32, ptr %cells, i64 4611686018427387905
  %v = load i32, ptr %alias, align 4
  ret i32 %v
}
