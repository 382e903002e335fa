/*
 * variant_targets.h — which variants of a case study this CPU can run.
 *
 * respec_add_variants(... TARGETS <cpu>...) (examples/RespecVariants.cmake) builds
 * every variant a second time per target, with clang's -march=<cpu>, and names the copy
 * <variant>-<suffix>: generic-v3, clang-lto-v3, respec-v3, hand-v3 for x86-64-v3. A
 * program that links them may run them only on a CPU (and kernel) with every feature
 * the target assumes; on any other the first vector or BMI instruction would die with
 * SIGILL. The benchmark harness and the differential tests therefore ask
 * variant_target_check() about every variant before calling it, and skip the
 * variants of a target the machine cannot run, with a message naming what is missing.
 *
 * The targets known here are the x86-64 psABI's micro-architecture levels; their
 * features are spelled as LLVM spells them and are exactly those clang-16's
 * -march=<target> adds to plain -march=x86-64's (test/diff checks this against the
 * compiler: variant-targets-features). Everything is header-only (static functions)
 * so that the harness and the test helpers can share it without another library.
 *
 * For tests of the skipping itself, the environment variable
 * RESPEC_ASSUME_CPU_LACKS=<feature>[,<feature>...] makes the named features count
 * as missing whatever the CPU says.
 */
#ifndef RESPEC_VARIANT_TARGETS_H
#define RESPEC_VARIANT_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define VARIANT_TARGETS_X86 1
#endif

/* How CPUID reports one feature, and the XCR0 state bits the OS must enable for it. */
struct variant_target_feature {
	const char *name;     /* LLVM's spelling, as in -mattr and "target-features" */
	unsigned leaf;	      /* CPUID leaf (sub-leaf 0) */
	char reg;	      /* 'b', 'c' or 'd': the register holding the bit */
	unsigned bit;
	unsigned xcr0;	      /* XCR0 bits that must be set (register state saved by the OS) */
};

/* XCR0: SSE and AVX (YMM) state; opmask, ZMM0-15 upper halves and ZMM16-31. */
#define VARIANT_TARGETS_YMM 0x6u
#define VARIANT_TARGETS_ZMM 0xe6u

static const struct variant_target_feature variant_target_features[] = {
	/* x86-64-v2 */
	{"cx16", 1, 'c', 13, 0},
	{"crc32", 1, 'c', 20, 0}, /* CRC32 is an SSE4.2 instruction */
	{"popcnt", 1, 'c', 23, 0},
	{"sahf", 0x80000001u, 'c', 0, 0},
	{"sse3", 1, 'c', 0, 0},
	{"sse4.1", 1, 'c', 19, 0},
	{"sse4.2", 1, 'c', 20, 0},
	{"ssse3", 1, 'c', 9, 0},
	/* x86-64-v3 */
	{"avx", 1, 'c', 28, VARIANT_TARGETS_YMM},
	{"avx2", 7, 'b', 5, VARIANT_TARGETS_YMM},
	{"bmi", 7, 'b', 3, 0},
	{"bmi2", 7, 'b', 8, 0},
	{"f16c", 1, 'c', 29, VARIANT_TARGETS_YMM},
	{"fma", 1, 'c', 12, VARIANT_TARGETS_YMM},
	{"lzcnt", 0x80000001u, 'c', 5, 0},
	{"movbe", 1, 'c', 22, 0},
	{"xsave", 1, 'c', 26, 0},
	/* x86-64-v4 */
	{"avx512bw", 7, 'b', 30, VARIANT_TARGETS_ZMM},
	{"avx512cd", 7, 'b', 28, VARIANT_TARGETS_ZMM},
	{"avx512dq", 7, 'b', 17, VARIANT_TARGETS_ZMM},
	{"avx512f", 7, 'b', 16, VARIANT_TARGETS_ZMM},
	{"avx512vl", 7, 'b', 31, VARIANT_TARGETS_ZMM},
};

/* A target: the -march CPU, the suffix of its variants' names, and its features
 * (the first `features` entries of variant_target_features: each level includes the
 * one below). */
