/* The boundary between the portable core and a board's output stage.
 *
 * The core never calls this: a board's tick handler does, once per tick, with what the
 * interpreter produced:
 *
 *     hb_sample s = hb_interp_step(&interp);
 *     hb_hal_output(s.amp, s.sharp, s.flags);
 *
 * so the host tests and the Swift tests link the core without any board. Each board implements
 * both functions (PWM duty, DRV2605L RTP register, ...); the mapping from the 8-bit codes to the
 * actuator belongs to the board and its actuator profile. */
#ifndef HB_HAL_H
#define HB_HAL_H

#include <stdint.h>

/* Puts the output stage in its idle state (no drive). Called once at start-up. */
void hb_hal_output_init(void);

/* Drives the actuator for one tick: amplitude code, sharpness code, flags (bit 0: brake). */
void hb_hal_output(uint8_t amp, uint8_t sharp, uint8_t flags);

#endif
