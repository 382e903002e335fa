/*
 * crc_spec.h — the spec functions of the CRC program.
 */
#ifndef CRC_SPEC_H
#define CRC_SPEC_H

#include "corpus.h"
#include "crc.h"

enum { CRC_FIXED_LENGTH = 16, CRC_BITWISE_LENGTH = 4 };

#define CRC_SPEC_FUNCTIONS(X)                                                          \
	X(uint32_t, crc32_fixed, (const uint8_t *data))                                   \
	X(uint32_t, crc32_any, (const uint8_t *data, size_t n))                            \
	X(uint32_t, crc16_ccitt_any, (const uint8_t *data, size_t n))                      \
	X(uint32_t, crc8_bitwise_any, (const uint8_t *data, size_t n))                     \
	X(uint32_t, crc32_bitwise_fixed, (const uint8_t *data))                            \
	X(uint32_t, crc32_two_parts, (const uint8_t *data, size_t n, size_t split))

CRC_SPEC_FUNCTIONS(CORPUS_DECLARE_SPEC)

#endif
