/* The core's AVR port (avr-gcc, avr-libc): what hb_port.h lets a port override, done the AVR way.
 * Included by the AVR port configurations (boards/atmega328p/hb_port_config.h, with -I<this
 * folder>; the Arduino library's src/hb_port_config.h), which hb_port.h includes before its
 * defaults. */
#ifndef HB_PORT_AVR_H
#define HB_PORT_AVR_H

#include <stdint.h>

#include <avr/pgmspace.h>

/* No SEEK in the 3.0 device (PROTOCOL-3.md 3.13 bit 9, 3.15): 1.6 KB of flash the ATmega328P's
 * budget has not got (docs/protocol-3-design.md, "The ATmega328P's fit: decided"). */
#define HB_PORT_SEEK 0u

/* Lookup tables stay in flash (the AVR is a Harvard CPU: a const array would also be copied to
 * RAM at start-up) and are read with lpm. */
#define HB_PORT_TABLE PROGMEM
#define HB_PORT_READ_U8(p) pgm_read_byte(p)

/* The default's formula (hb_port.h) in 18 instructions, byte by byte (high byte' = low ^ (x << 4)
 * ^ (x >> 3), low byte' = (x << 5) ^ x, 8-bit shifts), always inlined into the CRC loops:
 * avr-libc's _crc_xmodem_update is 23 and, being only `inline`, -Os makes it a call per byte. The
 * emulator tests check it on every frame the simulated board exchanges with the Swift CRC16, on
 * every COMMIT and on every streamed body. */
static inline __attribute__((always_inline)) uint16_t hb_port_avr_crc16_update(uint16_t crc, uint8_t byte)
{
    uint8_t t;
    /* clang-format off */
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
    /* clang-format on */
    return crc;
}
#define HB_PORT_CRC16_UPDATE(crc, byte) hb_port_avr_crc16_update((crc), (byte))

#endif
