#include "hb_crc16.h"

#include "hb_inline.h"

/* Byte-wise without a table: the 8 shift-and-xor steps of the bitwise form collapse into three
 * shifts of one 8-bit intermediate (x = high byte ^ input, folded by its own high nibble).
 * tests/test_programs.c checks it against the bitwise definition for all 2^24 (crc, byte) pairs.
 * On AVR the same update is avr-libc's _crc_xmodem_update (util/crc16.h: polynomial 0x1021, MSB
 * first, the caller's initial value, no final xor), hand-scheduled assembly copied here so that
 * it is always inlined into the loops below (avr-libc's is only `inline`, and -Os makes it a
 * function: a call and return per byte, ~45 % on top of its 23 cycles). The emulator tests check
 * it on every frame the simulated board exchanges with the Swift CRC16, on every COMMIT and on
 * every streamed body. A 512-byte table would cost more flash than the cycles are worth. */
static HB_ALWAYS_INLINE uint16_t update(uint16_t crc, uint8_t byte)
{
#if defined(__AVR__)
    uint8_t t1, t2;
    __asm__ (
        "eor    %B0,%3"          "\n\t"
        "mov    __tmp_reg__,%B0" "\n\t"
        "swap   __tmp_reg__"     "\n\t"
        "mov    %1,__tmp_reg__"  "\n\t"
        "andi   %1,0x0f"         "\n\t"
        "eor    %1,%B0"          "\n\t"
        "mov    %2,%B0"          "\n\t"
        "eor    %2,__tmp_reg__"  "\n\t"
        "lsl    %2"              "\n\t"
        "andi   %2,0xe0"         "\n\t"
        "eor    %1,%2"           "\n\t"
        "mov    %2,__tmp_reg__"  "\n\t"
        "eor    %2,%B0"          "\n\t"
        "andi   %2,0xf0"         "\n\t"
        "lsr    %2"              "\n\t"
        "mov    __tmp_reg__,%B0" "\n\t"
        "lsl    __tmp_reg__"     "\n\t"
        "rol    %2"              "\n\t"
        "lsr    %B0"             "\n\t"
        "lsr    %B0"             "\n\t"
        "lsr    %B0"             "\n\t"
        "andi   %B0,0x1f"        "\n\t"
        "eor    %B0,%2"          "\n\t"
        "eor    %B0,%A0"         "\n\t"
        "mov    %A0,%1"
        : "=d" (crc), "=&d" (t1), "=&d" (t2)
        : "r" (byte), "0" (crc)
        : "r0");
    return crc;
#else
    uint8_t x = (uint8_t)((crc >> 8) ^ byte);
    x ^= (uint8_t)(x >> 4);
    return (uint16_t)((uint16_t)(crc << 8) ^ (uint16_t)((uint16_t)x << 12) ^ (uint16_t)((uint16_t)x << 5) ^ x);
#endif
}

uint16_t hb_crc16_update(uint16_t crc, uint8_t byte)
{
    return update(crc, byte);
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
        crc = update(crc, data[i]);
    }
    return crc;
}
