/*
 * crc.h — a generic CRC engine: one code path for every CRC of width 8 to 32, table
 * driven or bitwise, reflected or not, as described by a configuration.
 */
#ifndef CRC_H
#define CRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct crc_config {
	unsigned width;        /* 8 to 32 bits */
	uint32_t poly;         /* reflected form when reflected, else MSB-first form */
	uint32_t init, xorout;
	bool reflected;        /* bytes enter LSB first */
	const uint32_t *table; /* byte-at-a-time table for poly, or NULL: bit by bit */
};

/* Feeds n bytes into the register crc. */
uint32_t crc_update(const struct crc_config *config, uint32_t crc, const uint8_t *data,
		    size_t n);
/* The CRC of n bytes: init, update, xorout. */
uint32_t crc_compute(const struct crc_config *config, const uint8_t *data, size_t n);

#endif
