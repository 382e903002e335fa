// Effects are preserved exactly: stores of static values to caller-visible
// memory, external calls and volatile accesses all stay, in order.
//
// RUN: %respec specialize %s -O2 --emit-llvm -o - -q | %FileCheck %s
#include <respec/respec.h>

void log_event(int);

static void emit(int *out, volatile int *device, int k) {
  out[0] = k;
  log_event(k);
  *device = k * 2;
  out[1] = *device;
  log_event(k + 1);
}

// CHECK-LABEL: define {{.*}} @effects(ptr {{.*}}%out, ptr {{.*}}%device)
// CHECK: store i32 5, ptr %out
// CHECK-NEXT: call void @log_event(i32 noundef 5)
// CHECK-NEXT: store volatile i32 10, ptr %device
// CHECK-NEXT: load volatile i32, ptr %device
// CHECK: store i32
// CHECK-NEXT: call void @log_event(i32 noundef 6)
RESPEC_SPECIALIZE void effects(int *out, volatile int *device) { emit(out, device, 5); }
