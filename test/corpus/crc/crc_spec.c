/*
 * crc_spec.c — spec of the CRC program: the generic engine (crc.c) fixed to one
 * configuration per function, with the data (and sometimes its length) dynamic.
 *
 *   crc32_fixed          const table, static length: the byte loop unrolls, the
 *                        table stays (indexed by data) and the config folds.
 *   crc32_any            the same with a dynamic length: a residual loop.
 *   crc16_ccitt_any      the MSB-first table path, width 16 (mask and shift fold).
 *   crc8_bitwise_any     no table: the eight-step bit loop has a static trip count
 *                        inside a residual byte loop.
 *   crc32_bitwise_fixed  bitwise with a static length: 32 steps fully unrolled.
 *   crc32_two_parts      the configuration copied into a stack object (a
 *                        partially-static aggregate) and two chained updates.
 */
#include "crc_spec.h"

#include "crc_tables.h"

#include <respec/respec.h>

static const struct crc_config crc32_config = {
	.width = 32, .poly = 0xedb88320u, .init = 0xffffffffu, .xorout = 0xffffffffu,
	.reflected = true, .table = crc32_reflected_table,
};

static const struct crc_config crc32_bitwise_config = {
	.width = 32, .poly = 0xedb88320u, .init = 0xffffffffu, .xorout = 0xffffffffu,
	.reflected = true, .table = NULL,
};

/* CRC-16 with init 0xffff and no final xor, often called CCITT-FALSE. */
static const struct crc_config crc16_ccitt_config = {
	.width = 16, .poly = 0x1021, .init = 0xffff, .xorout = 0,
	.reflected = false, .table = crc16_ccitt_table,
};

static const struct crc_config crc8_config = {
	.width = 8, .poly = 0x07, .init = 0, .xorout = 0, .reflected = false, .table = NULL,
};

RESPEC_SPECIALIZE uint32_t crc32_fixed(const uint8_t *data)
{
	return crc_compute(&crc32_config, data, CRC_FIXED_LENGTH);
}

RESPEC_SPECIALIZE uint32_t crc32_any(const uint8_t *data, size_t n)
{
	return crc_compute(&crc32_config, data, n);
}

RESPEC_SPECIALIZE uint32_t crc16_ccitt_any(const uint8_t *data, size_t n)
{
	return crc_compute(&crc16_ccitt_config, data, n);
}

RESPEC_SPECIALIZE uint32_t crc8_bitwise_any(const uint8_t *data, size_t n)
{
	return crc_compute(&crc8_config, data, n);
}

RESPEC_SPECIALIZE uint32_t crc32_bitwise_fixed(const uint8_t *data)
{
	return crc_compute(&crc32_bitwise_config, data, CRC_BITWISE_LENGTH);
}

/* split <= n: the CRC of data[0..n) computed in two updates. */
RESPEC_SPECIALIZE uint32_t crc32_two_parts(const uint8_t *data, size_t n, size_t split)
{
	struct crc_config config = crc32_config;
	uint32_t crc = crc_update(&config, config.init, data, split);
	crc = crc_update(&config, crc, data + split, n - split);
	return crc ^ config.xorout;
}
