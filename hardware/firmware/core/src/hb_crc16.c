#include "hb_crc16.h"

#if defined(__AVR__)
#include <util/crc16.h>
#endif

/* Byte-wise without a table: the 8 shift-and-xor steps of the bitwise form collapse into three
 * shifts of one 8-bit intermediate (x = high byte ^ input, folded by its own high nibble).
 * tests/test_programs.c checks it against the bitwise definition for all 2^24 (crc, byte) pairs.
 * On AVR, avr-libc's _crc_xmodem_update is the same update (polynomial 0x1021, MSB first, the
 * caller's initial value, no final xor) in hand-scheduled assembly; the emulator tests check it
 * on every frame the simulated board exchanges with the Swift CRC16 and on every COMMIT.
 * A 512-byte table would cost more flash than the cycles are worth. */
uint16_t hb_crc16_update(uint16_t crc, uint8_t byte)
{
#if defined(__AVR__)
    return _crc_xmodem_update(crc, byte);
#else
    uint8_t x = (uint8_t)((crc >> 8) ^ byte);
    x ^= (uint8_t)(x >> 4);
    return (uint16_t)((uint16_t)(crc << 8) ^ (uint16_t)((uint16_t)x << 12) ^ (uint16_t)((uint16_t)x << 5) ^ x);
#endif
}

uint16_t hb_crc16_update_bitwise(uint16_t crc, uint8_t byte)
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
