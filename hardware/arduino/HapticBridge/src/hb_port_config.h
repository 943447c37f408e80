/* The library's port configuration: every choice of the library and of its copy of the firmware
 * core that depends on the target, in one place (the rest of the library is plain Arduino API, and
 * the core plain C99).
 *
 * How the core finds this file: the core's sources (src/core/, a byte-for-byte copy of
 * hardware/firmware/core/ that tools/arduino-library writes; it is not committed) include their
 * own hb_port.h, which includes "hb_port_config.h" if __has_include finds one: not beside it in
 * src/core/, so the library's src/ folder, which every Arduino build (the IDE, arduino-cli,
 * PlatformIO) puts on the include path: this file. That is what the firmware's board Makefiles
 * get with -I (a library gets no compiler flags of its own). HapticBridge.h and HapticPlayer.h
 * include it before anything of the core, so that a library folder without src/core/ stops at
 * the #error below.
 *
 * Included by C and C++ files: macros only, and nothing of the core but its AVR port. */
#ifndef HB_ARDUINO_PORT_CONFIG_H
#define HB_ARDUINO_PORT_CONFIG_H

#if defined(__has_include)
#if !__has_include("core/hb_device.h")
#error \
    "HapticBridge: src/core/ is missing: run tools/arduino-library in the HapticBridge repository (it copies the firmware core here), or install the ZIP that tools/arduino-library --zip makes"
#endif
#endif

#if defined(__AVR__)
/* avr-gcc and avr-libc (Uno, Nano, Mega, Leonardo...): the core's AVR port, as the bare-metal
 * ATmega328P firmware builds it (hardware/firmware/core/portable/avr: flash tables, the CRC
 * update in assembly), and the core's sizes for 2 KB of RAM: a slot table of 2 (54 bytes less
 * than the default's 8) and the most recent play's record only (2.19; 14 bytes less). */
#include "core/hb_port_avr.h"
#define HB_DEVICE_MAX_SLOTS 2u
#define HB_PLAY_HISTORY 1u
#endif

/* Memory of the HapticBridge typedef (HapticBridgeWith<slots, slot bytes, stream bytes> for
 * others). An AVR gets 2 slots of 192 bytes (bodies up to 176; longer programs stream) and the
 * bare-metal firmware's 128-byte stream ring, where the bare-metal firmware has slots of 256: an
 * Uno running the library with a DRV2605L also holds the Arduino core's serial rings (128 bytes),
 * Wire's buffers (about 160) and the vtables. (The core's slot table holds HB_DEVICE_MAX_SLOTS,
 * above.) The 32-bit boards, with 32 KB of RAM or more, get the
 * protocol's defaults: 4 slots of 1,024 bytes and a 256-byte ring.
 *
 * The stack, measured (ArduinoLibraryStackTests: the free RAM painted in simavr, every handler, a
 * HELLO, DIAG and QUERY during a streamed play at line rate, the DRV2605L's faults from power-up):
 * the DRV2605L example's deepest is HB_ARDUINO_STACK_WORST bytes, and its static RAM besides a
 * HapticBridgeWith's buffers is HB_ARDUINO_FIXED_RAM (the device, Serial, Wire, the stage). With
 * the default sizes an Uno keeps 94 bytes beyond that worst. HapticBridgeWith refuses to compile
 * sizes that would keep fewer than HB_ARDUINO_STACK_RESERVE (an interrupt at the worst moment, a
 * sketch's own few variables): 2 slots of 256 bytes with the 128-byte ring would leave none. */
#define HB_ARDUINO_STACK_WORST 361
#define HB_ARDUINO_FIXED_RAM 1072
#define HB_ARDUINO_STACK_RESERVE 64
#if defined(__AVR__)
#define HB_ARDUINO_SLOTS 2
#define HB_ARDUINO_SLOT_CAPACITY 192
#define HB_ARDUINO_STREAM_CAPACITY 128
#else
#define HB_ARDUINO_SLOTS 4
#define HB_ARDUINO_SLOT_CAPACITY 1024
#define HB_ARDUINO_STREAM_CAPACITY 256
#endif

/* Flush guard: a reply the device holds (ACK, NACK, PONG: hb_device_set_deferred_replies) is
 * encoded and sent by poll() only when the next step is further away than this, else after that
 * step, so that a step never waits for it. The longest, PONG, takes an ATmega328P at 16 MHz
 * about 190 us to encode and queue on a HardwareSerial; the 32-bit boards are several times
 * faster. */
#if defined(__AVR__)
#define HB_ARDUINO_FLUSH_GUARD_US 250u
#else
#define HB_ARDUINO_FLUSH_GUARD_US 100u
#endif

#endif
