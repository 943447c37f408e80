/* The board's output stage, chosen at build time (make OUTPUT=pwm or OUTPUT=drv2605l).
 *
 * Timing contract, identical for both stages: the main loop computes device tick k's sample
 * when the step trigger of timer tick k comes (HB_STEP_LEAD_CYCLES before the boundary of timer
 * tick k + 1, tick.h) and hands it over with hb_hal_output(); the stage makes it effective at
 * that boundary. Every output therefore lags its step's trigger by exactly the lead, and changes
 * happen on tick boundaries, not whenever the main loop gets there. A step that has not handed
 * its sample over by the boundary is late: the stage plays the newest sample it has (a tick
 * stale) and counts it, knowing from the step count tagged on each hand-off. */
#ifndef HB_OUTPUT_H
#define HB_OUTPUT_H

#include <stdint.h>

#include "hb_hal.h" /* hb_hal_output_init, hb_hal_output: the core's output boundary */

/* Timer updates per tick the stage needs (the tick timer runs at HB_TICK_HZ * this). */
#if defined(HB_OUTPUT_UPDATES_PER_TICK)
/* set by the build (the two-bridge 3.0 image: 8, whatever its channels' actuators) */
#elif defined(HB_BOARD_PWM) && defined(HB_BOARD_LRA)
#define HB_OUTPUT_UPDATES_PER_TICK 8u
#else
#define HB_OUTPUT_UPDATES_PER_TICK 1u
#endif

/* hb_hal_output_init() configures the stage and leaves it silent (interrupts still off);
 * hb_hal_output() latches one tick's sample (flags bit 0 = BRAKE), effective at the next
 * tick boundary. */

/* Called from the tick timer interrupt on every update; `boundary` is 1 on the first
 * update of a tick: the stage takes the latched sample (or counts a late tick). */
void hb_output_timer_update(uint8_t boundary);

/* Work the stage leaves to the main loop after a boundary (the DRV2605L stage's I2C write of
 * the sample it took there): hb_output_work_due() says whether there is some, hb_output_work()
 * does it. The main loop runs it as soon as it can, before a due step, and from the yield hook
 * during long frames. The PWM stage has none. */
#if defined(HB_BOARD_DRV2605L)
extern volatile uint8_t hb_output_write_due;
#define hb_output_work_due() (hb_output_write_due != 0u)
void hb_output_work(void);
#else
#define hb_output_work_due() 0
#define hb_output_work() ((void)0)
#endif

/* The stage's bookkeeping for the tick just handed over that the next hand-off needs but this
 * one does not (the PWM stage's predicted envelope): the main loop calls it right after
 * hb_hal_output(), outside the step's lead (the DRV2605L x4 stage: its checks of the drivers). */
#if defined(HB_BOARD_PWM) || defined(HB_BOARD_DRV2605L_X4)
void hb_output_after_step(void);
#else
#define hb_output_after_step() ((void)0)
#endif

/* Boundaries that found no sample from the step due there (the main loop was late); the stage
 * then plays the newest it has. Stays 0 while every step finishes within the lead. */
extern volatile uint16_t hb_output_late_ticks;

/* The stage's fault (PROTOCOL.md 2.18: HB_ERR_DRIVER_ABSENT .. HB_ERR_OVER_CURRENT), 0 when none;
 * the device is told before every step. */
uint8_t hb_output_fault(void);
/* Fills a DIAG_REPORT payload (2.18), zeroed by the caller; the device sets the fault byte. */
void hb_output_diag(uint8_t *payload);
/* SET_CONFIG RECALIBRATE: 0 when the stage had a calibration to forget (the board then restarts
 * to calibrate while booting), else the NACK code. */
uint8_t hb_output_recalibrate(void);

#endif
