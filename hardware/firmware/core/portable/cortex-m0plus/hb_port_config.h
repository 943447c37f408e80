/* The port configuration of `make size-m0` (hardware/firmware/Makefile): the core as a Cortex-M0+
 * board with 32 KB of RAM or more (SAMD21, RP2040 class) would build it with arm-none-eabi-gcc.
 * Its sizes are the protocol's; GCC's attributes and the table-free CRC of the defaults suit it
 * (tables stay in flash as plain const data on a von Neumann CPU). */
#ifndef HB_PORT_CONFIG_H
#define HB_PORT_CONFIG_H

#define HB_DEVICE_MAX_SLOTS 8u
#define HB_PLAY_HISTORY 2u

#endif
