/*
 * libc.h — ready-made external facts about the C library, for specs.
 *
 * RESPEC_C_LOCALE_CTYPE()
 *   At file scope in a spec compiled against glibc's headers: the tables that
 *   glibc's <ctype.h> macros and inline functions read (isdigit(c) is
 *   `(*__ctype_b_loc())[c] & _ISdigit`, toupper(c) reads
 *   `(*__ctype_toupper_loc())[c]`) are declared stable and vouched for with the
 *   contents they have in the "C" locale (computed below from the C standard's
 *   classification and glibc's bit encoding), so that respec folds isdigit(c),
 *   toupper(c), ... for a static c at build time, and reads the tables through
 *   one pointer fetched on entry for a dynamic c.
 *
 *   Checked, not assumed: each call of a specialized function that folded a
 *   table compares the table its thread uses now with the "C" locale's contents
 *   (once per table address; then one load and compare per call) and runs the
 *   generic code instead when they differ — after setlocale() or uselocale() to
 *   a locale whose classification differs. The generic build of the spec
 *   compares the tables once at startup and aborts with the file:line of the
 *   declaration if this header does not describe the C library it runs on.
 *   glibc's ctype *functions* (an `isdigit` called through a function pointer)
 *   read the same tables and fold too.
 *
 *   Other C libraries (musl, dietlibc: isdigit is arithmetic there, or a
 *   function respec has the source of) need no declaration; the macro declares
 *   nothing.
 */
#ifndef RESPEC_LIBC_H
#define RESPEC_LIBC_H

#include <ctype.h>
#include <respec/respec.h>

#if defined(__GLIBC__) && defined(_ISbit) && !defined(__cplusplus)

/* The "C" locale's classification of c in -128..255 (glibc's _IS* bits). */
#define RESPEC_C_ALNUM_(c) \
	(((c) >= '0' && (c) <= '9') || ((c) >= 'A' && (c) <= 'Z') || ((c) >= 'a' && (c) <= 'z'))
#define RESPEC_C_CLASS_(c)                                                               \
	((unsigned short)(                                                                \
		(((c) >= 0 && (c) < 32) || (c) == 127 ? _IScntrl : 0) |                   \
		((c) == ' ' || (c) == '\t' ? _ISblank : 0) |                              \
		((c) == ' ' || ((c) >= '\t' && (c) <= '\r') ? _ISspace : 0) |             \
		((c) >= 32 && (c) < 127 ? _ISprint : 0) |                                 \
		((c) > 32 && (c) < 127 ? _ISgraph : 0) |                                  \
		((c) > 32 && (c) < 127 && !RESPEC_C_ALNUM_(c) ? _ISpunct : 0) |           \
		((c) >= 'A' && (c) <= 'Z' ? _ISupper | _ISalpha | _ISalnum : 0) |         \
		((c) >= 'a' && (c) <= 'z' ? _ISlower | _ISalpha | _ISalnum : 0) |         \
		((c) >= '0' && (c) <= '9' ? _ISdigit | _ISalnum : 0) |                    \
		(((c) >= '0' && (c) <= '9') || ((c) >= 'A' && (c) <= 'F') ||              \
				 ((c) >= 'a' && (c) <= 'f')                               \
			 ? _ISxdigit                                                      \
			 : 0)))
/* Case mappings: glibc maps a negative char c (not EOF) to c + 256. */
#define RESPEC_C_TOUPPER_(c) \
	((c) >= 'a' && (c) <= 'z' ? (c) - 32 : (c) < -1 ? (c) + 256 : (c))
#define RESPEC_C_TOLOWER_(c) \
	((c) >= 'A' && (c) <= 'Z' ? (c) + 32 : (c) < -1 ? (c) + 256 : (c))

#define RESPEC_X16_(M, b)                                                               \
	M((b) + 0), M((b) + 1), M((b) + 2), M((b) + 3), M((b) + 4), M((b) + 5), M((b) + 6),  \
		M((b) + 7), M((b) + 8), M((b) + 9), M((b) + 10), M((b) + 11), M((b) + 12),   \
		M((b) + 13), M((b) + 14), M((b) + 15)
/* M(c) for c = -128 .. 255, the indices glibc's tables are defined for. */
#define RESPEC_X384_(M)                                                                 \
	RESPEC_X16_(M, -128), RESPEC_X16_(M, -112), RESPEC_X16_(M, -96),                \
		RESPEC_X16_(M, -80), RESPEC_X16_(M, -64), RESPEC_X16_(M, -48),         \
		RESPEC_X16_(M, -32), RESPEC_X16_(M, -16), RESPEC_X16_(M, 0),           \
		RESPEC_X16_(M, 16), RESPEC_X16_(M, 32), RESPEC_X16_(M, 48),            \
		RESPEC_X16_(M, 64), RESPEC_X16_(M, 80), RESPEC_X16_(M, 96),            \
		RESPEC_X16_(M, 112), RESPEC_X16_(M, 128), RESPEC_X16_(M, 144),         \
		RESPEC_X16_(M, 160), RESPEC_X16_(M, 176), RESPEC_X16_(M, 192),         \
		RESPEC_X16_(M, 208), RESPEC_X16_(M, 224), RESPEC_X16_(M, 240)

#define RESPEC_C_LOCALE_CTYPE()                                                         \
	static const unsigned short respec_c_locale_class_[384] = {                     \
		RESPEC_X384_(RESPEC_C_CLASS_)};                                          \
	static const __int32_t respec_c_locale_toupper_[384] = {                        \
		RESPEC_X384_(RESPEC_C_TOUPPER_)};                                        \
	static const __int32_t respec_c_locale_tolower_[384] = {                        \
		RESPEC_X384_(RESPEC_C_TOLOWER_)};                                        \
	RESPEC_STABLE_TABLE_AS_(__ctype_b_loc, -128, respec_c_locale_class_, 1);        \
	RESPEC_STABLE_TABLE_AS_(__ctype_toupper_loc, -128, respec_c_locale_toupper_, 1); \
	RESPEC_STABLE_TABLE_AS_(__ctype_tolower_loc, -128, respec_c_locale_tolower_, 1)

#else /* not glibc's C headers: nothing to declare */

#define RESPEC_C_LOCALE_CTYPE() extern char respec_declared_fact_[1]

#endif

#endif /* RESPEC_LIBC_H */
