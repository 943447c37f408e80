#include "hb_crc16.h"

#include "hb_inline.h"

/* Byte-wise without a table: the 8 shift-and-xor steps of the bitwise form collapse into three
 * shifts of one 8-bit intermediate (x = high byte ^ input, folded by its own high nibble):
 * crc' = (crc << 8) ^ (x << 12) ^ (x << 5) ^ x.
 * tests/test_programs.c checks it against the bitwise definition for all 2^24 (crc, byte) pairs.
 * On AVR the same formula in 18 instructions, byte by byte (high byte' = low ^ (x << 4) ^ (x >> 3),
 * low byte' = (x << 5) ^ x, 8-bit shifts), always inlined into the loops below: avr-libc's
 * _crc_xmodem_update is 23 and, being only `inline`, -Os makes it a call per byte. The emulator
 * tests check it on every frame the simulated board exchanges with the Swift CRC16, on every
 * COMMIT and on every streamed body. A 512-byte table would cost more flash than the cycles are
 * worth. */
static HB_ALWAYS_INLINE uint16_t update(uint16_t crc, uint8_t byte)
{
#if defined(__AVR__)
    uint8_t t;
    __asm__ (
        "eor    %B[c],%[b]"      "\n\t" /* x = high ^ byte */
        "mov    %[t],%B[c]"      "\n\t"
        "swap   %[t]"            "\n\t"
        "andi   %[t],0x0f"       "\n\t"
        "eor    %B[c],%[t]"      "\n\t" /* x ^= x >> 4 */
        "mov    %[t],%B[c]"      "\n\t"
        "swap   %[t]"            "\n\t"
        "andi   %[t],0xf0"       "\n\t" /* x << 4 */
        "eor    %A[c],%[t]"      "\n\t"
        "lsl    %[t]"            "\n\t" /* x << 5 */
        "eor    %[t],%B[c]"      "\n\t" /* low byte' */
        "mov    __tmp_reg__,%B[c]" "\n\t"
        "lsr    __tmp_reg__"     "\n\t"
        "lsr    __tmp_reg__"     "\n\t"
        "lsr    __tmp_reg__"     "\n\t" /* x >> 3 */
        "eor    %A[c],__tmp_reg__" "\n\t" /* high byte' */
        "mov    %B[c],%A[c]"     "\n\t"
        "mov    %A[c],%[t]"
        : [c] "+r" (crc), [t] "=&d" (t)
        : [b] "r" (byte)
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
