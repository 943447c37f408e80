/* The library's port layer: every choice of the library that depends on the target, in one place
 * (the rest of the library is plain Arduino API, and the core plain C99).
 *
 * How the core finds this file: the core's sources (src/core/, copied by tools/arduino-library)
 * include "hb_port.h"; the copy keeps the core's own hb_port.h in src/core/port/, so the include
 * is not found beside them and falls through to the library's src/ folder, which every Arduino
 * build (the IDE, arduino-cli, PlatformIO) puts on the include path: this file. It does what the
 * firmware's Makefiles do with -DHB_PORT_HEADER (a library gets no compiler flags of its own)
 * and then includes the core's hb_port.h, whose defaults fill in the rest.
 *
 * Included by C and C++ files: macros only. */
#ifndef HB_ARDUINO_PORT_H
#define HB_ARDUINO_PORT_H

#if defined(__AVR__)
/* avr-gcc and avr-libc (Uno, Nano, Mega, Leonardo...): the core's AVR port, as the bare-metal
 * ATmega328P firmware builds it (hardware/firmware/core/portable/avr: flash tables, the CRC
 * update in assembly). */
#define HB_PORT_HEADER "hb_port_avr.h"
#endif

#include "core/port/hb_port.h"

/* Memory of the HapticBridge typedef (HapticBridgeWith<slots, slot bytes, stream bytes> for
 * others). An AVR gets the sizes of PROTOCOL.md 2.16 for the ATmega328P's 2 KB: 2 slots of 256
 * bytes and a 128-byte stream ring (640 bytes); the 32-bit boards, with 32 KB of RAM or more, the
 * protocol's defaults: 4 slots of 1,024 bytes and a 256-byte ring. (The core's slot table is
 * sized for HB_DEVICE_MAX_SLOTS = 8 slots whatever the count: the Arduino IDE cannot pass the
 * -DHB_DEVICE_MAX_SLOTS=2 of the bare-metal build, which costs an AVR 54 bytes of RAM.) */
#if defined(__AVR__)
#define HB_ARDUINO_SLOTS 2
#define HB_ARDUINO_SLOT_CAPACITY 256
#define HB_ARDUINO_STREAM_CAPACITY 128
#else
#define HB_ARDUINO_SLOTS 4
#define HB_ARDUINO_SLOT_CAPACITY 1024
#define HB_ARDUINO_STREAM_CAPACITY 256
#endif

#endif
