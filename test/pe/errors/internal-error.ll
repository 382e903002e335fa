; An error inside LLVM (report_fatal_error: here the code generator does not
; know the register a read_register names) is reported as respec's internal
; error, and leaves no output behind.
;
; RUN: echo stale > %t.o
; RUN: %not %respec specialize %s -o %t.o 2>&1 | %FileCheck %s
; RUN: test ! -e %t.o
; CHECK: respec: error: internal error: Invalid register name global variable
target triple = "x86_64-pc-linux-gnu"

@name = private unnamed_addr constant [18 x i8] c"respec.specialize\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @f, ptr @name, ptr null, i32 0, ptr null }], section "llvm.metadata"

define dso_local i64 @f(i64 %x) {
  %r = call i64 @llvm.read_register.i64(metadata !0)
  %s = add i64 %r, %x
  ret i64 %s
}

declare i64 @llvm.read_register.i64(metadata)

!0 = !{!"r12"}
