// respec explain: every reached line of the generic code marked S (evaluated
// away), D (residual) or M (mixed: here the multiplication stays, the branch
// to the return is evaluated), the statistics, and a self-contained HTML
// page with the same information.
//
// RUN: %respec explain %s --color=never --html %t.html | %FileCheck %s
// RUN: %FileCheck --check-prefix=HTML %s < %t.html
#include <respec/respec.h>

static int weight(int kind, int x) {
  if (kind == 2)
    return x * 3;
  return x;
}

// CHECK: === weighted ===
// CHECK: explain.c: weight
// CHECK:  [[@LINE-7]] S |   if (kind == 2)
// CHECK:  [[@LINE-7]] M |     return x * 3;
// CHECK: summary: {{[0-9]+}} static, {{[0-9]+}} residual, {{[0-9]+}} mixed lines
// CHECK: branches folded: 1
// CHECK: calls unfolded: 1
// HTML: <!DOCTYPE html>
// HTML: <h2>weighted</h2>
// HTML: <span class="S" title="evaluated 2x, residual 0x"><span class="ln">[[@LINE-14]]</span>  if (kind == 2)</span>
// HTML: <span class="M" title="evaluated 1x, residual 1x"><span class="ln">[[@LINE-14]]</span>    return x * 3;</span>
RESPEC_SPECIALIZE int weighted(int x) { return weight(2, x); }
