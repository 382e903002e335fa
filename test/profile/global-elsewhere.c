// A pointer into a global variable that another source defines: the symbol
// tables name it (a global symbol has no source file), and the function that
// reads it is in a source that never names it, so a spec including that source
// cannot state it. The fact is set aside with the reason, and the function is
// measured with its other fact.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c '%clang -O2 $(%respec profile --cflags) -I%inputs %s %inputs/global-elsewhere-codec.c $(%respec profile --ldflags) -o %t/program'
// RUN: env RESPEC_PROFILE_OUT=%t/profile.txt %t/program 500
// RUN: %respec profile report %t/profile.txt --top 3 | FileCheck %s
//
// CHECK: 1. encode: s->op == 0
// CHECK: measured by the partial evaluator: encode specializes to [[#]] instructions with s->op == 0, [[#]] without
// CHECK-NEXT: predicted speedup
// CHECK-NEXT: not stated: s->ops == respec_variable("stream_ops"): the global stream_ops is defined in a source other than global-elsewhere-codec.c (the symbol tables do not say which: name it in a spec by hand)
// CHECK: encode: s->ops == respec_variable("stream_ops")
#include "global-elsewhere.h"
#include <stdio.h>
#include <stdlib.h>

static int put(struct stream *s, int v)
{
	s->written += v;
	return 1;
}

const struct ops stream_ops = {put};

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	struct stream s = {0, &stream_ops, 0};
	int total = 0;
	for (int i = 0; i < n; i++)
		total += encode(&s, i);
	printf("%d %d\n", total, s.written);
	return 0;
}
