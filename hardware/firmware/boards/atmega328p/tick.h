/* The 1 kHz tick: Timer2 (2.0 images) or Timer0 (3.0 images) in CTC mode, HB_OUTPUT_UPDATES_PER_TICK compare
 * interrupts per tick, and the step trigger HB_STEP_LEAD_CYCLES before each tick boundary (board.h explains
 * the lead). */
#ifndef HB_TICK_H
#define HB_TICK_H

#include <stdint.h>

#include "board.h"
#include "output.h"

/* Where the step of device tick k is triggered: in timer tick k, HB_STEP_LEAD_CYCLES before the
 * boundary of timer tick k + 1, from which its sample is output (board.h, "Step lead"), at the
 * phase HB_STEP_PHASE of the timer tick. The 8-update build triggers at the compare A match of
 * an update when the phase falls on one, else at a compare B match (OCR2B) enabled during that
 * update only; the 1-update builds at compare B, whose 64-cycle counts round the lead down. */
#if HB_OUTPUT_UPDATES_PER_TICK == 8u
#define HB_STEP_TIMER_PRESCALER 8UL
#define HB_STEP_LEAD_CYCLES HB_STEP_LEAD_REQUESTED
#define HB_STEP_PHASE (HB_CYCLES_PER_TICK - HB_STEP_LEAD_CYCLES)
#define HB_STEP_UPDATE_CYCLES (HB_CYCLES_PER_TICK / HB_OUTPUT_UPDATES_PER_TICK)
/* The update in which the trigger falls, and how far into it. */
#define HB_STEP_UPDATE (HB_STEP_PHASE / HB_STEP_UPDATE_CYCLES)
#define HB_STEP_OFFSET (HB_STEP_PHASE % HB_STEP_UPDATE_CYCLES)
#if HB_STEP_OFFSET % HB_STEP_TIMER_PRESCALER != 0UL
#error "the step lead must be a multiple of 8 cycles in the 8-update build"
#endif
#define HB_STEP_OCR2B (HB_STEP_OFFSET / HB_STEP_TIMER_PRESCALER - 1UL)
#elif HB_OUTPUT_UPDATES_PER_TICK == 1u
#define HB_STEP_TIMER_PRESCALER 64UL
#define HB_STEP_LEAD_CYCLES (HB_STEP_LEAD_REQUESTED / HB_STEP_TIMER_PRESCALER * HB_STEP_TIMER_PRESCALER)
#define HB_STEP_PHASE (HB_CYCLES_PER_TICK - HB_STEP_LEAD_CYCLES)
#define HB_STEP_OFFSET HB_STEP_PHASE
#define HB_STEP_OCR2B (HB_STEP_PHASE / HB_STEP_TIMER_PRESCALER - 1UL)
#else
#error "unsupported HB_OUTPUT_UPDATES_PER_TICK"
#endif
#if HB_STEP_LEAD_CYCLES == 0UL || HB_STEP_LEAD_CYCLES >= HB_CYCLES_PER_TICK
#error "the step lead must lie within a tick"
#endif

/* The lead in cycles, kept in the image for the simulator harness (Sources/AVREmulator reads it
 * to know when each step ran). */
extern volatile const uint16_t hb_tick_step_lead;

void hb_tick_init(void);

/* The tick trim (PROTOCOL-3.md 3.10), in the 3.0 images' Timer0 tick: the nominal tick is
 * HB_TICK_PERIOD_COUNTS timer counts (2,000 of 8 cycles in the 8-update build, 250 of 64 in the
 * 1-update one), and the tick whose sample the last step handed over lasts that minus `delta`
 * counts (hb_trim_tick's result for that step; |delta| <= 20 and 3: 1 % of the tick). Taken at
 * that tick's boundary, with the sample. */
#define HB_TICK_PERIOD_COUNTS (250UL * HB_OUTPUT_UPDATES_PER_TICK)
void hb_tick_set_trim(int8_t delta);

/* Steps triggered since boot, modulo 256 (the main loop compares it with its own count). */
uint8_t hb_tick_count(void);

/* Elapsed fraction of the current device tick, in 1/65536 (PONG's subtick): the time since the
 * last step trigger, so that `now + subtick` reads step k + 1 when step k is triggered. */
uint16_t hb_tick_subtick(void);

/* 1 when the next step trigger is less than HB_FLUSH_GUARD_CYCLES (board.h) away: the main loop
 * then leaves the encoding and sending of held replies for after the step. */
uint8_t hb_tick_trigger_near(void);

#endif
