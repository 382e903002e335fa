/*
 * frames_variants.h — the pcre2-frames variants for the programs that link them
 * (test/pcre2, bench/pcre2; CMake's respec_link_variants(<target> pcre2-frames)
 * defines HAVE_PCRE2_FRAMES_<VARIANT> for those that are built). Include after
 * the spec's header (PATTERN_LIST).
 *
 * match_<pattern>_frames (gen_pattern_spec --local-frames) matches the pattern
 * with a match data block of its own, whose backtracking frames are a local
 * array, and copies the pattern's 2 * (captures + 1) ovector entries into
 * ovector: at most 2 * PCRE2_FRAMES_MAX_PAIRS for the callers' arrays. What it
 * copies when there is no match is undefined.
 *
 * FRAMES_GENERIC(name), FRAMES_RESPEC(name): the variant's match_<name>_frames,
 * or NULL when the variant is not built.
 */
#ifndef RESPEC_PCRE2_FRAMES_VARIANTS_H
#define RESPEC_PCRE2_FRAMES_VARIANTS_H

#include <stddef.h>

enum { PCRE2_FRAMES_MAX_PAIRS = 16 };

typedef int (*frames_fn)(const unsigned char *subject, size_t length, size_t *ovector);

#define DECLARE_FRAMES(prefix, name) int prefix##match_##name##_frames(const unsigned char *, size_t, size_t *);
#ifdef HAVE_PCRE2_FRAMES_GENERIC
#define DECLARE_FRAMES_GENERIC(name, text, options) DECLARE_FRAMES(generic_, name)
PATTERN_LIST(DECLARE_FRAMES_GENERIC)
#define FRAMES_GENERIC(name) generic_match_##name##_frames
#else
#define FRAMES_GENERIC(name) NULL
#endif
#ifdef HAVE_PCRE2_FRAMES_RESPEC
#define DECLARE_FRAMES_RESPEC(name, text, options) DECLARE_FRAMES(respec_, name)
PATTERN_LIST(DECLARE_FRAMES_RESPEC)
#define FRAMES_RESPEC(name) respec_match_##name##_frames
#else
#define FRAMES_RESPEC(name) NULL
#endif

#endif
