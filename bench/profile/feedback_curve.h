/*
 * feedback_curve.h — the adversarial-writer cases of `bench/run profile`
 * (feedback_curve.c says what they measure).
 */
#ifndef RESPEC_BENCH_FEEDBACK_CURVE_H
#define RESPEC_BENCH_FEEDBACK_CURVE_H

#include "harness.h"

/* Adds a case per write rate, each with the generic, always and feedback
 * variants, and starts the writer thread on another CPU than the harness's. */
void feedback_curve_add(struct bench *bench);
/* After bench_run: the writer's stores and each predicate's breaks,
 * re-specializations and back-offs. */
void feedback_curve_print_stats(void);

#endif
