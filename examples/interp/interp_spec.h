/*
 * interp_spec.h — the specialized entry point of the interpreter example.
 *
 * Every variant defines run_fixed_program under this name; builds linking several
 * variants rename it with a variant prefix (examples/RespecVariants.cmake), and
 * INTERP_SPEC_DECLARE declares one prefixed copy.
 */
#ifndef INTERP_SPEC_H
#define INTERP_SPEC_H

#include "vm.h"

/* Input words the fixed program reads; shorter inputs make it return VM_FAULT. */
#define INTERP_PROGRAM_WORDS 32

#define INTERP_SPEC_DECLARE(prefix)                                                    \
	/* Checksum of input[0..31] by the fixed bytecode program, or VM_FAULT when \
	 * n < 32. */                                                                      \
	int32_t prefix##run_fixed_program(const int32_t *input, size_t n);               \
	/* The same checksum of input[1..input[0]-1]: the trip count is run-time \
	 * data. VM_FAULT when input[0] > n (or n == 0). */                             \
	int32_t prefix##run_bounded_program(const int32_t *input, size_t n);

INTERP_SPEC_DECLARE()

#endif /* INTERP_SPEC_H */