struct variant_target {
	const char *cpu;
	const char *suffix;
	size_t features;
};

static const struct variant_target variant_targets[] = {
	{"x86-64-v2", "v2", 8},
	{"x86-64-v3", "v3", 17},
	{"x86-64-v4", "v4", 22},
};

#define VARIANT_TARGETS_COUNT (sizeof variant_targets / sizeof variant_targets[0])

/* The target a variant was built for, from its name (<variant>-<suffix>), or NULL for
 * a variant of the baseline target. */
static inline const struct variant_target *variant_target_of(const char *variant)
{
	size_t length = strlen(variant);
	for (size_t i = 0; i < VARIANT_TARGETS_COUNT; i++) {
		size_t suffix = strlen(variant_targets[i].suffix);
		if (length > suffix + 1 && variant[length - suffix - 1] == '-' &&
		    strcmp(variant + length - suffix, variant_targets[i].suffix) == 0)
			return &variant_targets[i];
	}
	return NULL;
}

/* The target named cpu (e.g. "x86-64-v3"), or NULL. */
static inline const struct variant_target *variant_target_named(const char *cpu)
{
	for (size_t i = 0; i < VARIANT_TARGETS_COUNT; i++)
		if (strcmp(variant_targets[i].cpu, cpu) == 0)
			return &variant_targets[i];
	return NULL;
}

/* Whether RESPEC_ASSUME_CPU_LACKS names feature. */
static inline bool variant_target_assumed_missing(const char *feature)
{
	const char *list = getenv("RESPEC_ASSUME_CPU_LACKS");
	size_t length = strlen(feature);
	while (list != NULL && *list != '\0') {
		size_t item = strcspn(list, ",");
		if (item == length && strncmp(list, feature, length) == 0)
			return true;
		list += item + (list[item] == ',');
	}
	return false;
}

static inline bool variant_target_cpu_has(const struct variant_target_feature *feature)
{
	if (variant_target_assumed_missing(feature->name))
		return false;
#ifdef VARIANT_TARGETS_X86
	unsigned eax, ebx, ecx, edx;
	if (__get_cpuid_max(feature->leaf & 0x80000000u, NULL) < feature->leaf)
		return false;
	__cpuid_count(feature->leaf, 0, eax, ebx, ecx, edx);
	unsigned reg = feature->reg == 'b' ? ebx : feature->reg == 'c' ? ecx : edx;
	if (!(reg >> feature->bit & 1))
		return false;
	if (feature->xcr0 != 0) {
		/* The OS must have enabled XGETBV (OSXSAVE) and the register state. */
		__cpuid(1, eax, ebx, ecx, edx);
		if (!(ecx >> 27 & 1))
			return false;
		unsigned xcr0_low, xcr0_high;
		__asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
		(void)xcr0_high;
		if ((xcr0_low & feature->xcr0) != feature->xcr0)
			return false;
	}
	return true;
#else
	return false;
#endif
}

/*
 * Whether this machine can run code built for target. When it cannot, and why is not
 * NULL, writes the missing features there ("avx2 bmi2", or "not an x86 CPU").
 */
static inline bool variant_target_check(const struct variant_target *target, char *why,
					size_t size)
{
	if (why != NULL && size > 0)
		why[0] = '\0';
#ifndef VARIANT_TARGETS_X86
	(void)target;
	if (why != NULL)
		snprintf(why, size, "not an x86 CPU");
	return false;
#else
	bool supported = true;
	size_t used = 0;
	for (size_t i = 0; i < target->features; i++) {
		if (variant_target_cpu_has(&variant_target_features[i]))
			continue;
		supported = false;
		if (why != NULL && used < size) {
			int n = snprintf(why + used, size - used, "%s%s", used ? " " : "",
					 variant_target_features[i].name);
			used += n > 0 ? (size_t)n : 0;
		}
	}
	return supported;
#endif
}

#endif /* RESPEC_VARIANT_TARGETS_H */
