/* The voltage caps of a PWM output stage: one definition for the bare-metal PWM stage
 * (boards/atmega328p/output_pwm.c) and the Arduino library's (HapticMotor), hardware/README.md
 * ("Supply tolerance and the duty caps") states the rule.
 *
 * A PWM stage puts duty / 255 of its supply on the actuator. The supply a build or a sketch
 * declares is a nominal figure; a real one runs higher (USB VBUS may be 5.25 V on a nominal 5 V,
 * USB 2.0 section 7.3.2), so the caps are computed against the highest the supply may be, the
 * declared figure plus HB_SUPPLY_TOLERANCE_PERCENT, rounded up: the largest duty d with
 * d / 255 x that maximum <= the voltage, never over 255. Integer arithmetic, valid in #if and at
 * run time (every argument is evaluated more than once: pass plain values). */
#ifndef HB_DRIVE_CAP_H
#define HB_DRIVE_CAP_H

/* USB VBUS: 4.75 to 5.25 V at the port, 5 % over the nominal 5 V; a bench supply or a regulator
 * is tighter. */
#define HB_SUPPLY_TOLERANCE_PERCENT 5UL

/* The highest the supply may be, in mV, for a declared `supply_mv`. */
#define HB_SUPPLY_MAX_MV(supply_mv) \
    ((unsigned long)(supply_mv) + ((unsigned long)(supply_mv)*HB_SUPPLY_TOLERANCE_PERCENT + 99UL) / 100UL)

/* The largest duty (of 255) whose voltage at the highest supply stays within `mv`. */
#define HB_DUTY_CAP(mv, supply_mv)                                       \
    ((255UL * (unsigned long)(mv) / HB_SUPPLY_MAX_MV(supply_mv)) > 255UL \
         ? 255UL                                                         \
         : (255UL * (unsigned long)(mv) / HB_SUPPLY_MAX_MV(supply_mv)))

#include <stdint.h>

/* x / 255 for x <= 65534, without a division. */
static inline uint8_t hb_div255(uint16_t x)
{
    return (uint8_t)((uint16_t)(x + 1u + (x >> 8)) >> 8);
}

/* The amplitude code `code` (0..255) as a duty under `cap`: (code x cap + 127) / 255, so code 255
 * is the cap and no code exceeds it, but at least 1 for a non-zero code under a non-zero cap:
 * rounding alone silences the lowest codes (code 1 under an LRA's cap of 102 at 5 V), so a pattern
 * that opens softly would not move the actuator at all. One step is never over the cap. */
static inline uint8_t hb_duty_scaled(uint8_t code, uint8_t cap)
{
    uint8_t duty = hb_div255((uint16_t)((uint16_t)code * cap + 127u));
    return (duty == 0u && code != 0u && cap != 0u) ? 1u : duty;
}

#endif
