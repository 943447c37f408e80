/* The port layer: everything in the core that a target, a board or a compiler may want its own
 * way, in one place (the model: TinyUSB's tusb_config.h, nanopb's configuration block). The core's
 * files test no target; they use these macros, whose defaults below are plain C99 and the
 * protocol's sizes. A build configures them in its port header, included first, so whatever it
 * defines wins (every default is wrapped in #ifndef):
 *
 *   - a header named hb_port_config.h on the include path, found with __has_include (a build
 *     names no file: the Arduino IDE, which passes a library no flags, and the board Makefiles,
 *     which put the board's folder on the path); or
 *   - whatever -DHB_PORT_HEADER='"name.h"' names, if defined, instead of the search (for a
 *     compiler without __has_include, or a header of another name).
 *
 * With neither, the defaults are the build: the host builds (make test, fuzz, bench, SwiftPM's
 * CFirmwareCore) use them, so that the C compiler and Swift's importer, which sees only
 * core/include, lay out hb_device the same way. The port headers in this tree:
 *   boards/atmega328p/hb_port_config.h            the ATmega328P firmware (and `make size-avr`)
 *   core/portable/cortex-m0plus/hb_port_config.h  `make size-m0`
 *   hardware/arduino/HapticBridge/src/hb_port_config.h  the Arduino library, for each target
 * and core/portable/avr/hb_port_avr.h, avr-gcc's quirks, which the AVR ones include.
 *
 * Target sizes:
 *   HB_DEVICE_MAX_SLOTS            slot table size, a compile-time bound so that the table is a
 *                                  plain array (default 8)
 *   HB_PLAY_HISTORY                play records the device keeps (2.19): the most recent play and
 *                                  the one before (default 2); 1 keeps only the most recent
 *                                  (14 bytes less on an AVR)
 *   HB_DEVICE3_MAX_CHANNELS        the protocol 3.0 device's channel table (default 16, 3.2)
 *   HB_DEVICE3_MAX_PLAYERS         its player pool's table (default 16, 3.3)
 *   HB_PORT_SEEK                   1: the 3.0 device has SEEK (PROTOCOL-3.md 3.13, capability bit 9:
 *                                  PLAY's `from`, CONTROL SEEK, rule (f) and X at COMMIT); 0: it has
 *                                  not, and INFO says so. A constant in ordinary `if`s, so that
 *                                  the compiler drops seek's code at 0 (default 1; the AVR port 0)
 *   HB_PORT_STREAM                 1: the device has the stream's code (PROTOCOL.md 2.10, capability
 *                                  bit 0), used when its configuration has a ring; 0: it has not,
 *                                  whatever the configuration (a constant in ordinary `if`s, so
 *                                  that the compiler drops the stream's code at 0: an image with
 *                                  no ring sets it; default 1)
 * Compiler and target quirks:
 *   HB_ALWAYS_INLINE, HB_NOINLINE  inlining as a cost decision: on an 8-bit CPU a call into a big
 *                                  function pays for saving every register that function uses, so
 *                                  rarely taken paths stay out of line and hot ones are inlined
 *                                  whatever -Os estimates (GCC and clang attributes by default)
 *   HB_MUST_CHECK                  on every function returning hb_err: a caller that drops the
 *                                  result is warned (an error with -Werror); GCC and clang's
 *                                  warn_unused_result by default, nothing elsewhere. GCC warns
 *                                  through a (void) cast too: a caller for whom ignoring is right
 *                                  keeps the result in a variable it casts to void, saying why
 *   HB_PORT_TABLE                  attribute of a constant lookup table (the ramp's reciprocals):
 *                                  where it lives, e.g. flash on a Harvard CPU (default: nothing)
 *   HB_PORT_READ_U8(p)             reads the byte at p in such a table (default: *(p))
 *   HB_PORT_CRC16_UPDATE(crc, b)   one byte into a CRC-16/CCITT-FALSE, inlined into every CRC loop
 *                                  (default: hb_port_crc16_update below)
 */
#ifndef HB_PORT_H
#define HB_PORT_H

#include <stdint.h>

#if defined(HB_PORT_HEADER)
#include HB_PORT_HEADER
#elif defined(__has_include)
#if __has_include("hb_port_config.h")
#include "hb_port_config.h"
#endif
#endif

#ifndef HB_DEVICE_MAX_SLOTS
#define HB_DEVICE_MAX_SLOTS 8u
#endif

#ifndef HB_PLAY_HISTORY
#define HB_PLAY_HISTORY 2u
#endif

/* The protocol 3.0 device (hb_device3.h): compile-time bounds of its channel and player tables;
 * a configuration uses up to these many. */
#ifndef HB_DEVICE3_MAX_CHANNELS
#define HB_DEVICE3_MAX_CHANNELS 16u
#endif

#ifndef HB_DEVICE3_MAX_PLAYERS
#define HB_DEVICE3_MAX_PLAYERS 16u
#endif

/* SEEK in the 3.0 device (3.13 bit 9); at run time the configuration's capability bit 9 too. */
#ifndef HB_PORT_SEEK
#define HB_PORT_SEEK 1u
#endif

/* The stream (2.10); at run time the configuration's ring too. */
#ifndef HB_PORT_STREAM
#define HB_PORT_STREAM 1u
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

#ifndef HB_MUST_CHECK
#if defined(__GNUC__)
#define HB_MUST_CHECK __attribute__((warn_unused_result))
#else
#define HB_MUST_CHECK
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
