/* The core's port for the BBC micro:bit v1 (nRF51822: Cortex-M0, 256 KB flash, 16 KB RAM), as
 * QEMU's `microbit` machine runs it: found by core/include/hb_port.h (__has_include) because this
 * board's Makefile puts this folder on the include path.
 *
 * The sizes are PROTOCOL.md 2.16's defaults (the core's HB_DEVICE_DEFAULT_*): 16 KB of RAM holds
 * them with room to spare (`make -C hardware/firmware size-microbit`). Nothing else differs from
 * the plain-C defaults of hb_port.h: a 32-bit CPU with a unified address space reads tables from
 * flash with ordinary loads, and the portable CRC update compiles to a dozen Thumb instructions. */
#ifndef HB_PORT_CONFIG_H
#define HB_PORT_CONFIG_H

#define HB_DEVICE_MAX_SLOTS 4u
#define HB_PLAY_HISTORY 2u

#define HB_BOARD_SLOT_COUNT 4u
#define HB_BOARD_SLOT_CAPACITY 1024u
#define HB_BOARD_STREAM_CAPACITY 256u
#define HB_BOARD_RX_BUFFER 256u

#endif
