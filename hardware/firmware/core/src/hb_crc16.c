#include "hb_crc16.h"

/* Bitwise rather than table-driven: 512 bytes of table cost more than the cycles on a 32 KB part. */
uint16_t hb_crc16_update(uint16_t crc, uint8_t byte)
{
    uint8_t bit;
    crc ^= (uint16_t)((uint16_t)byte << 8);
    for (bit = 0; bit < 8; bit++) {
        crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    }
    return crc;
}

uint16_t hb_crc16(uint16_t crc, const uint8_t *data, size_t length)
{
    size_t i;
    for (i = 0; i < length; i++) {
        crc = hb_crc16_update(crc, data[i]);
    }
    return crc;
}
