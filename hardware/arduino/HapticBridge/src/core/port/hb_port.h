/* The port layer: everything in the core that a target or compiler may want done its own way, in
 * one place. The core's .c files test no target; they use these macros, whose defaults below are
 * plain C99. A port overrides any of them in its own header, named at compile time:
 *
 *     -DHB_PORT_HEADER='"hb_port_avr.h"' -I.../core/portable/avr
 *
 * That header is included first, so whatever it defines wins; every default is wrapped in #ifndef.
 * The ports in this tree: core/portable/avr/hb_port_avr.h (avr-gcc: flash tables, the CRC update in
 * assembly), selected by boards/atmega328p/Makefile and by `make size-avr`.
 *
 *   HB_ALWAYS_INLINE, HB_NOINLINE  inlining as a cost decision: on an 8-bit CPU a call into a big
 *                                  function pays for saving every register that function uses, so
 *                                  rarely taken paths stay out of line and hot ones are inlined
 *                                  whatever -Os estimates (GCC and clang attributes by default)
 *   HB_PORT_TABLE                  attribute of a constant lookup table (the ramp's reciprocals):
 *                                  where it lives, e.g. flash on a Harvard CPU (default: nothing)
 *   HB_PORT_READ_U8(p)             reads the byte at p in such a table (default: *(p))
 *   HB_PORT_CRC16_UPDATE(crc, b)   one byte into a CRC-16/CCITT-FALSE, inlined into every CRC loop
 *                                  (default: hb_port_crc16_update below)
 */
#ifndef HB_PORT_H
#define HB_PORT_H

#include <stdint.h>

#ifdef HB_PORT_HEADER
#include HB_PORT_HEADER
#endif

#ifndef HB_ALWAYS_INLINE
#if defined(__GNUC__)
#define HB_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define HB_ALWAYS_INLINE inline
#endif
#endif

#ifndef HB_NOINLINE
#if defined(__GNUC__)
#define HB_NOINLINE __attribute__((noinline))
#else
#define HB_NOINLINE
#endif
#endif

#ifndef HB_PORT_TABLE
#define HB_PORT_TABLE
#endif

#ifndef HB_PORT_READ_U8
#define HB_PORT_READ_U8(p) (*(p))
#endif

#ifndef HB_PORT_CRC16_UPDATE
/* Byte-wise without a table: the 8 shift-and-xor steps of the bitwise form collapse into three
 * shifts of one 8-bit intermediate (x = high byte ^ input, folded by its own high nibble):
 * crc' = (crc << 8) ^ (x << 12) ^ (x << 5) ^ x.
 * tests/test_programs.c checks it against the bitwise definition for all 2^24 (crc, byte) pairs.
 * A 512-byte table would cost more flash than the cycles are worth on the small targets. */
static HB_ALWAYS_INLINE uint16_t hb_port_crc16_update(uint16_t crc, uint8_t byte)
{
    uint8_t x = (uint8_t)((crc >> 8) ^ byte);
    uint16_t low_to_high = (uint16_t)(crc << 8);
    x ^= (uint8_t)(x >> 4);
    return (uint16_t)(low_to_high ^ (uint16_t)((uint16_t)x << 12) ^ (uint16_t)((uint16_t)x << 5) ^ x);
}
#define HB_PORT_CRC16_UPDATE(crc, byte) hb_port_crc16_update((crc), (byte))
#endif

#endif
