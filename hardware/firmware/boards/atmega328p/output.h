/* The board's output stage, chosen at build time (make OUTPUT=pwm or OUTPUT=drv2605l).
 *
 * Timing contract, identical for both stages: the main loop computes tick k's sample right
 * after tick k begins and hands it over with hb_hal_output(); the stage makes it effective
 * at the start of tick k + 1. Every output therefore lags the interpreter by exactly one
 * tick, and changes happen on tick boundaries, not whenever the main loop gets there. */
#ifndef HB_OUTPUT_H
#define HB_OUTPUT_H

#include <stdint.h>

#include "hb_hal.h" /* hb_hal_output_init, hb_hal_output: the core's output boundary */

/* Timer updates per tick the stage needs (the tick timer runs at HB_TICK_HZ * this). */
#if defined(HB_BOARD_PWM) && defined(HB_BOARD_LRA)
#define HB_OUTPUT_UPDATES_PER_TICK 8u
#else
#define HB_OUTPUT_UPDATES_PER_TICK 1u
#endif

/* hb_hal_output_init() configures the stage and leaves it silent (interrupts still off);
 * hb_hal_output() latches one tick's sample (flags bit 0 = BRAKE), effective at the next
 * tick boundary. */

/* Called from the tick timer interrupt on every update; `boundary` is 1 on the first
 * update of a tick. */
void hb_output_timer_update(uint8_t boundary);

/* Called from the main loop once per tick, as soon as the tick has begun (the DRV2605L
 * stage writes the latched sample over I2C here). */
void hb_output_tick_begin(void);

/* Ticks whose boundary found no fresh sample (the main loop was late); the stage then
 * repeats the previous sample. Stays 0 while the tick work fits in a tick. */
extern volatile uint16_t hb_output_late_ticks;

#endif
