/*
 * variant_targets_list.c — prints every target examples/variant_targets.h knows, one a
 * line: the cpu, then the features it checks the CPU for, then whether this machine
 * can run the target ("runs here" or "lacks <features>"). check_variant_targets.cmake
 * compares the features with what clang's -march=<cpu> enables.
 */
#include "variant_targets.h"

#include <stdio.h>

int main(void)
{
	for (size_t i = 0; i < VARIANT_TARGETS_COUNT; i++) {
		const struct variant_target *target = &variant_targets[i];
		printf("%s:", target->cpu);
		for (size_t f = 0; f < target->features; f++)
			printf(" %s", variant_target_features[f].name);
		char missing[256];
		if (variant_target_check(target, missing, sizeof missing))
			printf(": runs here\n");
		else
			printf(": lacks %s\n", missing);
	}
	return 0;
}
