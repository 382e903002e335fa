/*
 * crc.c — the generic CRC engine (see crc.h). Every byte consults the
 * configuration: table or bits, reflected or not, the width's mask and top bit.
 */
#include "crc.h"

static uint32_t width_mask(unsigned width)
{
	return width == 32 ? 0xffffffffu : (1u << width) - 1;
}

static uint32_t update_byte(const struct crc_config *config, uint32_t crc, uint8_t byte)
{
	uint32_t mask = width_mask(config->width);
	if (config->table != NULL) {
		if (config->reflected)
			return (crc >> 8) ^ config->table[(crc ^ byte) & 0xff];
		uint32_t index = ((crc >> (config->width - 8)) ^ byte) & 0xff;
		return ((crc << 8) ^ config->table[index]) & mask;
	}
	if (config->reflected) {
		crc ^= byte;
		for (int bit = 0; bit < 8; bit++)
			crc = crc & 1 ? (crc >> 1) ^ config->poly : crc >> 1;
		return crc;
	}
	uint32_t top = 1u << (config->width - 1);
	crc ^= (uint32_t)byte << (config->width - 8);
	for (int bit = 0; bit < 8; bit++)
		crc = (crc & top ? (crc << 1) ^ config->poly : crc << 1) & mask;
	return crc;
}

uint32_t crc_update(const struct crc_config *config, uint32_t crc, const uint8_t *data,
		    size_t n)
{
	for (size_t i = 0; i < n; i++)
		crc = update_byte(config, crc, data[i]);
	return crc;
}

uint32_t crc_compute(const struct crc_config *config, const uint8_t *data, size_t n)
{
	return crc_update(config, config->init, data, n) ^ config->xorout;
}
