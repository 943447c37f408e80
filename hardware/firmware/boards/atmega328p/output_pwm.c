/* PWM output stage for a motor driver / H-bridge (e.g. DRV8833 in IN/IN mode):
 * Timer1, 8-bit phase-correct PWM at 16 MHz / 510 = 31.37 kHz (inaudible), OC1A = D9 drives
 * the bridge's "forward" input, OC1B = D10 its "reverse" input. Duty = OCR / 255 exactly:
 * phase-correct mode gives a flat 0 % at OCR = 0 and 100 % at OCR = 255.
 *
 * Drive synthesis (normative; hardware/README.md, "PWM drive synthesis", states it for the
 * Swift model). Per tick the stage latches (drive D, increment I, invert V):
 *   - not braking: D = amplitude, V = 0, and the brake level B := amplitude;
 *   - braking (flags bit 0): D = B (the last non-brake amplitude), V = 1 (anti-phase);
 *   - I = I_MIN + (((I_MAX - I_MIN) * sharpness + 128) >> 8), I_X = (f_X * 65536 + 4000) / 8000
 *     for an LRA (f_MIN == f_MAX for a narrow-band LRA: the resonance), I = 0 for an ERM.
 * At each update (8 per tick for an LRA, 1 for an ERM), with a 16-bit phase accumulator P:
 *   - first update of a tick: if D > 0 and the previous tick's D was 0, P := 0;
 *   - negative = (P >> 15) XOR V; forward OCR1A = negative ? 0 : D, OCR1B = negative ? D : 0;
 *   - P := (P + I) mod 65536.
 * An ERM (I = 0) therefore gets duty = amplitude forward and reverse drive while braking. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#include "output.h"
#include "tick.h"

#if defined(HB_BOARD_LRA)
#ifndef HB_LRA_F_MIN_HZ
#define HB_LRA_F_MIN_HZ 170UL
#endif
#ifndef HB_LRA_F_MAX_HZ
#define HB_LRA_F_MAX_HZ HB_LRA_F_MIN_HZ
#endif
#define UPDATES_PER_SECOND (1000UL * HB_OUTPUT_UPDATES_PER_TICK)
#define PHASE_INCREMENT_RAW(f) ((65536UL * (f) + UPDATES_PER_SECOND / 2UL) / UPDATES_PER_SECOND)
#define PHASE_INCREMENT(f) ((uint16_t)PHASE_INCREMENT_RAW(f))
#define INC_MIN PHASE_INCREMENT(HB_LRA_F_MIN_HZ)
#define INC_MAX PHASE_INCREMENT(HB_LRA_F_MAX_HZ)
#define INC_SPAN_RAW (PHASE_INCREMENT_RAW(HB_LRA_F_MAX_HZ) - PHASE_INCREMENT_RAW(HB_LRA_F_MIN_HZ))
#elif defined(HB_BOARD_ERM)
#define INC_MIN 0u
#define INC_MAX 0u
#define INC_SPAN_RAW 0UL
#else
#error "define HB_BOARD_LRA or HB_BOARD_ERM"
#endif

volatile uint16_t hb_output_late_ticks;

/* Latched by the main loop, taken by the timer interrupt at the next tick boundary. */
static volatile uint8_t latch_drive;
static volatile uint16_t latch_increment;
static volatile uint8_t latch_invert;
/* The step count (hb_tick_count) when the sample was handed over: the boundary that follows
 * step k's trigger expects k + 1; an older tag means the step due there was late. */
static volatile uint8_t latch_tag;
static uint8_t brake_level; /* main loop only */

/* Interrupt-only synthesis state. */
static uint8_t drive;
static uint16_t increment;
static uint8_t invert;
static uint16_t phase;

void hb_hal_output_init(void)
{
    OCR1A = 0;
    OCR1B = 0;
    DDRB |= _BV(DDB1) | _BV(DDB2);                   /* D9, D10 outputs */
    TCCR1A = _BV(COM1A1) | _BV(COM1B1) | _BV(WGM10); /* non-inverting, phase-correct 8-bit */
    TCCR1B = _BV(CS10);                              /* no prescaler */
}

void hb_hal_output(uint8_t amplitude, uint8_t sharpness, uint8_t flags)
{
    uint8_t braking = flags & 1u;
    uint8_t d;
    if (braking) {
        d = brake_level;
    } else {
        d = amplitude;
        brake_level = amplitude;
    }
#if INC_SPAN_RAW * 255UL + 128UL <= 0xFFFFUL
    /* the band's span times 255 fits 16 bits (164 x 255 for 160..180 Hz): no 32-bit multiply */
    uint16_t inc =
        (uint16_t)(INC_MIN + (uint16_t)(((uint16_t)(INC_MAX - INC_MIN) * (uint16_t)sharpness + 128u) >> 8));
#else
    uint16_t inc =
        (uint16_t)(INC_MIN + (uint16_t)((((uint32_t)(INC_MAX - INC_MIN)) * sharpness + 128u) >> 8));
#endif
    ATOMIC_BLOCK (ATOMIC_RESTORESTATE) {
        latch_drive = d;
        latch_increment = inc;
        latch_invert = braking;
        latch_tag = hb_tick_count();
    }
}

void hb_output_timer_update(uint8_t boundary)
{
    if (boundary) {
        if (latch_tag != hb_tick_count()) {
            hb_output_late_ticks++; /* the newest sample there is plays on, a tick stale */
        }
        uint8_t d = latch_drive;
        if (d != 0u && drive == 0u) {
            phase = 0;
        }
        drive = d;
        increment = latch_increment;
        invert = latch_invert;
    }
    uint8_t negative = (uint8_t)((uint8_t)(phase >> 15) ^ invert);
    if (negative) {
        OCR1A = 0;
        OCR1B = drive;
    } else {
        OCR1A = drive;
        OCR1B = 0;
    }
    phase = (uint16_t)(phase + increment);
}
