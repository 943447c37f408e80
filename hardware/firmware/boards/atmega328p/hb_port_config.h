/* The ATmega328P board's port configuration (core/include/hb_port.h finds it on the include path:
 * the Makefile puts this folder there): its sizes and avr-gcc's quirks. `make size-avr` builds the
 * core's objects with it too. */
#ifndef HB_PORT_CONFIG_H
#define HB_PORT_CONFIG_H

/* avr-gcc, avr-libc: tables in flash, the CRC update in assembly (-I core/portable/avr). */
#include "hb_port_avr.h"

/* 2 program slots (app_device.c: 2 of 256 bytes, PROTOCOL.md 2.16), so the slot table holds 2. */
#ifndef HB_DEVICE_MAX_SLOTS
#define HB_DEVICE_MAX_SLOTS 2u
#endif

/* Only the most recent play's record (2.19): 14 bytes of RAM less than the default's two. */
#ifndef HB_PLAY_HISTORY
#define HB_PLAY_HISTORY 1u
#endif

#endif
