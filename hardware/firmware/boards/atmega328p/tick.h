/* The 1 kHz tick: Timer2 in CTC mode, HB_OUTPUT_UPDATES_PER_TICK compare interrupts per tick. */
#ifndef HB_TICK_H
#define HB_TICK_H

#include <stdint.h>

void hb_tick_init(void);

/* Ticks begun since boot, modulo 256 (the main loop compares it with its own count). */
uint8_t hb_tick_count(void);

/* Elapsed fraction of the current tick, in 1/65536 (PONG's subtick). */
uint16_t hb_tick_subtick(void);

#endif
