/* The 1 kHz tick: TIMER0 counting at 16 MHz (32-bit, free-running) on a fixed grid of 16,000
 * counts, compare 0 on its next point, so ticks never drift and none is lost whatever the
 * interrupt's latency (tick.c). */
#ifndef HB_MICROBIT_TICK_H
#define HB_MICROBIT_TICK_H

#include <stdint.h>

#define HB_TICK_HZ 1000u
#define HB_TIMER_COUNTS_PER_TICK (16000000u / HB_TICK_HZ)

void hb_tick_init(void);
/* Ticks since the timer started (the main loop runs one step per tick). */
uint32_t hb_tick_count(void);
/* The timer's count now (16 MHz): step costs are measured in it. */
uint32_t hb_tick_now(void);
/* Elapsed fraction of the current tick in 1/65536 (PONG's subtick). */
uint16_t hb_tick_subtick(void);
/* Sleeps HB_TICK_NAP_COUNTS (TIMER1, one-shot) or until an interrupt: the lockstep main loop's
 * idle, between looks for a grant (main.c). 200 us: a grant waits at most that long. */
#define HB_TICK_NAP_COUNTS 3200u
void hb_tick_nap(void);

#endif
