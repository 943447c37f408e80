#include "hb_crc16.h"

#include "hb_port.h"

/* The byte-wise update is the port's (hb_port.h: a plain C formula by default, assembly on AVR),
 * always inlined into the loops below. */
uint16_t hb_crc16_update(uint16_t crc, uint8_t byte)
{
    return HB_PORT_CRC16_UPDATE(crc, byte);
}

uint16_t hb_crc16_update_bitwise(uint16_t crc, uint8_t byte)
{
    uint8_t bit;
    crc ^= (uint16_t)((uint16_t)byte << 8);
    for (bit = 0; bit < 8; bit++) {
        /* in unsigned arithmetic: crc << 1 alone is an int, which ^ 0x1021u would convert */
        crc = (uint16_t)((crc & 0x8000u) != 0u ? ((unsigned)crc << 1) ^ 0x1021u : (unsigned)crc << 1);
    }
    return crc;
}

uint16_t hb_crc16(uint16_t crc, const uint8_t *data, size_t length)
{
    size_t i;
    for (i = 0; i < length; i++) {
        crc = HB_PORT_CRC16_UPDATE(crc, data[i]);
    }
    return crc;
}
